#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Import, export, import the export into a fresh database, compare:
# sh roundtrip.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
fail() { echo "roundtrip: $*" >&2; exit 1; }

"$LAB" --db "$T/a.db" import "$SRC/inventory" >/dev/null 2>&1 ||
	fail "import of inventory/ failed"
"$LAB" --db "$T/a.db" export > "$T/a.yaml"
"$LAB" --db "$T/b.db" import "$T/a.yaml" >/dev/null 2>&1 ||
	fail "the export does not import: $("$LAB" --db "$T/c.db" import "$T/a.yaml" 2>&1)"
"$LAB" --db "$T/b.db" export > "$T/b.yaml"
for what in "ls hosts" "ls disks" "ls nics" "ls switches" "ls groups" \
    "export --format json"; do
	# shellcheck disable=SC2086
	"$LAB" --db "$T/a.db" $what --json > "$T/a.json"
	# shellcheck disable=SC2086
	"$LAB" --db "$T/b.db" $what --json > "$T/b.json"
	[ -s "$T/a.json" ] || fail "$what printed nothing"
	cmp -s "$T/a.json" "$T/b.json" || {
		diff -u "$T/a.json" "$T/b.json" >&2 || true
		fail "'$what --json' differs after the round trip"
	}
done
cmp -s "$T/a.yaml" "$T/b.yaml" || {
	diff -u "$T/a.yaml" "$T/b.yaml" >&2 || true
	fail "the second export differs from the first"
}
# the export names every host and switch of the inventory (6 + 1)
n=$(grep -c '^- name:' "$T/a.yaml" || true)
[ "$n" -eq 7 ] || fail "expected 7 hosts and switches in the export, found $n"
# importing the export again changes nothing
"$LAB" --db "$T/b.db" import "$T/b.yaml" 2>/dev/null | grep -q ': 0 added, 0 changed, 0 removed, 0 kept$' ||
	fail "re-importing the export reported changes"
# the VLAN declarations (issue 19) too: NIC wishes, a switch's vlans,
# ports, management VLAN and uplinks
V=$SRC/tests/cli/data/vlans.yaml
"$LAB" --db "$T/v.db" import "$V" >/dev/null 2>&1 || fail "import of $V failed"
"$LAB" --db "$T/v.db" export > "$T/v.yaml"
for key in 'vlan: 20' 'vlans: [20, 30]' 'native: 30' 'tagged: true' \
    'management_vlan: 1' 'uplinks: [gi25, gi26]' '{id: 30, name: vmotion}' \
    'description: backup disk'; do
	grep -qF "$key" "$T/v.yaml" || fail "the export of $V lost '$key'"
done
"$LAB" --db "$T/w.db" import "$T/v.yaml" >/dev/null 2>&1 ||
	fail "the VLAN export does not import"
"$LAB" --db "$T/w.db" export > "$T/w.yaml"
cmp -s "$T/v.yaml" "$T/w.yaml" || {
	diff -u "$T/v.yaml" "$T/w.yaml" >&2 || true
	fail "the second VLAN export differs from the first"
}
for what in "ls nics" "ls switches" "export --format json"; do
	# shellcheck disable=SC2086
	"$LAB" --db "$T/v.db" $what --json > "$T/a.json"
	# shellcheck disable=SC2086
	"$LAB" --db "$T/w.db" $what --json > "$T/b.json"
	cmp -s "$T/a.json" "$T/b.json" ||
		fail "'$what --json' of the VLANs differs after the round trip"
done
"$LAB" --db "$T/v.db" import "$V" 2>/dev/null | grep -q ': 0 added, 0 changed, 0 removed, 0 kept$' ||
	fail "re-importing $V reported changes"
echo "roundtrip: ok"
