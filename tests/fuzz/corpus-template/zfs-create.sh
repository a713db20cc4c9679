{{%sh}}
zpool create{{#force}} -f{{/force}} -o ashift=12 -O compression={{compression|raw}} -O sync=standard {{pool}}{{#vdevs}} \
    {{#type}}{{type|raw}} {{/type}}{{#devs}}{{#sp}} {{/sp}}{{dev}}{{/devs}}{{/vdevs}}{{#cache}} \
    cache {{cache}}{{/cache}}{{#log}} \
    log {{log}}{{/log}}
