{{%sh}}
# Are the disks free? Changes nothing; names every disk that is not.
check_disk() {
	slot=$1
	dev=$2
	if [ ! -b "$dev" ]; then
		echo "lab: slot $slot: $dev: no such block device" >&2
		return 1
	fi
	real=$(readlink -f -- "$dev")
	name=${real##*/}
	byname=${dev##*/}
	mnt=$(lsblk -nro MOUNTPOINT -- "$real" 2>/dev/null | sed '/^$/d' | head -n 1)
	if [ -n "$mnt" ]; then
		echo "lab: slot $slot: $dev: it (or a partition of it) is mounted on $mnt" >&2
		return 1
	fi
	if [ -r /proc/mdstat ] &&
	    grep -Eq "(^|[[:space:]])${name}p?[0-9]*\[" /proc/mdstat; then
		echo "lab: slot $slot: $dev: it is in an md array (/proc/mdstat)" >&2
		return 1
	fi
	if command -v zpool >/dev/null 2>&1 &&
	    zpool status 2>/dev/null | awk -v a="$name" -v b="$byname" '
		{ t = $1; sub(".*/", "", t)
		  if (t == a || t == b || index(t, b "-part") == 1 ||
		      (index(t, a) == 1 && substr(t, length(a) + 1) ~ /^p?[0-9]+$/))
			found = 1 }
		END { exit !found }'; then
		echo "lab: slot $slot: $dev: it is in a ZFS pool (zpool status)" >&2
		return 1
	fi
	if command -v pvs >/dev/null 2>&1; then
		for pv in $(pvs --noheadings -o pv_name 2>/dev/null); do
			case $(readlink -f -- "$pv") in
			"$real" | "$real"[0-9]* | "$real"p[0-9]*)
				echo "lab: slot $slot: $dev: it is an LVM physical volume ($pv)" >&2
				return 1 ;;
			esac
		done
	fi
{{^force}}
	sigs=$(wipefs --noheadings -O TYPE -- "$real" 2>/dev/null | tr '\n' ' ')
	if [ -n "$sigs" ]; then
		echo "lab: slot $slot: $dev: it holds a partition table or signatures (${sigs% }): wipe it, or plan with --force" >&2
		return 1
	fi
{{/force}}
	return 0
}
rc=0
{{#disks}}
check_disk {{slot}} {{dev}} || rc=1
{{/disks}}
exit $rc
