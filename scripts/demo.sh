#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds lab and runs the demo: the example lab
# of inventory/ imported into a fresh database in a temp folder, listed and
# queried; then its three BMCs simulated by OpenIPMI's ipmi_sim on loopback
# (127.0.3.x: the documentation addresses of inventory/ are never
# contacted) and driven with lab power, boot and sensors.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh demo
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null

DEMO=$(mktemp -d /tmp/lab-demo.XXXXXX)
export LAB_DB="$DEMO/lab.db" LAB_CREDENTIALS="$DEMO/credentials.yaml"
LAB="$PWD/build/cmd/lab"
. tests/integration/bmc.sh
trap 'bmc_stop "$DEMO/bmcs"' EXIT INT TERM
run() {
	printf '\n$ lab %s\n' "$*"
	"$LAB" "$@" || printf '(exit %d)\n' "$?"
}

echo "lab demo: database in $LAB_DB"
run init
run import inventory/
run ls hosts
run ls groups
run ls disks @nas
run ls hosts 'microserver[1-2]' '!microserver2'
run show neo
run ls nics --json neo
run import inventory/
printf '\n$ lab export | head -12\n'
"$LAB" export | head -12

# The same lab with its BMCs on loopback, each a real ipmi_sim process.
echo
echo "--- the BMCs of microserver1, microserver2 and neo, simulated by ipmi_sim"
mkdir -p "$DEMO/sim"
sed -e 's/address: 192\.0\.2\./address: 127.0.3./' \
    -e '/^      credential: /a\      workarounds: [opensesspriv]   # ipmi_sim needs it' \
    inventory/lab.yaml >"$DEMO/sim/lab.yaml"
cat >"$LAB_CREDENTIALS" <<END
rac-default: {username: admin, password: password}
ilo-neo: {username: admin, password: password}
END
chmod 600 "$LAB_CREDENTIALS"
BMC_NET=127.0.3
bmc_start "$DEMO/bmcs" 2 21
bmc_start "$DEMO/bmcs" 1 30
run import "$DEMO/sim/lab.yaml"
run power status --all
run power on @nas
run power on @nas
run power status --all --json
run boot microserver1 pxe
run boot microserver1
run sensors neo
run power off microserver1 --dry-run
run show microserver1
run log
printf '\nThe database stays in %s: try\n  LAB_DB=%s %s help\n' \
	"$DEMO" "$LAB_DB" "$LAB"
