{{%sh}}
# Records the new arrays in mdadm.conf (one line each, as mdadm --detail
# --scan would) so that they assemble at boot, and rebuilds the initramfs.
set -e
conf=/etc/mdadm/mdadm.conf
mkdir -p /etc/mdadm
touch "$conf"
{{#arrays}}
line=$(mdadm --detail --brief {{dev}})
grep -qxF "$line" "$conf" || printf '%s\n' "$line" >>"$conf"
{{/arrays}}
if command -v update-initramfs >/dev/null 2>&1; then
	update-initramfs -u
fi
