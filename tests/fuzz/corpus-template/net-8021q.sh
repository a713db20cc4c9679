{{%sh}}
# Can this host tag VLANs? Changes nothing.
rc=0
if [ ! -d /proc/net/vlan ] && [ ! -d /sys/module/8021q ] &&
    ! modprobe -n -q 8021q 2>/dev/null; then
	echo "lab: the kernel has no 8021q module (modprobe 8021q fails): it cannot tag VLANs" >&2
	rc=1
fi
{{#vparents}}
if [ ! -e /sys/class/net/{{name|raw}} ]; then
	echo "lab: this host has no NIC {{name|raw}} to tag VLANs on" >&2
	rc=1
fi
{{/vparents}}
{{#vlinks}}
if [ -e /sys/class/net/{{name|raw}} ] && [ ! -e /proc/net/vlan/{{name|raw}} ]; then
	echo "lab: {{name|raw}} exists here and is not a VLAN interface" >&2
	rc=1
fi
{{/vlinks}}
exit $rc
