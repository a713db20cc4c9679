{{%sh}}
#!/bin/sh
# Written by lab: installs the new network config from $S/new and
# brings it up; on failure puts the saved one back at once.
set -u
S={{staging}}
# let the SSH session that started this report back and close first
sleep 2
failed() {
	echo "lab: $*" >&2
	echo failed >"$S/switched"
	sh "$S/rollback.sh" now
	exit 1
}
{{#ifupdown}}
# take down, under the old config, what the new one takes over
for i in{{#downs}} {{name}}{{/downs}}; do
	if ifquery --state 2>/dev/null | grep -q "^$i="; then
		ifdown "$i" || ifdown --force "$i" || true
	fi
done
# comment out the old stanzas of those interfaces
names={{down_names}}
drop() {
	awk -v names="$names" '
	BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) d[a[i]] = 1 }
	$1 == "iface" || $1 == "mapping" {
		skip = ($2 in d)
		if (skip) { print "# lab: " $0; next }
	}
	$1 == "auto" || $1 ~ /^allow-/ || $1 == "source" || $1 == "source-directory" || $1 == "rename" {
		skip = 0
		if ($1 == "auto" || $1 ~ /^allow-/) {
			out = $1; kept = 0
			for (i = 2; i <= NF; i++)
				if (!($i in d)) { out = out " " $i; kept++ }
			if (kept == NF - 1) { print; next }
			print "# lab: " $0
			if (kept > 0) print out
			next
		}
	}
	skip { print "# lab: " $0; next }
	{ print }' "$1" >"$1.lab-new" && mv "$1.lab-new" "$1"
}
drop /etc/network/interfaces || failed "cannot edit /etc/network/interfaces"
for f in /etc/network/interfaces.d/*; do
	case $f in
	*/lab-*) ;;
	*) if [ -f "$f" ]; then drop "$f" || failed "cannot edit $f"; fi ;;
	esac
done
if ! grep -Eq '^[[:space:]]*source(-directory)?[[:space:]]+/etc/network/interfaces\.d' /etc/network/interfaces; then
	printf '\nsource /etc/network/interfaces.d/*\n' >>/etc/network/interfaces
fi
{{/ifupdown}}
{{#files}}
install -D -m {{mode|raw}} "$S/new"{{path}} {{path}} || failed "cannot install {{path|raw}}"
{{/files}}
{{#ifupdown}}
{{#ups}}
ifup {{name}} || failed "ifup {{name|raw}} failed"
{{/ups}}
{{/ifupdown}}
{{#networkd}}
networkctl reload || failed "networkctl reload failed"
networkctl reconfigure{{#nics}} {{name}}{{/nics}} || failed "networkctl reconfigure failed"
if [ -x /lib/systemd/systemd-networkd-wait-online ]; then
	/lib/systemd/systemd-networkd-wait-online -i {{top}} --timeout=30 ||
	    failed "{{top|raw}} did not come up"
fi
{{/networkd}}
{{#netplan}}
netplan generate || failed "netplan generate failed"
netplan apply || failed "netplan apply failed"
{{/netplan}}
echo ok >"$S/switched"
echo "lab: the new network config is up; waiting for confirmation"
