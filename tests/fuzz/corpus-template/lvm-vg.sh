{{%sh}}
set -e
pvcreate --yes{{#pvs}} {{dev}}{{/pvs}}
vgcreate {{vg}}{{#pvs}} {{dev}}{{/pvs}}
