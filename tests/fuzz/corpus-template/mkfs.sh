{{%sh}}
set -e
dev={{dev}}
{{#swap}}
mkswap "$dev"
uuid=$(blkid -s UUID -o value "$dev")
line="UUID=$uuid none swap sw 0 0"
grep -qxF "$line" /etc/fstab || printf '%s\n' "$line" >>/etc/fstab
swapon "$dev"
{{/swap}}
{{^swap}}
mkfs -t {{fs}} -q "$dev"
{{#mount}}
mkdir -p {{mount}}
uuid=$(blkid -s UUID -o value "$dev")
line="UUID=$uuid {{mount|raw}} {{fs|raw}} defaults 0 {{pass|raw}}"
grep -qxF "$line" /etc/fstab || printf '%s\n' "$line" >>/etc/fstab
mount {{mount}}
{{/mount}}
{{/swap}}
