#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the "lab in a box" guest, a small Debian 12 server, from Debian
# packages only, or reuses the one already built from the same recipe:
#
#	sh tests/vm/image.sh [--zfs]	prints the image's folder
#
# The folder, $LAB_VM_CACHE/KEY (default /var/cache/lab-vm/KEY; KEY is a
# hash of this script and the package lists, so any change builds anew),
# holds root.qcow2 (ext4 on the whole disk, /dev/vda in the guest),
# vmlinuz and initrd.img for qemu's -kernel/-initrd, id_ed25519 (the key
# root logs in with, made for this build), host_ed25519.pub (the guest's
# host key) and build.txt (what was installed, how long it took).
# Nothing of it is committed; a fresh machine builds it in ~5 minutes.
# Needs root, debootstrap, e2fsprogs, qemu-utils, openssh-client and
# Debian's mirror ($LAB_VM_MIRROR, default the one apt uses here).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
zfs=0
case ${1:-} in
--zfs) zfs=1 ;;
'') ;;
*) echo "usage: sh tests/vm/image.sh [--zfs]" >&2; exit 2 ;;
esac

cache=${LAB_VM_CACHE:-/var/cache/lab-vm}
mirror=${LAB_VM_MIRROR:-http://deb.debian.org/debian}
suite=bookworm

lists=$here/packages
[ "$zfs" = 0 ] || lists="$lists $here/packages-zfs"
# shellcheck disable=SC2086
key=$(cat "$here/image.sh" $lists | sha256sum | cut -c1-16)
[ "$zfs" = 0 ] || key=$key-zfs
img=$cache/$key

say() { echo "image.sh: $*" >&2; }

if [ -f "$img/done" ]; then
	echo "$img"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	say "building the guest needs root"
	exit 3
fi
for t in debootstrap mkfs.ext4 qemu-img ssh-keygen flock sha256sum; do
	command -v "$t" >/dev/null 2>&1 || {
		say "missing $t (sh scripts/deps.sh test installs it)"
		exit 3
	}
done
mkdir -p "$cache/debs"
chmod 700 "$cache"

# One build at a time per cache; the second waits, then finds it done.
exec 9>"$cache/lock"
flock 9
if [ -f "$img/done" ]; then
	echo "$img"
	exit 0
fi

work=$cache/$key.tmp
root=$work/root
mounted=
cleanup()
{
	for m in $mounted; do
		umount -l "$root/$m" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
rm -rf "$work"
mkdir -p "$work"

pkgs=$(grep -hv '^#' $lists | grep . | tr '\n' ',' | sed 's/,$//')
# Without ZFS, its packages stay out of the debootstrap.
base=$(grep -hv '^#' "$here/packages" | grep . | tr '\n' ',' | sed 's/,$//')
components=main
[ "$zfs" = 0 ] || components=main,contrib

t0=$(date +%s)
say "debootstrap $suite into $root (about 4 minutes)"
# In two stages, so that the initramfs is made once, small: only what
# finds the root disk (the default takes most modules, minutes to build
# and slow to unpack under TCG).
debootstrap --foreign --variant=minbase --include="$base" \
    --components="$components" --cache-dir="$cache/debs" \
    "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
	tail -30 "$work/debootstrap.log" >&2
	say "debootstrap failed (log above)"
	exit 1
}
mkdir -p "$root/etc/initramfs-tools/conf.d"
echo MODULES=list >"$root/etc/initramfs-tools/conf.d/lab"
printf '%s\n' virtio_pci virtio_blk ext4 >"$root/etc/initramfs-tools/modules"
chroot "$root" /debootstrap/debootstrap --second-stage \
    >>"$work/debootstrap.log" 2>&1 || {
	tail -30 "$work/debootstrap.log" >&2
	say "debootstrap --second-stage failed (log above)"
	exit 1
}
t1=$(date +%s)

kver=$(ls "$root/lib/modules" | sort -V | tail -1)
[ -n "$kver" ] || { say "no kernel in the tree"; exit 1; }

if [ "$zfs" = 1 ]; then
	# contrib for zfs-dkms; no service may start in the chroot.
	echo "deb $mirror $suite main contrib" >"$root/etc/apt/sources.list"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	for m in proc sys dev; do
		mount --bind "/$m" "$root/$m"
		mounted="$m $mounted"
	done
	zpkgs=$(grep -hv '^#' "$here/packages-zfs" | grep . | tr '\n' ' ')
	say "building OpenZFS for $kver with DKMS (several minutes)"
	# shellcheck disable=SC2086
	{ chroot "$root" apt-get update &&
	  DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y \
	    --no-install-recommends $zpkgs &&
	  chroot "$root" dkms autoinstall -k "$kver" &&
	  chroot "$root" modinfo -k "$kver" zfs; } >"$work/zfs.log" 2>&1 || {
		tail -30 "$work/zfs.log" >&2
		say "OpenZFS did not build (log above)"
		exit 1
	}
	chroot "$root" apt-get clean
	rm -f "$root/usr/sbin/policy-rc.d"
	for m in $mounted; do
		umount "$root/$m"
	done
	mounted=
fi
t2=$(date +%s)

# root: no password (locked), a key made for this build, no password
# logins over SSH.
ssh-keygen -q -t ed25519 -N '' -C "lab-vm $key" -f "$work/id_ed25519"
chroot "$root" passwd -l root >/dev/null
install -d -m 700 "$root/root/.ssh"
install -m 600 "$work/id_ed25519.pub" "$root/root/.ssh/authorized_keys"
cat >"$root/etc/ssh/sshd_config.d/lab.conf" <<'EOF'
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UseDNS no
EOF
cp "$root/etc/ssh/ssh_host_ed25519_key.pub" "$work/host_ed25519.pub"

echo box >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tbox\n' >"$root/etc/hosts"
echo 'LABEL=root / ext4 rw,errors=remount-ro 0 1' >"$root/etc/fstab"

# The management NIC (eth0, the one with qemu's hostfwd to sshd) takes
# DHCP from qemu's user network. Its stanza has a file of its own in
# interfaces.d, so a bonding config can replace it; eth1 and eth2 are
# left unconfigured for the bond.
cat >"$root/etc/network/interfaces" <<'EOF'
# The loopback here; every other interface in interfaces.d.
source /etc/network/interfaces.d/*

auto lo
iface lo inet loopback
EOF
mkdir -p "$root/etc/network/interfaces.d"
cat >"$root/etc/network/interfaces.d/eth0" <<'EOF'
# The management NIC: DHCP from qemu's user network.
auto eth0
iface eth0 inet dhcp
EOF

# Nothing runs by the clock behind a test's back, nor what a VM does not
# need at boot (each costs seconds under TCG).
for u in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
    fstrim.timer mdcheck_start.timer mdcheck_continue.timer \
    mdmonitor-oneshot.timer e2scrub_reap.service getty@tty1.service; do
	ln -sf /dev/null "$root/etc/systemd/system/$u"
done
# NetworkManager, the NFS server and the LIO target are in the image for
# the cases that start them (facts: NetworkManager managing eth1; shares:
# nfsd and targetcli); none starts at boot.
for u in NetworkManager.service NetworkManager-wait-online.service \
    NetworkManager-dispatcher.service nfs-server.service \
    rtslib-fb-targetctl.service rpcbind.service rpcbind.socket; do
	chroot "$root" systemctl disable "$u" >/dev/null 2>&1 || true
done
printf 'blacklist %s\n' iTCO_wdt pcspkr >"$root/etc/modprobe.d/lab.conf"
# qemu boots the guest with the kernel and initrd copied out below, never
# with its /boot: rebuilding the guest's initramfs (lab provision does,
# after mdadm) would take minutes under TCG for nothing.
sed -i 's/^update_initramfs=.*/update_initramfs=no/' \
    "$root/etc/initramfs-tools/update-initramfs.conf"
: >"$root/etc/machine-id"
chroot "$root" apt-get clean

cp "$root/boot/vmlinuz-$kver" "$work/vmlinuz"
cp "$root/boot/initrd.img-$kver" "$work/initrd.img"
chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' >"$work/packages.txt"

size=3G
[ "$zfs" = 0 ] || size=6G
truncate -s "$size" "$work/root.raw"
mkfs.ext4 -q -F -L root -d "$root" "$work/root.raw"
qemu-img convert -O qcow2 "$work/root.raw" "$work/root.qcow2"
rm -f "$work/root.raw"
rm -rf "$root"
t3=$(date +%s)

cat >"$work/build.txt" <<EOF
key $key
suite $suite
mirror $mirror
kernel $kver
zfs $zfs
packages $pkgs
debootstrap_s $((t1 - t0))
zfs_s $((t2 - t1))
image_s $((t3 - t2))
total_s $((t3 - t0))
EOF
: >"$work/done"
rm -rf "$img"
mv "$work" "$img"
say "built $img in $((t3 - t0)) s (debootstrap $((t1 - t0)) s)"
echo "$img"
