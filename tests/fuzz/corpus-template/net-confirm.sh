{{%sh}}
#!/bin/sh
# Written by lab, run over a new SSH connection: keeps the new network
# config by stopping the rollback.
set -u
S={{staging}}
i=0
while [ ! -e "$S/switched" ] && [ ! -e "$S/decided" ] && [ $i -lt 30 ]; do
	sleep 1
	i=$((i + 1))
done
if [ "$(cat "$S/switched" 2>/dev/null)" != ok ]; then
	echo "lab: the new network config did not come up (see $S/switch.log); the saved one is put back" >&2
	exit 1
fi
if ! mkdir "$S/decided" 2>/dev/null; then
	echo "lab: too late: the rollback has put the saved network config back" >&2
	exit 1
fi
rm -f "$S/pending"
if command -v systemctl >/dev/null 2>&1; then
	systemctl stop lab-net-rollback.timer 2>/dev/null || true
fi
echo "lab: the new network config is confirmed"
