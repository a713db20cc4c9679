{{%sh}}
wipefs --all --quiet{{#devs}} {{dev}}{{/devs}}
