{{%sh}}
# Can this host take the new network config? Changes nothing.
S={{staging}}
rc=0
check_nic() {
	if [ ! -e "/sys/class/net/$1" ]; then
		echo "lab: this host has no NIC $1" >&2
		rc=1
		return
	fi
	mac=$(cat "/sys/class/net/$1/address")
	if [ -r "/sys/class/net/$1/bonding_slave/perm_hwaddr" ]; then
		mac=$(cat "/sys/class/net/$1/bonding_slave/perm_hwaddr")
	fi
	if [ "$mac" != "$2" ]; then
		echo "lab: NIC $1 has MAC $mac here, the inventory says $2" >&2
		rc=1
	fi
}
{{#nics}}
check_nic {{name}} {{mac}}
{{/nics}}
check_module() {
	if [ ! -d "/sys/module/$1" ] && ! modinfo "$1" >/dev/null 2>&1; then
		echo "lab: the kernel has no $1 module" >&2
		rc=1
	fi
}
check_module bonding
{{#bridge}}
check_module bridge
{{/bridge}}
if [ -e "$S/pending" ]; then
	echo "lab: an earlier network change is not confirmed yet ($S/pending): wait for its rollback" >&2
	rc=1
fi
{{#ifupdown}}
if ! command -v ifup >/dev/null 2>&1 || [ ! -f /etc/network/interfaces ]; then
	echo "lab: ifupdown is not installed (apt-get install ifupdown)" >&2
	rc=1
fi
if [ ! -e /etc/network/if-pre-up.d/ifenslave ]; then
	echo "lab: ifenslave is not installed (apt-get install ifenslave)" >&2
	rc=1
fi
{{#bridge}}
if [ ! -e /etc/network/if-pre-up.d/bridge ]; then
	echo "lab: bridge-utils is not installed (apt-get install bridge-utils)" >&2
	rc=1
fi
{{/bridge}}
{{/ifupdown}}
{{#networkd}}
if ! systemctl is-active --quiet systemd-networkd; then
	echo "lab: systemd-networkd is not running here" >&2
	rc=1
fi
{{/networkd}}
{{#netplan}}
if ! command -v netplan >/dev/null 2>&1; then
	echo "lab: netplan is not installed (apt-get install netplan.io)" >&2
	rc=1
fi
{{/netplan}}
exit $rc
