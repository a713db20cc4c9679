{{%sh}}
# Can this host make pool {{pool|raw}}? Changes nothing.
pool={{pool}}
if ! command -v zpool >/dev/null 2>&1; then
	echo "lab: zpool is not installed (zfsutils-linux, or zfs-fuse)" >&2
	exit 1
fi
if zpool list -H -o name "$pool" >/dev/null 2>&1; then
	echo "lab: a pool named $pool exists already" >&2
	exit 1
fi
{{#check_lz4}}
if ! zpool upgrade -v 2>/dev/null | grep -q lz4_compress; then
	echo "lab: this ZFS has no lz4 compression (an older pool version): plan again with the target's facts to get compression=on" >&2
	exit 1
fi
{{/check_lz4}}
