#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package from the committed tree (HEAD) outside the
# tree, runs lintian on it and prints the .deb's path:
#   sh scripts/package.sh [OUTDIR]
# OUTDIR (default: a new temp folder) gets the .deb, .buildinfo, .changes
# and lintian.txt. Fails when lintian reports an error.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
sh "$SRC/scripts/deps.sh" package
OUT=${1:-$(mktemp -d /tmp/lab-deb.XXXXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# dpkg-buildpackage writes into the parent folder: build in OUT/src
rm -rf "$OUT/src"
mkdir "$OUT/src"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$SRC" archive --format=tar HEAD | tar -x -C "$OUT/src"
else
	tar -C "$SRC" --exclude='./build*' --exclude='./.git' -cf - . |
	    tar -x -C "$OUT/src"
fi
(cd "$OUT/src" && dpkg-buildpackage -us -uc -b) >"$OUT/build.log" 2>&1 || {
	tail -40 "$OUT/build.log" >&2
	echo "package: dpkg-buildpackage failed (log: $OUT/build.log)" >&2
	exit 1
}
deb=$(ls "$OUT"/lab_*.deb | head -n 1)
rc=0
lintian --fail-on error "$deb" >"$OUT/lintian.txt" 2>&1 || rc=$?
cat "$OUT/lintian.txt" >&2
if [ "$rc" -ne 0 ]; then
	echo "package: lintian reports errors" >&2
	exit 1
fi
echo "$deb"
