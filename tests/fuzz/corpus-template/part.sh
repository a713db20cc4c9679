{{%sh}}
set -e
printf '%s\n'{{#lines}} {{line}}{{/lines}} |
    sfdisk --quiet --wipe always --wipe-partitions always {{dev}}
udevadm settle
