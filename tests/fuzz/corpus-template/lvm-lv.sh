{{%sh}}
lvcreate --yes --wipesignatures y --name {{lv}} {{#rest}}--extents 100%FREE{{/rest}}{{^rest}}--size {{bytes|raw}}b{{/rest}} {{vg}}
