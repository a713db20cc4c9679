#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# html.sh SAMPLE: checks the HTML report of html-sample (a report built by
# hand) with a real HTML parser, every inline SVG as XML, the escaping of
# awkward names, and a headless Chromium: a screenshot and no console
# errors. Needs xmllint (libxml2-utils) and chromium: without them, exit
# 77, or fail when LAB_TEST_REQUIRE_SIM=1.
set -eu

SAMPLE=$1
NAME=report-html
T=$(mktemp -d)
trap 'rm -rf "$T" || :' EXIT

fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "${LAB_TEST_REQUIRE_SIM:-}" = 1 ]; then
		fail "$1 not found: install the Debian package $2"
	fi
	echo "$NAME: SKIP: $1 not found (Debian package $2)" >&2
	exit 77
}
need xmllint libxml2-utils
need chromium chromium

# (a) the page
"$SAMPLE" >"$T/report.html" 2>"$T/sample.err" || fail "html-sample failed"
[ -s "$T/report.html" ] || fail "empty page"
[ ! -s "$T/sample.err" ] || fail "html-sample wrote to stderr"

# (b) libxml2's HTML parser knows HTML 4 only: it calls the HTML5 and SVG
# elements invalid tags but parses them. Any other error fails; warnings
# are listed.
xmllint --html --noout "$T/report.html" >"$T/html.log" 2>&1 ||
	{ cat "$T/html.log" >&2; fail "xmllint --html failed"; }
html5='section|header|main|nav|footer|details|summary|svg|g|rect|text|tspan|title|style'
grep -E ' (error|warning) : ' "$T/html.log" |
	grep -Ev "HTML parser error : Tag ($html5) invalid\$" \
	>"$T/html.problems" || true
if grep -q ' error : ' "$T/html.problems"; then
	cat "$T/html.problems" >&2
	fail "xmllint --html found errors"
fi
if [ -s "$T/html.problems" ]; then
	echo "$NAME: xmllint --html warnings:" >&2
	cat "$T/html.problems" >&2
fi

# an empty report reads well and parses as well
"$SAMPLE" empty >"$T/empty.html" || fail "html-sample empty failed"
xmllint --html --noout "$T/empty.html" 2>&1 |
	grep -E ' error : ' | grep -Ev "Tag ($html5) invalid\$" &&
	fail "xmllint --html found errors in the empty report"
for s in 'No host in the inventory' 'no switch discovered yet' \
    'Nothing needs attention' 'first report'; do
	grep -q "$s" "$T/empty.html" || fail "empty report lacks '$s'"
done

# (c) each inline SVG (its own lines, from "<svg " to "</svg>") as XML
awk -v d="$T" '
	/^<svg / { on = 1; n++ }
	on { print > (d "/pic-" n ".svg") }
	/<\/svg>$/ { on = 0 }
' "$T/report.html"
nsvg=$(ls "$T" | grep -c '^pic-.*\.svg$' || true)
nopen=$(grep -c '<svg ' "$T/report.html" || true)
# 3 panels, storage of 4 hosts
[ "$nsvg" -eq 7 ] || fail "expected 7 SVG pictures, found $nsvg"
[ "$nopen" -eq "$nsvg" ] || fail "an <svg> not on its own line"
for f in "$T"/pic-*.svg; do
	xmllint --noout "$f" 2>"$T/svg.log" ||
		{ cat "$T/svg.log" >&2; fail "$(basename "$f") is not XML"; }
	grep -q 'xmlns="http://www.w3.org/2000/svg"' "$f" ||
		fail "$(basename "$f") lacks the SVG namespace"
done
# the SG200-26 panel, drawn from the ports discovered: 25 jacks (gi1/0/26
# is notPresent, Po1 and vlan2 are logical), odd ports on top
sg=$(grep -l 'aria-label="front panel of sg200"' "$T"/pic-*.svg) ||
	fail "no front panel of sg200"
[ "$(grep -c '<rect x=[^/]*rx="3"' "$sg")" -eq 25 ] ||
	fail "sg200 panel does not have 25 ports"
grep -q '25 ports discovered (0 at 10 Gb/s or more), 1 not present not drawn' "$sg" ||
	fail "sg200 panel caption"
# LAG member gi1/0/25: a badge with the LAG's name; VLANs on the jacks
grep -q 'class="lag"/><text[^>]*class="lb">Po1</text>' "$sg" ||
	fail "no LAG badge on gi1/0/25"
grep -q 'class="pl">v1</text>' "$sg" || fail "no VLAN on the jacks"
# host names in full in the table under the panel, never cut
grep -q '>gi1/0/22<tspan x="[0-9]*">microserver1 eth0</tspan>' "$sg" ||
	fail "no full host name under the sg200 panel"
if grep -q '…' "$T"/pic-*.svg; then
	grep -n '…' "$T"/pic-*.svg | head -3 >&2
	fail "a name cut with an ellipsis in a panel"
fi
# the notPresent row folded away under the port table
grep -q '<details><summary>1 of 28 ports not present' "$T/report.html" ||
	fail "notPresent rows not folded away"
grep -q '<title>gi1/0/22: up, 100 Mb/s, full duplex, VLAN 1' "$sg" ||
	fail "port 22 tooltip"
grep -q 'stroke="#d32f2f" stroke-width="3"/><text x="[0-9]*" y="[0-9]*" class="pn">3<' "$sg" ||
	fail "half-duplex port 3 not outlined red"
grep -q 'fill="#ffb300"[^>]*/><text[^>]*>22<' "$sg" ||
	fail "port 22 at 100 Mb/s not amber"
# port 1 (top left) and 2 (below it): same x, odd row above
p1=$(sed -n 's/.*<rect x="\([0-9]*\)" y="\([0-9]*\)"[^>]*\/><text[^>]*>1<\/text>.*/\1 \2/p' "$sg" | head -1)
p2=$(sed -n 's/.*<rect x="\([0-9]*\)" y="\([0-9]*\)"[^>]*\/><text[^>]*>2<\/text>.*/\1 \2/p' "$sg" | head -1)
[ "${p1% *}" = "${p2% *}" ] && [ "${p1#* }" -lt "${p2#* }" ] ||
	fail "ports 1 ($p1) and 2 ($p2) not stacked odd over even"
gen=$(grep -l 'aria-label="ports of core' "$T"/pic-*.svg) ||
	fail "no panel of the generic switch"
[ "$(grep -c '<rect x=[^/]*rx="3"' "$gen")" -eq 40 ] ||
	fail "generic panel does not have 40 ports"
grep -q '>a-very-long-host-name-indeed eno1<' "$gen" ||
	fail "long host name not in full under the generic panel"
grep -q 'unassigned (not provisioned by lab)' "$T/report.html" ||
	fail "no unassigned disks drawn"
grep -q '>tank · 5 disks, 13.2 TB raw<' "$T/report.html" ||
	fail "pool tank not drawn with its size"
grep -q '>mirror-1 · 5 TB raw<' "$T/report.html" ||
	fail "vdev mirror-1 not drawn with its size"

# (d) escaping: the awkward strings appear escaped, never raw
for s in 'r&amp;d &lt;lab&gt; &quot;α&quot; &#39;ü&#39; Zürich' \
    '&lt;script&gt;alert(1)&lt;/script&gt;' 'eth&lt;0&gt;' \
    'vg&lt;data&gt;' 'o&#39;brien &amp; &lt;co&gt;' \
    'core &lt;&amp;&gt; &quot;big&quot;'; do
	grep -qF "$s" "$T/report.html" || fail "'$s' missing"
done
for s in '<lab>' '<script' 'r&d' '"α"' "'ü'" '<co>' 'eth<0>' '<data>' \
    '<&>' '"big"' '<sev>'; do
	if grep -qF -- "$s" "$T/report.html"; then
		grep -nF -- "$s" "$T/report.html" | head -3 >&2
		fail "raw '$s' in the page"
	fi
done
grep -q 'never checked' "$T/report.html" || fail "no 'never checked'"
grep -q 'no switch discovered yet' "$T/report.html" ||
	fail "no 'no switch discovered yet'"
grep -q '>4 TB<' "$T/report.html" || fail "no human disk size"

# (e) headless Chromium: a screenshot, the DOM it built, no console errors
chrome() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu \
	    --disable-dev-shm-usage --no-first-run \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" \
	    --enable-logging=stderr --v=0 "$@"
}
chrome --screenshot="$T/shot.png" --window-size=1280,2000 \
    "file://$T/report.html" >"$T/shot.out" 2>"$T/shot.err" ||
	{ tail -20 "$T/shot.err" >&2; fail "chromium --screenshot failed"; }
[ -s "$T/shot.png" ] || fail "no screenshot"
magic=$(od -An -tx1 -N8 "$T/shot.png" | tr -d ' \n')
[ "$magic" = 89504e470d0a1a0a ] || fail "screenshot is not a PNG ($magic)"
[ "$(wc -c <"$T/shot.png")" -gt 10000 ] || fail "screenshot is too small"
chrome --dump-dom "file://$T/report.html" >"$T/dom.html" \
    2>"$T/dom.err" ||
	{ tail -20 "$T/dom.err" >&2; fail "chromium --dump-dom failed"; }
[ "$(grep -o '<svg ' "$T/dom.html" | wc -l)" -eq 7 ] ||
	fail "chromium's DOM lacks SVG pictures"
grep -q '<section id="audit">' "$T/dom.html" || fail "DOM lacks the audit"
for f in shot.err dom.err; do
	if grep -E 'CONSOLE|Uncaught' "$T/$f" >"$T/console.log"; then
		cat "$T/console.log" >&2
		fail "console messages in $f"
	fi
done
if [ -n "${LAB_REPORT_SHOT:-}" ]; then
	cp "$T/shot.png" "$LAB_REPORT_SHOT"
fi
echo "$NAME: ok"
