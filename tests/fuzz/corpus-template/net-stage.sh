{{%sh}}
set -e
S={{staging}}
rm -rf "$S/new"
mkdir -p "$S"{{#dirs}} "$S/new"{{dir}}{{/dirs}}
