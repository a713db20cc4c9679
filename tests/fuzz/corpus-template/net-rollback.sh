{{%sh}}
#!/bin/sh
# Written by lab: unless confirm.sh ran first, puts the saved network
# config back and restarts what it changed. "rollback.sh N" waits N s
# first; "rollback.sh now" does not.
set -u
S={{staging}}
case ${1:-} in
[0-9]*) sleep "$1" ;;
esac
# whoever makes $S/decided first, confirm.sh or this, decides
mkdir "$S/decided" 2>/dev/null || exit 0
echo "lab: rolling back to the saved network config"
{{#ifupdown}}
{{#ups_rev}}
ifdown {{name}} || ifdown --force {{name}} || true
{{/ups_rev}}
{{/ifupdown}}
{{#files}}
rm -f {{path}}
{{/files}}
{{#ifupdown}}
cp -p "$S/saved/interfaces" /etc/network/interfaces
rm -rf /etc/network/interfaces.d
cp -pR "$S/saved/interfaces.d" /etc/network/interfaces.d
{{/ifupdown}}
{{#networkd}}
rm -rf /etc/systemd/network
cp -pR "$S/saved/network" /etc/systemd/network
{{/networkd}}
{{#netplan}}
rm -rf /etc/netplan
cp -pR "$S/saved/netplan" /etc/netplan
{{/netplan}}
{{#ups_rev}}
if [ -e /sys/class/net/{{name|raw}} ]; then
	ip link delete {{name}} || true
fi
{{/ups_rev}}
{{#ifupdown}}
while read -r i; do
	ifup "$i" </dev/null || true
done <"$S/saved/up"
{{/ifupdown}}
{{#networkd}}
networkctl reload || true
networkctl reconfigure{{#nics}} {{name}}{{/nics}} || true
{{/networkd}}
{{#netplan}}
netplan apply || true
{{/netplan}}
date +%s >"$S/rolled-back"
rm -f "$S/pending"
echo "lab: the saved network config is back"
