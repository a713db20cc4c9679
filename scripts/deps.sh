#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages lab needs that are missing:
#   sh scripts/deps.sh build    to build lab
#   sh scripts/deps.sh demo     to build it and run the demo
#   sh scripts/deps.sh test     to build it and run every test
#   sh scripts/deps.sh package  to build the Debian package
#   sh scripts/deps.sh bench    to build it and run the benchmarks (bench/)
#   sh scripts/deps.sh box      to build it and run the lab in a box
# Runs as root (or through sudo); installs nothing that is already there.
set -eu

build="meson ninja-build pkg-config gcc python3 libsqlite3-dev libyaml-dev
libssh2-1-dev libssl-dev libsnmp-dev libfreeipmi-dev libipmiconsole-dev
libjson-c-dev"
# the man pages (meson -Dman=disabled builds without)
build="$build scdoc"
# the demo simulates the lab's BMCs with ipmi_sim
demo="$build openipmi iproute2 util-linux snmpsim snmp"
# and benches a disk rig (tests/integration/disks.sh: loop devices behind a
# private sshd; its check wants lvm2 or mdadm too)
demo="$demo openssh-server openssh-client openssl fio smartmontools e2fsprogs
python3 lvm2"
# the real peers the tests run against, and the tools they compare with
test="$demo freeipmi-tools ipmitool sqlite3 python3 libxml2-utils chromium
shellcheck netplan.io"
# the fuzzers (clang's libFuzzer and sanitizer runtimes), the analysers
# (suite lint), valgrind (suite valgrind) and strace (the secrets test)
test="$test clang libclang-rt-14-dev clang-tidy cppcheck valgrind strace"
# private sshd targets (tests/integration/sshd.sh), zfs-fuse for provision
test="$test openssh-server openssh-client openssl zfs-fuse"
# the disk rig (tests/integration/disks.sh): fio on loop devices, SMART,
# md arrays and LVM volume groups for the "in use" cases
test="$test fio smartmontools mdadm lvm2"
# the "lab in a box" VM (tests/vm): its image is built with debootstrap
test="$test debootstrap qemu-system-x86 qemu-utils e2fsprogs"
# tests/integration/db-faults.sh: tmpfs mounts, lab run as nobody
test="$test mount"
# lab report --format prometheus checked by promtool (tests/report/prom.sh)
test="$test prometheus"
# lab on PostgreSQL: libpq to build, a throwaway cluster in the tests
build="$build libpq-dev"
demo="$demo libpq-dev postgresql-15 postgresql-client-15"
test="$test libpq-dev postgresql-15 postgresql-client-15"
# the VM's shares from this machine, userspace clients (tests/vm, issue 21)
test="$test libnfs-utils libiscsi-bin"
# the lab in a box alone (sh scripts/demo.sh box)
box="$demo debootstrap qemu-system-x86 qemu-utils e2fsprogs openssh-client
python3"
# the Debian package (scripts/package.sh)
package="$build scdoc debhelper devscripts lintian dpkg-dev fakeroot man-db"
# the tools the benchmarks compare lab with (bench/power, bench/push)
bench="$test pssh ansible-core bc"

case ${1:-build} in
build) want=$build ;;
demo) want=$demo ;;
test) want=$test ;;
package) want=$package ;;
bench) want=$bench ;;
box) want=$box ;;
*) echo "usage: sh scripts/deps.sh build|demo|test|package|bench|box" >&2
   exit 2 ;;
esac

missing=
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing (run as root to install them)" >&2
	exit 3
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
