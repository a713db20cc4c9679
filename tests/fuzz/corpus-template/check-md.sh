{{%sh}}
# Can this host make the arrays, volume groups and mounts? Changes nothing.
rc=0
for tool in{{#need_mdadm}} mdadm{{/need_mdadm}}{{#need_lvm}} pvcreate vgcreate lvcreate{{/need_lvm}}{{#need_sfdisk}} sfdisk{{/need_sfdisk}}{{#need_mkfs}} findmnt blkid{{/need_mkfs}}; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "lab: $tool is not installed" >&2
		rc=1
	fi
done
{{#arrays}}
if [ -e {{dev}} ] || grep -q "^ARRAY {{dev|raw}} " /etc/mdadm/mdadm.conf 2>/dev/null; then
	echo "lab: an md array {{dev|raw}} exists already" >&2
	rc=1
fi
{{/arrays}}
{{#vgs}}
if command -v vgs >/dev/null 2>&1 && vgs {{vg}} >/dev/null 2>&1; then
	echo "lab: a volume group {{vg|raw}} exists already" >&2
	rc=1
fi
{{/vgs}}
{{#mounts}}
if findmnt -rn --mountpoint {{mount}} >/dev/null 2>&1; then
	echo "lab: {{mount|raw}} is a mount point in use" >&2
	rc=1
fi
{{/mounts}}
exit $rc
