# SPDX-License-Identifier: GPL-3.0-or-later
# checks.sh: what the "lab in a box" guest must look like, checked from
# inside over ssh. Source it after vm.sh; each check takes the VM's folder,
# prints what it found on failure and returns 1 (never exits).
#
#	check_box DIR			the machine as built: disks, NICs, tools
#	check_raid10_lvm DIR [VG]	md RAID10 over the 4 data disks + LVM
#	check_bond_bridge DIR		bond0 active-backup over eth0..2 in br0
#	check_failover DIR		a NIC's cable pulled: the bond fails over
#	check_network_as_built DIR	eth0 by DHCP, no bond, no bridge
#	check_net_confirmed DIR		lab confirmed the change: no rollback
#	check_net_rolled_back DIR	switched, then rolled back by the timer
#	check_vlan DIR NAME PARENT ID [ADDR]  NAME: VLAN ID on PARENT, up,
#					with address ADDR, else none
#	check_zfs_raid10 DIR [POOL]	a ZFS pool of two mirrors over the 4 disks
#	check_zfs_raidz1_cache DIR [POOL]  raidz1 over the 4 disks, the SSD
#					as its L2ARC
#	check_smart_ata DIR		the ATA disk answers smartctl -j: passed

_ck_fail() { echo "checks.sh: $*" >&2; return 1; }

# Runs CMD in the guest, keeping its output in DIR/guest.out.
_ck_run()
{
	_ckd=$1
	shift
	vm_ssh "$_ckd" "$@" >"$_ckd/guest.out" 2>&1 </dev/null || {
		echo "--- $*:" >&2
		tail -30 "$_ckd/guest.out" >&2
		_ck_fail "guest command failed: $*"
		return 1
	}
}

# The guest's output must match REGEX (grep -E).
_ck_has()
{
	grep -Eq -- "$2" "$1/guest.out" && return 0
	echo "--- guest output:" >&2
	head -40 "$1/guest.out" >&2
	_ck_fail "lacks '$2'"
}

check_box()
{
	_ck_run "$1" 'hostname; passwd -S root' || return 1
	_ck_has "$1" '^box$' || return 1
	_ck_has "$1" '^root L ' || return 1	# root's password is locked
	# four virtio data disks, an SSD, three virtio bench disks and an
	# ATA disk, by their stable names
	_ck_run "$1" 'for d in virtio-lab-d1 virtio-lab-d2 virtio-lab-d3 \
	    virtio-lab-d4 virtio-lab-d5 virtio-lab-d6 virtio-lab-d7 \
	    scsi-0QEMU_QEMU_HARDDISK_lab-ssd ata-QEMU_HARDDISK_LABIDE01; do
		printf "%s %s\n" $d $(basename $(readlink -f /dev/disk/by-id/$d))
	    done; lsblk -dnbo NAME,ROTA,SIZE' || return 1
	for _ckn in 1 2 3 4 5 6 7; do
		_ck_has "$1" "^virtio-lab-d$_ckn vd[b-h]\$" || return 1
	done
	_ck_has "$1" '^scsi-0QEMU_QEMU_HARDDISK_lab-ssd sd[a-z]$' || return 1
	_ck_has "$1" '^ata-QEMU_HARDDISK_LABIDE01 sd[a-z]$' || return 1
	_ck_has "$1" '^sd[a-z] +0 ' || return 1		# not rotational
	_ck_has "$1" '^vda ' || return 1
	# eth0..eth2 with the MACs qemu was given; eth0 is the management NIC
	_ck_run "$1" 'cat /sys/class/net/eth0/address /sys/class/net/eth1/address \
	    /sys/class/net/eth2/address; ip -4 -o addr show dev eth0' || return 1
	for _ckn in 1 2 3; do
		_ck_has "$1" "^$VM_MAC:0$_ckn\$" || return 1
	done
	_ck_has "$1" 'eth0 +inet 10\.0\.2\.15/24' || return 1
	# what provisioning uses
	_ck_run "$1" 'for t in mdadm pvcreate vgcreate lvcreate mkfs.ext4 \
	    brctl ifup ifquery netplan wipefs blkid lsblk findmnt sfdisk \
	    update-initramfs udevadm systemd-run fio smartctl; do
		command -v $t >/dev/null || echo "missing $t"
	    done
	    [ -x /etc/network/if-pre-up.d/ifenslave ] || echo "no ifenslave"
	    for m in raid10 raid1 raid456 dm_mod bonding bridge 8021q; do
		modprobe $m || echo "no module $m"
	    done' || return 1
	if grep -q . "$1/guest.out"; then
		cat "$1/guest.out" >&2
		_ck_fail "the guest lacks tools or modules"
		return 1
	fi
}

# An md RAID10 over exactly the four data disks, all in sync and up,
# holding (alone) an LVM volume group (VG, else any); its logical volumes,
# if any, active.
check_raid10_lvm()
{
	_ck_run "$1" 'cat /proc/mdstat; for md in /dev/md/* /dev/md[0-9]*; do
		[ -b "$md" ] && mdadm --detail "$md"; done; true' || return 1
	_ck_has "$1" ': active raid10 ' || return 1
	_ck_has "$1" '\[4/4\] \[UUUU\]' || return 1
	for _ckd in vdb vdc vdd vde; do
		_ck_has "$1" "active sync .*/dev/$_ckd" || return 1
	done
	_ck_has "$1" 'State : (clean|active)' || return 1
	_ck_run "$1" 'pvs --noheadings -o pv_name,vg_name;
	    vgs --noheadings -o vg_name,pv_count,lv_count,vg_size;
	    lvs --noheadings -o lv_name,vg_name,lv_size,lv_attr' || return 1
	_ck_has "$1" "^ */dev/md[^ ]* +${2:-[^ ]+}\$" || return 1
	_ck_has "$1" "^ *${2:-[^ ]+} +1 +[0-9]+ +[0-9.]+[kmgt]" || return 1
	# lab makes the volume group; logical volumes, if any, are active
	if grep -Eq -- '-wi-[^a]' "$1/guest.out"; then
		_ck_fail "an inactive logical volume"
		return 1
	fi
}

# bond0 in active-backup over eth0..eth2, every slave up, bond0 a port of
# br0, br0 up with the host's address, no address left on eth0.
check_bond_bridge()
{
	_ck_run "$1" 'cat /proc/net/bonding/bond0' || return 1
	_ck_has "$1" 'Bonding Mode: fault-tolerance \(active-backup\)' ||
	    return 1
	_ck_has "$1" 'Currently Active Slave: eth[0-2]' || return 1
	for _ckn in 0 1 2; do
		_ck_has "$1" "^Slave Interface: eth$_ckn\$" || return 1
	done
	[ "$(grep -c '^MII Status: up' "$1/guest.out")" = 4 ] || {
		cat "$1/guest.out" >&2
		_ck_fail "bond0 or a slave is not up"
		return 1
	}
	_ck_run "$1" 'ip -br link show br0; ip -4 -o addr show dev br0;
	    ls /sys/class/net/br0/brif; ip -4 -o addr show dev eth0;
	    echo end' || return 1
	_ck_has "$1" '^br0 +UP ' || return 1
	_ck_has "$1" 'br0 +inet 10\.0\.2\.15/24' || return 1
	_ck_has "$1" '^bond0$' || return 1
	if grep -q 'eth0 *inet' "$1/guest.out"; then
		cat "$1/guest.out" >&2
		_ck_fail "eth0 still has an address of its own"
		return 1
	fi
}

# The bond's active NIC loses its link (qemu's set_link, a cable pulled):
# the bond must fail over to another one and the host stay reachable
# through it (ssh through that NIC's own hostfwd). The link comes back.
check_failover()
{
	_ck_run "$1" 'cat /proc/net/bonding/bond0' || return 1
	_cka=$(sed -n 's/^Currently Active Slave: eth\([0-2]\)$/\1/p' \
	    "$1/guest.out")
	[ -n "$_cka" ] || { _ck_fail "no active slave"; return 1; }
	vm_link "$1" "$_cka" off >/dev/null || return 1
	_ckend=$(($(date +%s) + 120))
	_cknow=
	while [ -z "$_cknow" ]; do
		for _ckn in 0 1 2; do
			[ "$_ckn" = "$_cka" ] && continue
			VM_PORT=$((VM_SSH_PORT + _ckn)) vm_ssh "$1" \
			    cat /proc/net/bonding/bond0 >"$1/guest.out" \
			    2>/dev/null </dev/null || continue
			_cknow=$(sed -n \
			    's/^Currently Active Slave: eth\([0-2]\)$/\1/p' \
			    "$1/guest.out")
			[ "$_cknow" = "$_cka" ] && _cknow=
			[ -n "$_cknow" ] && break
		done
		if [ -z "$_cknow" ] && [ "$(date +%s)" -ge "$_ckend" ]; then
			vm_link "$1" "$_cka" on >/dev/null
			_ck_fail "no failover from eth$_cka within 120 s"
			return 1
		fi
		[ -n "$_cknow" ] || sleep 1
	done
	# the pulled NIC is down in the bond's eyes
	awk -v s="eth$_cka" '$0 == "Slave Interface: " s { f = 1; next }
	    f && /^MII Status:/ { print; exit }' "$1/guest.out" |
	    grep -q 'MII Status: down' || {
		cat "$1/guest.out" >&2
		vm_link "$1" "$_cka" on >/dev/null
		_ck_fail "eth$_cka not seen down by the bond"
		return 1
	}
	vm_link "$1" "$_cka" on >/dev/null || return 1
	CK_FAILOVER="eth$_cka -> eth$_cknow"
}

# The network as the image has it: eth0 by DHCP from its own stanza, no
# bond, no bridge (what a rolled back bonding change must leave).
check_network_as_built()
{
	_ck_run "$1" 'cat /etc/network/interfaces.d/eth0;
	    ip -4 -o addr show dev eth0; ls /sys/class/net' || return 1
	_ck_has "$1" '^iface eth0 inet dhcp$' || return 1
	_ck_has "$1" 'eth0 +inet 10\.0\.2\.15/24' || return 1
	if grep -Eq '^(bond0|br0)$' "$1/guest.out"; then
		cat "$1/guest.out" >&2
		_ck_fail "a bond or bridge is still there"
		return 1
	fi
}

# lab's staging folder of a network change (lib/plan/bond.c)
CK_NET=/var/lib/lab/net

# The change was switched to and confirmed: nothing pending, the rollback
# timer stopped (it would put the old config back later), never rolled
# back.
check_net_confirmed()
{
	_ck_run "$1" "cat $CK_NET/switched; ls $CK_NET;
	    systemctl is-active lab-net-rollback.timer || true" || return 1
	_ck_has "$1" '^ok$' || return 1
	_ck_has "$1" '^decided$' || return 1
	if grep -Eq '^(pending|rolled-back|active)$' "$1/guest.out"; then
		cat "$1/guest.out" >&2
		_ck_fail "the change is pending, rolled back or its timer armed"
		return 1
	fi
}

# The change was switched to (switch.sh succeeded: it is not its own
# failure that put the old config back), then the timer rolled it back:
# nothing pending.
check_net_rolled_back()
{
	_ck_run "$1" "cat $CK_NET/switched; ls $CK_NET;
	    systemctl is-active lab-net-rollback.service || true" || return 1
	_ck_has "$1" '^ok$' || return 1
	_ck_has "$1" '^rolled-back$' || return 1
	if grep -Eq '^(pending|active|activating)$' "$1/guest.out"; then
		cat "$1/guest.out" >&2
		_ck_fail "the change is still pending"
		return 1
	fi
}

# A VLAN interface as the kernel has it (ip -d -j link show): NAME is an
# 802.1Q VLAN with id ID on PARENT, both up, and has the IPv4 address
# ADDR (a.b.c.d/len), or none when ADDR is not given (a trunk the host
# only tags: inet manual).
check_vlan()
{
	_ck_run "$1" "ip -d -j link show dev $2 && echo &&
	    ip -j -4 addr show dev $2 && echo && ip -j link show dev $3" ||
	    return 1
	python3 - "$1/guest.out" "$2" "$3" "$4" "${5:-}" <<'EOF' && return 0
import json, sys
path, name, parent, vid, addr = sys.argv[1:6]
docs = [json.loads(x) for x in open(path).read().split("\n") if x.strip()]
link, addrs, par = docs[0][0], docs[1], docs[2][0]
info = link.get("linkinfo", {})
data = info.get("info_data", {})
bad = []
if link.get("ifname") != name:
    bad.append("ifname %r" % link.get("ifname"))
if info.get("info_kind") != "vlan":
    bad.append("kind %r, not vlan" % info.get("info_kind"))
if data.get("protocol") != "802.1Q":
    bad.append("protocol %r" % data.get("protocol"))
if data.get("id") != int(vid):
    bad.append("VLAN id %r, not %s" % (data.get("id"), vid))
if link.get("link") != parent:
    bad.append("on %r, not %s" % (link.get("link"), parent))
for l in (link, par):
    if "UP" not in l.get("flags", []) or "LOWER_UP" not in l.get("flags", []):
        bad.append("%s not up: %s" % (l.get("ifname"), l.get("flags")))
have = sorted("%s/%s" % (a["local"], a["prefixlen"])
              for i in addrs for a in i.get("addr_info", []))
if have != ([addr] if addr else []):
    bad.append("addresses %s, not %s" % (have, addr or "none"))
if bad:
    sys.exit("%s: %s" % (name, "; ".join(bad)))
EOF
	cat "$1/guest.out" >&2
	_ck_fail "VLAN interface $2 (VLAN $4 on $3)"
}

# The disks of tests/vm/box.yaml as zpool status names them (whole disks:
# zpool partitions them and shows the disk's own name).
CK_D1=virtio-lab-d1
CK_D2=virtio-lab-d2
CK_D3=virtio-lab-d3
CK_D4=virtio-lab-d4
CK_SSD=scsi-0QEMU_QEMU_HARDDISK_lab-ssd

# Pool POOL (DIR/guest.out after) is healthy and, as zpool status draws
# it, exactly TREE: one line a vdev, "NAME STATE", indented one space a
# level ("cache" a section of its own, with no state); then ashift 12 (the
# pool's property: lab asks for it), lz4, sync=standard, mounted.
_ck_zfs()
{
	_ck_run "$1" "zpool status -x $2; zpool status $2" || return 1
	_ck_has "$1" "^pool '$2' is healthy\$" || return 1
	_ck_has "$1" '^ *state: ONLINE$' || return 1
	_ck_has "$1" '^errors: No known data errors$' || return 1
	# the config: from under the NAME header to the blank line
	_cktree=$(awk '
	    /^\tNAME +STATE/ { in_ = 1; next }
	    in_ && NF == 0 { exit }
	    in_ { i = match($0, /[^ \t]/) - 2; pad = ""
		for (k = 0; k < i; k += 2) pad = pad " "
		n = $1; sub(/-part[0-9]+$/, "", n)
		print pad n (NF > 1 ? " " $2 : "") }' "$1/guest.out")
	if [ "$_cktree" != "$3" ]; then
		echo "--- zpool status $2:" >&2
		cat "$1/guest.out" >&2
		printf -- '--- the vdevs, as read:\n%s\n--- expected:\n%s\n' \
		    "$_cktree" "$3" >&2
		_ck_fail "pool $2 is not laid out as planned"
		return 1
	fi
	_ck_run "$1" "zpool get -H -o value ashift $2;
	    zfs get -H -o property,value compression,sync,mounted $2" ||
	    return 1
	_ck_has "$1" '^12$' || return 1
	_ck_has "$1" '^compression	lz4$' || return 1
	_ck_has "$1" '^sync	standard$' || return 1
	_ck_has "$1" '^mounted	yes$' || return 1
}

# ZFS "raid10": two mirrors, slots 1+2 and 3+4 (the disks are the same
# size: lab pairs them in the inventory's order), all ONLINE.
check_zfs_raid10()
{
	_ck_zfs "$1" "${2:-tank}" "${2:-tank} ONLINE
 mirror-0 ONLINE
  $CK_D1 ONLINE
  $CK_D2 ONLINE
 mirror-1 ONLINE
  $CK_D3 ONLINE
  $CK_D4 ONLINE"
}

# raidz1 over the four data disks, the SSD its L2ARC (cache) device, all
# ONLINE.
check_zfs_raidz1_cache()
{
	_ck_zfs "$1" "${2:-tank}" "${2:-tank} ONLINE
 raidz1-0 ONLINE
  $CK_D1 ONLINE
  $CK_D2 ONLINE
  $CK_D3 ONLINE
  $CK_D4 ONLINE
cache
 $CK_SSD ONLINE"
}

# The ATA disk on the ICH9 AHCI (slot 7 of box.yaml) answers SMART for
# smartctl -j as qemu's IDE core emulates it: exit status 0, model "QEMU
# HARDDISK", the serial qemu was given, health passed.
check_smart_ata()
{
	_ck_run "$1" "smartctl -j -i -H -A \
	    /dev/disk/by-id/ata-QEMU_HARDDISK_$VM_IDE_SERIAL" || return 1
	_ck_has "$1" '"exit_status": 0' || return 1
	_ck_has "$1" '"model_name": "QEMU HARDDISK"' || return 1
	_ck_has "$1" "\"serial_number\": \"$VM_IDE_SERIAL\"" || return 1
	tr -d ' \n' <"$1/guest.out" | grep -q '"smart_status":{"passed":true}' ||
	    _ck_fail "smart_status of the ATA disk is not passed"
}

