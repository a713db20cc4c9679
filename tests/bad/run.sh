# SPDX-License-Identifier: GPL-3.0-or-later
# One bad-inventory case: sh run.sh LAB_BINARY BAD_DIR NAME
#
# Imports inventory/ into a fresh database, then imports the bad file NAME
# (a file in BAD_DIR, or generated here when NAME is gen-*) and checks that
# lab exits 2, prints "lab: import: FILE:LINE:COL: ..." with the LINE:COL
# and the substring that BAD_DIR/EXPECT gives for NAME, prints nothing on
# stdout, and leaves the database (and its -wal file) byte-for-byte as it was.
#
# EXPECT holds one line per case, tab-separated: NAME LINE:COL SUBSTRING.
# LINE:COL '*' accepts any position; SUBSTRING '*' accepts any message.
# Lines starting with '#' are comments.
set -eu

if [ $# -ne 3 ]; then
	echo "usage: sh run.sh LAB_BINARY BAD_DIR NAME" >&2
	exit 1
fi
lab=$1
dir=$2
name=$3

tab=$(printf '\t')
pos=
sub=
while IFS=$tab read -r n p s; do
	case $n in '#'* | '') continue ;; esac
	if [ "$n" = "$name" ]; then
		pos=$p
		sub=$s
		break
	fi
done <"$dir/EXPECT"
if [ -z "$pos" ] || [ -z "$sub" ]; then
	echo "$name: no 'NAME<TAB>LINE:COL<TAB>SUBSTRING' line in $dir/EXPECT" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-bad.XXXXXX")
trap 'rm -rf "$tmp" || :' EXIT
trap 'exit 1' HUP INT PIPE TERM

db=$tmp/lab.db

# Prints the checksum of a file, or "absent".
sum() {
	if [ -e "$1" ]; then
		sha256sum <"$1" | cut -d' ' -f1
	else
		echo absent
	fi
}

# Writes COUNT bytes of CHAR (a single character) to stdout.
repeat() {
	dd if=/dev/zero bs=1024 count="$(($2 / 1024))" 2>/dev/null | tr '\0' "$1"
}

# The generated cases: too large to keep in git.
generate() {
	case $name in
	gen-garbage)
		# 10 MB of random bytes
		dd if=/dev/urandom of="$1" bs=4096 count=2560 2>/dev/null ;;
	gen-long-line)
		# a 2 MB value on one line (a value holds at most 4096 bytes)
		{
			printf 'groups:\n  - name: lab\n    description: '
			repeat x 2097152
			printf '\n'
		} >"$1" ;;
	gen-many-keys)
		# 300000 distinct keys in one mapping: must be refused quickly
		awk 'BEGIN { for (i = 1; i <= 300000; i++)
			printf "key%07d: %d\n", i, i }' >"$1" ;;
	gen-many-nodes)
		# one list of 4000002 items: beyond the limit of 4000000 nodes
		awk 'BEGIN { printf "hosts: ["
			for (i = 0; i < 4000001; i++) printf "1,"
			print "1]" }' >"$1" ;;
	gen-deep-nesting)
		# 1 MB of '[': one million levels of nesting
		repeat '[' 1048576 >"$1" ;;
	gen-too-large)
		# 65 MiB (sparse), beyond the limit of 64 MiB
		dd if=/dev/zero of="$1" bs=1048576 count=0 seek=65 2>/dev/null ;;
	*)
		echo "$name: no generator for this case" >&2
		exit 1 ;;
	esac
}

# A populated database, as a real lab would have.
if ! "$lab" --db "$db" import "$dir/../../inventory" >"$tmp/setup.out" \
    2>"$tmp/setup.err"; then
	echo "$name: cannot import $dir/../../inventory:" >&2
	cat "$tmp/setup.err" >&2
	exit 1
fi
"$lab" --db "$db" ls hosts --json >"$tmp/before.json"
db_sum=$(sum "$db")
wal_sum=$(sum "$db-wal")

case $name in
gen-*)
	file=$tmp/$name.yaml
	generate "$file" ;;
*)
	file=$tmp/$name
	cp "$dir/$name" "$file" ;;
esac

rc=0
"$lab" --db "$db" import "$file" >"$tmp/out" 2>"$tmp/err" || rc=$?

fail=0
bad() {
	echo "$name: $*" >&2
	fail=1
}

[ "$rc" -eq 2 ] || bad "exit code $rc, expected 2"

# "lab: import: FILE:LINE:COL: " at the start of a line of stderr
if ! F=$file P=$pos awk '
	BEGIN { pre = "lab: import: " ENVIRON["F"] ":"; pos = ENVIRON["P"] }
	index($0, pre) == 1 {
		rest = substr($0, length(pre) + 1)
		if (pos == "*" ? rest ~ /^[0-9]+:[0-9]+: / : \
		    index(rest, pos ": ") == 1)
			ok = 1
	}
	END { exit !ok }' "$tmp/err"; then
	if [ "$pos" = "*" ]; then
		bad "stderr has no line 'lab: import: $file:LINE:COL: '"
	else
		bad "stderr has no line 'lab: import: $file:$pos: '"
	fi
fi
# the substring must be in the message, not in the file name: "FILE" for it
F=$file awk '{
	out = ""
	while ((i = index($0, ENVIRON["F"])) > 0) {
		out = out substr($0, 1, i - 1) "FILE"
		$0 = substr($0, i + length(ENVIRON["F"]))
	}
	print out $0
}' "$tmp/err" >"$tmp/msg"
if [ "$sub" != "*" ] && ! grep -F -e "$sub" "$tmp/msg" >/dev/null; then
	bad "the message does not contain '$sub'"
fi
if [ -s "$tmp/out" ]; then
	bad "stdout is not empty:"
	head -c 2000 "$tmp/out" | cat -v >&2
fi

[ "$(sum "$db")" = "$db_sum" ] ||
	bad "the database changed (sha256 $db_sum -> $(sum "$db"))"
[ "$(sum "$db-wal")" = "$wal_sum" ] ||
	bad "the -wal file changed (sha256 $wal_sum -> $(sum "$db-wal"))"

if ! "$lab" --db "$db" ls hosts --json >"$tmp/after.json" 2>"$tmp/ls.err"; then
	bad "'lab ls hosts --json' failed after the import:"
	cat "$tmp/ls.err" >&2
elif ! cmp -s "$tmp/before.json" "$tmp/after.json"; then
	bad "'lab ls hosts --json' differs after the import:"
	diff "$tmp/before.json" "$tmp/after.json" | head -n 40 >&2 || :
fi

if [ "$fail" -ne 0 ]; then
	echo "--- stderr of 'lab --db DB import $file' (exit $rc):" >&2
	head -c 2000 "$tmp/err" | cat -v >&2
	echo >&2
	exit 1
fi
echo "ok $name: $(head -n 1 "$tmp/err" | cut -c 1-300 | cat -v)"
