#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The light lab (cmd/full.c) loads no protocol library: readelf of its
# NEEDED entries names none of libfreeipmi, libipmiconsole, net-snmp,
# libssh2, libcrypto, libssl, libgcrypt, libpq; and lab-full does (so the test
# can fail). A command added to the light table that reaches lib/ipmi,
# lib/snmp or lib/ssh fails here: give it to lab-full instead.
#   sh light.sh LAB LAB_FULL
set -eu
command -v readelf >/dev/null 2>&1 || {
	echo "light: readelf missing (package binutils)" >&2
	exit 1
}
protocol='libfreeipmi|libipmiconsole|libnetsnmp|libssh2|libcrypto|libssl|libgcrypt|libpq'
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
bad=$(needed "$1" | grep -E "$protocol" || :)
if [ -n "$bad" ]; then
	echo "light: $1 needs protocol libraries:" $bad >&2
	exit 1
fi
needed "$2" | grep -qE "$protocol" || {
	echo "light: $2 needs no protocol library: is this lab-full?" >&2
	exit 1
}
echo "light: $1 needs $(needed "$1" | tr '\n' ' ')"
# cmd/full.c's table of lab-full's libraries (the ones the front checks
# before it runs lab-full, each with its Debian package) is exactly
# lab-full's NEEDED entries less the light lab's
src=$(dirname "$0")/../../cmd/full.c
want=$(needed "$2" | grep -vxF "$(needed "$1")" | sort)
have=$(sed -n 's/^	{ "\(lib[^"]*\.so[^"]*\)", "[^"]*" },$/\1/p' "$src" | sort)
[ "$want" = "$have" ] || {
	echo "light: cmd/full.c's full_libs lists:" $have >&2
	echo "light: lab-full needs beyond the light lab:" $want >&2
	exit 1
}
