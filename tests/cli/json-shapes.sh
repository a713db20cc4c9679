#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One JSON shape per concept (lab(1), JSON) on the example lab, no peers:
# tests/integration/json-shapes.py over every --json command that needs
# none (the integration test json-shapes adds BMCs and a switch).
# sh json-shapes.sh LAB SRCDIR
set -eu
LAB=$1
SRC=$2
T=$(mktemp -d /tmp/lab-json.XXXXXX)
trap 'rm -rf "$T" || :' EXIT
trap 'exit 1' INT TERM
export LAB_DB="$T/lab.db" LAB_CREDENTIALS="$T/credentials.yaml" HOME="$T"
export XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
cp "$SRC/tests/cli/data/credentials.yaml" "$LAB_CREDENTIALS"
chmod 600 "$LAB_CREDENTIALS"
"$LAB" import "$SRC/inventory" >/dev/null 2>&1
python3 "$SRC/tests/integration/json-shapes.py" "$LAB" \
    "power=power on @nas --dry-run --json" \
    "power-all=power off --all --dry-run --json" \
    "boot=boot @nas --dry-run --json" \
    "sensors=sensors --all --dry-run --json" \
    "sel=sel --all --dry-run --json" \
    "media=media status --all --json" \
    "ls=ls hosts --json" \
    "ls-disks=ls disks --json" \
    "ls-nics=ls nics --json" \
    "ls-switches=ls switches --json" \
    "ls-groups=ls groups --json" \
    "show=show microserver1 --json" \
    "show-nas=show nas --json" \
    "export=export --format json" \
    "import=import --dry-run --json $SRC/inventory" \
    "log=log --json" \
    "history=history --json" \
    "config=config --json" \
    "report=report --format json" \
    "facts=facts ml110 --json --no-record"
