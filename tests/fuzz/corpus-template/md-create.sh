{{%sh}}
mdadm --create {{dev}} --run --metadata=1.2 --level={{level|raw}} \
    --raid-devices={{count|raw}}{{#devs}} {{dev}}{{/devs}}
