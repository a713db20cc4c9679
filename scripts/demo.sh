#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds lab and runs the demo: the example lab of
# inventory/ imported into a fresh database in a temp folder, then listed,
# queried by target, and exported. Only documentation addresses appear in
# the inventory; nothing is contacted.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh build
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null

DEMO=$(mktemp -d /tmp/lab-demo.XXXXXX)
export LAB_DB="$DEMO/lab.db"
LAB="$PWD/build/cmd/lab"
run() {
	printf '\n$ lab %s\n' "$*"
	"$LAB" "$@"
}

echo "lab demo: database in $LAB_DB"
run init
run import inventory/
run ls hosts
run ls groups
run ls disks @nas
run ls hosts 'microserver[1-2]' '!microserver2'
run show microserver1
run ls nics --json neo
run import inventory/
printf '\n$ lab export | head -20\n'
"$LAB" export | head -20
run log
printf '\nThe database stays in %s: try LAB_DB=%s %s help\n' \
	"$DEMO" "$LAB_DB" "$LAB"
