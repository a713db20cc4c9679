{{%sh}}
#!/bin/sh
# Written by lab: saves the network config, arms the rollback (in
# {{rollback_s|raw}} s unless confirm.sh runs first) and starts switch.sh
# apart from this SSH session, which the switch may cut.
set -eu
S={{staging}}
if [ -e "$S/pending" ]; then
	echo "lab: an earlier network change is not confirmed yet" >&2
	exit 1
fi
rm -rf "$S/saved" "$S/decided" "$S/switched" "$S/rolled-back"
mkdir -p "$S/saved"
{{#ifupdown}}
cp -p /etc/network/interfaces "$S/saved/interfaces"
mkdir -p /etc/network/interfaces.d
cp -pR /etc/network/interfaces.d "$S/saved/interfaces.d"
ifquery --state 2>/dev/null | cut -d= -f1 >"$S/saved/up" || true
{{/ifupdown}}
{{#networkd}}
mkdir -p /etc/systemd/network
cp -pR /etc/systemd/network "$S/saved/network"
{{/networkd}}
{{#netplan}}
mkdir -p /etc/netplan
cp -pR /etc/netplan "$S/saved/netplan"
{{/netplan}}
date +%s >"$S/pending"
if command -v systemd-run >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
	systemctl stop lab-net-rollback.timer 2>/dev/null || true
	systemctl reset-failed lab-net-rollback.service lab-net-rollback.timer 2>/dev/null || true
	systemd-run --quiet --unit=lab-net-rollback --on-active={{rollback_s}} /bin/sh "$S/rollback.sh"
else
	setsid nohup sh "$S/rollback.sh" {{rollback_s}} </dev/null >>"$S/rollback.log" 2>&1 &
fi
setsid nohup sh "$S/switch.sh" </dev/null >"$S/switch.log" 2>&1 &
echo "lab: switching to the new network config; it is rolled back in {{rollback_s|raw}} s unless confirmed"
