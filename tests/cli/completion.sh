#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Drives the generated bash completion for real against a database with
# the example inventory: sh completion.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d /tmp/lab-completion.XXXXXXXX)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
mkdir "$T/bin"
ln -s "$(cd "$(dirname "$LAB")" && pwd)/$(basename "$LAB")" "$T/bin/lab"
PATH=$T/bin:$PATH
export PATH LAB_DB="$T/lab.db" HOME="$T" XDG_DATA_HOME="$T/data"
export XDG_CONFIG_HOME="$T/config"
unset LAB_CREDENTIALS || true
fail=0

# check WORDS... -- EXPECTED...: completing the last word gives EXPECTED
check() {
	words=
	while [ "$1" != -- ]; do
		words="$words '$1'"
		shift
	done
	shift
	got=$(bash -c "source <(lab completion bash)
COMP_WORDS=($words); COMP_CWORD=\$(( \${#COMP_WORDS[@]} - 1 ))
_lab; printf '%s\n' \"\${COMPREPLY[@]}\"" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" != "$want" ]; then
		echo "FAIL:$words: got '$got', want '$want'" >&2
		fail=1
	else
		echo "ok:$words -> $got"
	fi
}

# no database yet: names complete to nothing, quietly
check lab power on micro --
[ -z "$(lab completion words hosts 2>&1)" ] ||
	{ echo "FAIL: words without a database printed something" >&2; fail=1; }

lab import "$SRC/inventory" >/dev/null 2>&1

check lab pow -- power
check lab s -- sel sensors show switch
check lab power o -- on off
check lab power on micro -- microserver1 microserver2
check lab power on @n -- @nas
check lab power on --ti -- --timeout
check lab power on microserver1,@x -- microserver1,@xen
check lab power on '!ml11' -- '!ml110' '!ml115'
check lab power on '@vmware&@m' -- '@vmware&@microservers'
check lab power on 'ml110!n' -- 'ml110!nas' 'ml110!neo'
check lab power on '@nas^ml11' -- '@nas^ml110' '@nas^ml115'
check lab boot microserver1 p -- pxe
check lab show s -- sg200
check lab switch ports '' -- sg200
check lab ls groups v -- vmware
check lab export --format '' -- json yaml
check lab report --format '' -- text markdown html json prometheus
check lab report --format m -- markdown
check lab provision nas --layout raidz -- raidz1 raidz2
check lab provision nas --layout md- -- md-raid1 md-raid10 md-raid5
: > "$T/layout.yaml"
check lab provision nas --layout "$T/lay" -- "$T/layout.yaml"
check lab provision nas --bond '' -- active-backup 802.3ad balance-alb
check lab provision nas --bond a --renderer n -- networkd netplan
check lab power on nas --privilege o -- operator
check lab console nas --privilege a -- admin
check lab help sw -- switch
check lab help power s -- soft status
check lab completion words h -- hosts
check lab --db "$T/lab.db" power status neo -- neo
check lab --v -- --version
check lab switch sync sg200 --d -- --db --dry-run
check lab cons -- console
check lab console micro -- microserver1 microserver2
check lab console neo --f -- --force
check lab media i -- insert
check lab media insert n -- nas neo
check lab media insert neo http://x --b -- --boot-once
check lab media status @x -- @xen

# the zsh script is the same tables under bashcompinit
lab completion zsh | head -1 | grep -q '^#compdef lab$' ||
	{ echo "FAIL: zsh script has no #compdef line" >&2; fail=1; }
if command -v zsh >/dev/null 2>&1; then
	lab completion zsh > "$T/_lab"
	zsh -n "$T/_lab" || { echo "FAIL: zsh script does not parse" >&2; fail=1; }
fi
bash -n -c "$(lab completion bash)" ||
	{ echo "FAIL: bash script does not parse" >&2; fail=1; }
exit $fail
