/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The shares planner (issue 21): what a host serves (NFS exports of ZFS
 * datasets or LVs, iSCSI LUNs on zvols or LVs through LIO's targetcli),
 * as the steps that take the target from what it has (the output of
 * lab_shares_state_cmd, read over SSH) to what the inventory says. A
 * share that is already there costs no step: a second apply has nothing
 * to change. NFS goes through /etc/exports.d/lab.exports and exportfs
 * -ra, the same for a dataset and an LV (ZFS's sharenfs would leave LVs
 * out and scatter the exports over properties). What is on the target
 * and no longer in the inventory is removed only with prune, and never
 * while a client holds it; the data itself (the dataset, the zvol, the
 * LV) is never destroyed by lab.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/parse.h"
#include "plan-priv.h"

#define EXPORTS	"/etc/exports.d/lab.exports"
#define TCLI	"targetcli"

/*
 * The read-only command whose output a plan starts from: one fact a line.
 * "pool NAME FREE", "vg NAME FREE", "lv VG NAME BYTES", "zfs NAME TYPE
 * VOLSIZE RECORDSIZE COMPRESSION QUOTA MOUNTPOINT", "mnt PATH", "exp LINE"
 * (the lines of EXPORTS), "fstab LINE" (lab's lines of /etc/fstab), "svc
 * UNIT ENABLED ACTIVE", "tgt IQN", "attr IQN GENERATE_NODE_ACLS
 * DEMO_MODE_WRITE_PROTECT", "lun IQN N BACKSTORE", "acl IQN INITIATOR",
 * "map IQN INITIATOR MAPPED_LUN TPG_LUN", "sess IQN INITIATOR" (logged in
 * now), "bs NAME DEVICE", "nfsclient ADDRESS" (a TCP connection to
 * 2049), "showmount ADDRESS:PATH", "isess PORTAL IQN" (the host's own
 * iSCSI sessions, as a client).
 */
const char lab_shares_state_cmd[] =
    "PATH=$PATH:/usr/sbin:/sbin; "
    "if command -v zpool >/dev/null 2>&1; then "
    "zpool list -H -p -o name,free 2>/dev/null | while read -r n f; do "
    "echo \"pool $n $f\"; done; "
    "zfs list -H -p -t filesystem,volume -o name,type,volsize,recordsize,"
    "compression,quota,mountpoint 2>/dev/null | while read -r n t v r c q "
    "m; do echo \"zfs $n $t $v $r $c $q $m\"; done; fi; "
    "if command -v vgs >/dev/null 2>&1; then "
    "vgs --noheadings --units b --nosuffix -o vg_name,vg_free 2>/dev/null | "
    "while read -r n f; do echo \"vg $n $f\"; done; "
    "lvs --noheadings --units b --nosuffix -o vg_name,lv_name,lv_size "
    "2>/dev/null | while read -r g n s; do echo \"lv $g $n $s\"; done; fi; "
    "findmnt -rn -o TARGET 2>/dev/null | sed 's/^/mnt /'; "
    "[ -f " EXPORTS " ] && sed 's/^/exp /' " EXPORTS "; "
    "grep ' # lab: ' /etc/fstab 2>/dev/null | sed 's/^/fstab /'; "
    "for s in nfs-server rtslib-fb-targetctl; do "
    "e=$(systemctl is-enabled $s 2>/dev/null); "
    "a=$(systemctl is-active $s 2>/dev/null); "
    "echo \"svc $s ${e:-none} ${a:-none}\"; done; "
    "c=/sys/kernel/config/target; "
    "for t in $c/iscsi/*/tpgt_1; do [ -d \"$t\" ] || continue; "
    "q=${t%/tpgt_1}; q=${q##*/}; echo \"tgt $q\"; "
    "echo \"attr $q $(cat $t/attrib/generate_node_acls) "
    "$(cat $t/attrib/demo_mode_write_protect)\"; "
    "for l in $t/lun/lun_*; do [ -d \"$l\" ] || continue; "
    "for x in \"$l\"/*; do [ -L \"$x\" ] || continue; b=$(readlink -f \"$x\"); "
    "echo \"lun $q ${l##*lun_} ${b##*/}\"; done; done; "
    "for a in $t/acls/*; do [ -d \"$a\" ] || continue; i=${a##*/}; "
    "echo \"acl $q $i\"; "
    "for m in \"$a\"/lun_*; do [ -d \"$m\" ] || continue; "
    "for x in \"$m\"/*; do [ -L \"$x\" ] || continue; b=$(readlink -f \"$x\"); "
    "echo \"map $q $i ${m##*lun_} ${b##*lun_}\"; done; done; "
    "grep -q '^InitiatorName:' \"$a/info\" 2>/dev/null && "
    "echo \"sess $q $i\"; done; done; "
    "for b in $c/core/iblock_*/*; do [ -f \"$b/udev_path\" ] || continue; "
    "echo \"bs ${b##*/} $(cat \"$b/udev_path\")\"; done; "
    "ss -Htn state established '( sport = :2049 )' 2>/dev/null | "
    "while read -r r s l p; do echo \"nfsclient ${p%:*}\"; done; "
    "command -v showmount >/dev/null 2>&1 && timeout 5 showmount -a "
    "--no-headers 2>/dev/null | sed 's/^/showmount /'; "
    "command -v iscsiadm >/dev/null 2>&1 && iscsiadm -m session 2>/dev/null "
    "| while read -r k n p q r; do echo \"isess $p $q\"; done; exit 0";

/* --- the state --- */

struct st {
	struct lab_strv	 lines;
};

static int
st_load(struct st *s, const char *text, struct lab_err *err)
{
	const char	*p, *nl;

	lab_strv_init(&s->lines);
	for (p = text; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (lab_strv_take(&s->lines, strndup(p, nl != NULL ?
		    (size_t)(nl - p) : strlen(p))) == -1)
			return lab_err_oom(err);
	}
	return 0;
}

/* Is the line there? */
static int LAB_PRINTF(2, 3)
st_has(const struct st *s, const char *fmt, ...)
{
	char	line[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return lab_strv_find(&s->lines, line) >= 0;
}

/* The rest of the first line that starts with the prefix, or NULL. */
static const char * LAB_PRINTF(2, 3)
st_get(const struct st *s, const char *fmt, ...)
{
	char	pre[512];
	size_t	i, n;
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	n = strlen(pre);
	for (i = 0; i < s->lines.n; i++)
		if (strncmp(s->lines.v[i], pre, n) == 0)
			return s->lines.v[i] + n;
	return NULL;
}

/* --- helpers --- */

static char *
q(const char *s)
{
	struct lab_buf	b;

	lab_buf_init(&b);
	lab_sh_quote(&b, s);
	return lab_buf_steal(&b);
}

static const char *
where(const struct lab_share *s)
{
	return s->pool != NULL ? s->pool : s->vg;
}

/* The block device of an iSCSI share. */
static void
lun_dev(const struct lab_share *s, char *buf, size_t len)
{
	if (s->pool != NULL)
		snprintf(buf, len, "/dev/zvol/%s/%s", s->pool, s->name);
	else
		snprintf(buf, len, "/dev/%s/%s", s->vg, s->name);
}

static int
is_nfs(const struct lab_share *s)
{
	return strcmp(s->protocol, "nfs") == 0;
}

/* Does the dataset, zvol or LV of s exist? */
static int
volume_exists(const struct st *st, const struct lab_share *s)
{
	if (s->pool != NULL)
		return st_get(st, "zfs %s/%s ", s->pool, s->name) != NULL;
	return st_get(st, "lv %s %s ", s->vg, s->name) != NULL;
}

static int LAB_PRINTF(3, 4)
run(struct lab_plan *p, struct lab_err *err, const char *fmt, ...)
{
	char	*s;
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return lab_err_oom(err);
	return lab_plan_step(p, LAB_STEP_RUN, s, NULL, NULL, err) ? 0 : -1;
}

static int LAB_PRINTF(4, 5)
step(struct lab_plan *p, enum lab_step_kind k, struct lab_err *err,
    const char *fmt, ...)
{
	char	*s;
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return lab_err_oom(err);
	return lab_plan_step(p, k, s, NULL, NULL, err) ? 0 : -1;
}

static int LAB_PRINTF(3, 4)
fail_at(struct lab_err *err, const struct lab_loc *l, const char *fmt, ...)
{
	char	msg[400];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lab_err_set(err, LAB_EXIT_INPUT, "%s:%d:%d: %s",
	    l->file != NULL ? l->file : "-", l->line, l->col, msg);
}

/* --- room --- */

/*
 * The volumes still to make on each pool and VG must fit in its free
 * space. A pool or VG the state does not show is an error (the storage
 * layout comes first); with no state every volume is checked by a step.
 */
static int
check_room(const struct lab_host *h, const struct st *st, int known,
    struct lab_err *err)
{
	const struct lab_share	*s, *t;
	const char		*free_s;
	uint64_t		 need, have;
	char			 a[32], b[32];
	size_t			 i, j;

	if (!known)
		return 0;
	for (i = 0; i < h->nshares; i++) {
		s = &h->shares[i];
		free_s = st_get(st, "%s %s ", s->pool ? "pool" : "vg",
		    where(s));
		if (free_s == NULL)
			return fail_at(err, &s->loc, "share '%s' is on %s '%s', "
			    "which %s does not have: 'lab provision %s "
			    "--layout ...' makes it", s->name, s->pool ? "pool" :
			    "vg", where(s), h->name, h->name);
		if (s->size_bytes == 0 || s->sparse || volume_exists(st, s))
			continue;
		have = strtoull(free_s, NULL, 10);
		need = 0;
		for (j = 0; j <= i; j++) {
			t = &h->shares[j];
			if (t->size_bytes > 0 && !t->sparse &&
			    strcmp(where(t), where(s)) == 0 &&
			    (t->pool != NULL) == (s->pool != NULL) &&
			    !volume_exists(st, t))
				need += t->size_bytes;
		}
		if (need <= have)
			continue;
		lab_size_human(need, a);
		lab_size_human(have, b);
		return fail_at(err, s->size_loc.line > 0 ? &s->size_loc :
		    &s->loc, "share '%s' of host '%s' does not fit: the new "
		    "volumes on %s '%s' need %s up to it, and it has %s free",
		    s->name, h->name, s->pool ? "pool" : "vg", where(s), a, b);
	}
	return 0;
}

/* --- NFS --- */

/* A ZFS size: digits and an optional binary unit (128K, 1T); 0: none. */
static uint64_t
zfs_bytes(const char *s)
{
	static const char units[] = "KMGTP";
	const char	*u;
	uint64_t	 v = strtoull(s, NULL, 10);

	while (*s >= '0' && *s <= '9')
		s++;
	if (*s != '\0' && *s != ' ' && (u = strchr(units, *s & ~0x20)) != NULL)
		v <<= 10 * (int)(u - units + 1);
	return v;
}

/*
 * Does the dataset's state (TYPE VOLSIZE RECORDSIZE COMPRESSION QUOTA
 * MOUNTPOINT, zfs list -p) have key = value?
 */
static int
prop_matches(const char *cur, const char *key, const char *value)
{
	char	f[6][256];
	int	idx;

	memset(f, 0, sizeof(f));
	if (sscanf(cur, "%255s %255s %255s %255s %255s %255s", f[0], f[1],
	    f[2], f[3], f[4], f[5]) < 5)
		return 0;
	if (strcmp(key, "recordsize") == 0)
		idx = 2;
	else if (strcmp(key, "compression") == 0)
		return strcmp(f[3], value) == 0;
	else
		idx = 4;
	if (strcmp(value, "none") == 0)
		return strcmp(f[idx], "0") == 0 || strcmp(f[idx], "none") == 0;
	return strtoull(f[idx], NULL, 10) == zfs_bytes(value);
}

static int
nfs_volume(struct lab_plan *p, const struct lab_host *h, const struct st *st,
    const struct lab_share *s, struct lab_err *err)
{
	struct lab_buf	 b;
	const char	*cur, *eq;
	char		*path, want[64];
	size_t		 i, n;
	int		 rc;

	(void)h;
	path = q(s->path);
	if (s->pool != NULL && !volume_exists(st, s)) {
		lab_buf_init(&b);
		lab_buf_addf(&b, "zfs create -o mountpoint=%s", path);
		for (i = 0; i < s->properties.n; i++)
			lab_buf_addf(&b, " -o %s", s->properties.v[i]);
		lab_buf_addf(&b, " %s/%s", s->pool, s->name);
		rc = lab_plan_step(p, LAB_STEP_RUN, lab_buf_steal(&b), NULL,
		    NULL, err) ? 0 : -1;
		free(path);
		return rc;
	}
	if (s->pool != NULL) {
		/* the properties that differ: zfs set */
		cur = st_get(st, "zfs %s/%s ", s->pool, s->name);
		for (i = 0, rc = 0; rc == 0 && i < s->properties.n; i++) {
			eq = strchr(s->properties.v[i], '=');
			n = (size_t)(eq - s->properties.v[i]);
			snprintf(want, sizeof(want), "%.*s",
			    (int)n, s->properties.v[i]);
			if (cur != NULL && prop_matches(cur, want, eq + 1))
				continue;
			rc = run(p, err, "zfs set %s %s/%s",
			    s->properties.v[i], s->pool, s->name);
		}
		free(path);
		return rc;
	}
	rc = 0;
	if (!volume_exists(st, s))
		rc = run(p, err, "set -e\nlvcreate --yes --wipesignatures y "
		    "--name %s --size %llub %s\nmkfs.ext4 -q -L %.16s /dev/%s/%s",
		    s->name, (unsigned long long)s->size_bytes, s->vg, s->name,
		    s->vg, s->name);
	if (rc == 0 && !st_has(st, "fstab /dev/%s/%s %s ext4 defaults,nofail "
	    "0 2 # lab: share %s", s->vg, s->name, s->path, s->name))
		rc = run(p, err, "set -e\nmkdir -p %s\nsed -i '\\|# lab: share "
		    "%s$|d' /etc/fstab\nprintf '%%s\\n' '/dev/%s/%s %s ext4 "
		    "defaults,nofail 0 2 # lab: share %s' >>/etc/fstab", path,
		    s->name, s->vg, s->name, s->path, s->name);
	if (rc == 0 && !st_has(st, "mnt %s", s->path))
		rc = run(p, err, "mount %s", path);
	free(path);
	return rc;
}

/* The line of EXPORTS for s. */
static int
export_line(const struct lab_inventory *inv, const struct lab_share *s,
    struct lab_buf *b, struct lab_err *err)
{
	const char *const	*opts;
	struct lab_strv		 cl;
	char			 o[512];
	size_t			 i, n;

	lab_strv_init(&cl);
	if (lab_share_clients(inv, s, &cl, err) == -1) {
		lab_strv_release(&cl);
		return -1;
	}
	o[0] = '\0';
	opts = s->options.n > 0 ? (const char *const *)s->options.v :
	    lab_share_nfs_default;
	n = s->options.n;
	if (n == 0)
		while (opts[n] != NULL)
			n++;
	for (i = 0; i < n; i++)
		snprintf(o + strlen(o), sizeof(o) - strlen(o), "%s%s",
		    i ? "," : "", opts[i]);
	lab_buf_addf(b, "%s", s->path);
	for (i = 0; i < cl.n; i++)
		lab_buf_addf(b, " %s(%s)", cl.v[i], o);
	lab_buf_addc(b, '\n');
	lab_strv_release(&cl);
	return 0;
}

/* The first word of an exports line (its path), or NULL for a comment. */
static int
export_path(const char *line, char *buf, size_t len)
{
	size_t	n;

	if (line[0] != '/')
		return -1;
	n = strcspn(line, " \t");
	if (n >= len)
		return -1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return 0;
}

static const struct lab_share *
share_on_path(const struct lab_host *h, const char *path)
{
	size_t	i;

	for (i = 0; i < h->nshares; i++)
		if (h->shares[i].path != NULL &&
		    strcmp(h->shares[i].path, path) == 0)
			return &h->shares[i];
	return NULL;
}

/* Who holds an export: showmount's lines for path, else every NFS peer. */
static int
nfs_holders(const struct st *st, const char *path, struct lab_buf *who)
{
	const char	*l, *colon;
	size_t		 i;
	int		 n = 0;

	for (i = 0; i < st->lines.n; i++) {
		l = st->lines.v[i];
		if (strncmp(l, "showmount ", 10) != 0 ||
		    (colon = strchr(l + 10, ':')) == NULL ||
		    strcmp(colon + 1, path) != 0)
			continue;
		lab_buf_addf(who, "%s%.*s", n++ ? ", " : "",
		    (int)(colon - l - 10), l + 10);
	}
	for (i = 0; n == 0 && i < st->lines.n; i++)
		if (strncmp(st->lines.v[i], "nfsclient ", 10) == 0)
			lab_buf_addf(who, "%s%s", who->len ? ", " : "",
			    st->lines.v[i] + 10);
	return n > 0 || who->len > 0;
}

static int
nfs_exports(struct lab_plan *p, const struct lab_shares_req *req,
    const struct lab_host *h, const struct st *st, int *changed,
    struct lab_err *err)
{
	struct lab_buf	 want, cur, who;
	const char	*l;
	char		 path[512];
	size_t		 i;
	int		 any = 0, rc = -1;

	lab_buf_init(&want);
	lab_buf_init(&cur);
	lab_buf_init(&who);
	lab_buf_addf(&want, "# Written by lab (lab provision %s --shares): the "
	    "NFS exports of the\n# inventory. Edits here are lost on the next "
	    "apply.\n", h->name);
	for (i = 0; i < h->nshares; i++) {
		if (!is_nfs(&h->shares[i]))
			continue;
		any = 1;
		if (export_line(req->inv, &h->shares[i], &want, err) == -1)
			goto out;
	}
	/* the exports lab wrote before, for shares no longer declared */
	for (i = 0; i < st->lines.n; i++) {
		if (strncmp(st->lines.v[i], "exp ", 4) != 0)
			continue;
		l = st->lines.v[i] + 4;
		lab_buf_addf(&cur, "%s\n", l);
		if (export_path(l, path, sizeof(path)) == -1 ||
		    share_on_path(h, path) != NULL)
			continue;
		if (!req->prune) {
			lab_buf_addf(&want, "%s\n", l);
			any = 1;
			if (lab_plan_warn(p, err, "%s exports %s, which no share "
			    "of the inventory is: 'lab provision %s --shares "
			    "--prune' stops exporting it", h->name, path,
			    h->name) == -1)
				goto out;
			continue;
		}
		who.len = 0;
		if (who.s != NULL)
			who.s[0] = '\0';
		if (nfs_holders(st, path, &who)) {
			lab_err_set(err, LAB_EXIT_PARTIAL, "%s: cannot prune the "
			    "export of %s: NFS client %s holds it (unmount "
			    "it there first); nothing was changed", h->name,
			    path, who.s);
			goto out;
		}
		if (lab_plan_warn(p, err, "--prune: %s stops exporting %s; "
		    "its data stays", h->name, path) == -1)
			goto out;
	}
	if (!any && cur.len == 0) {
		rc = 0;
		goto out;
	}
	if (cur.len > 0 && cur.len == want.len &&
	    memcmp(cur.s, want.s, cur.len) == 0) {
		rc = 0;
		goto out;
	}
	if (want.oom)
		goto oom;
	/* Debian's nfs-kernel-server reads the folder but does not make it */
	if (run(p, err, "mkdir -p /etc/exports.d") == -1)
		goto out;
	if (lab_plan_step(p, LAB_STEP_WRITE, strdup(EXPORTS),
	    lab_buf_steal(&want), "the NFS exports of the inventory",
	    err) == NULL)
		goto out;
	*changed = 1;
	rc = 0;
	goto out;
oom:
	lab_err_oom(err);
out:
	lab_buf_release(&want);
	lab_buf_release(&cur);
	lab_buf_release(&who);
	return rc;
}

/* --- iSCSI --- */

/* The LUN number of backstore name in target iqn, or -1. */
static long
lun_of(const struct st *st, const char *iqn, const char *name)
{
	const char	*l, *sp;
	char		 pre[300];
	size_t		 i, n;

	n = (size_t)snprintf(pre, sizeof(pre), "lun %s ", iqn);
	for (i = 0; i < st->lines.n; i++) {
		l = st->lines.v[i];
		if (strncmp(l, pre, n) != 0 || (sp = strchr(l + n, ' ')) == NULL)
			continue;
		if (strcmp(sp + 1, name) == 0)
			return strtol(l + n, NULL, 10);
	}
	return -1;
}

/* The smallest LUN number target iqn does not use, besides taken. */
static long
free_lun(const struct st *st, const char *iqn, const long *taken,
    size_t ntaken)
{
	const char	*l;
	char		 pre[300];
	long		 k;
	size_t		 i, j, n;
	int		 used;

	n = (size_t)snprintf(pre, sizeof(pre), "lun %s ", iqn);
	for (k = 0;; k++) {
		used = 0;
		for (j = 0; j < ntaken; j++)
			used |= taken[j] == k;
		for (i = 0; !used && i < st->lines.n; i++) {
			l = st->lines.v[i];
			used = strncmp(l, pre, n) == 0 &&
			    strtol(l + n, NULL, 10) == k;
		}
		if (!used)
			return k;
	}
}

/* The IQN of an initiator as written: itself, or its host's. */
static const char *
initiator_iqn(const struct lab_inventory *inv, const char *w)
{
	const struct lab_host	*o;

	if (strchr(w, '.') != NULL && strchr(w, ':') != NULL)
		return w;
	if (strncmp(w, "eui.", 4) == 0 || strncmp(w, "naa.", 4) == 0)
		return w;
	o = inv != NULL ? lab_inventory_host(inv, w) : NULL;
	return o != NULL ? o->initiator : NULL;
}

static int
iscsi_share(struct lab_plan *p, const struct lab_shares_req *req,
    const struct lab_host *h, const struct st *st, const struct lab_share *s,
    long *luns, size_t *nluns, int *changed, struct lab_err *err)
{
	const char	*ini;
	char		 iqn[256], dev[300];
	long		 lun;
	size_t		 i;

	lab_share_iqn(h, s, iqn, sizeof(iqn));
	lun_dev(s, dev, sizeof(dev));
	if (!volume_exists(st, s)) {
		if (s->pool != NULL) {
			/* a multiple of any volblocksize (up to 1 MiB) */
			if (run(p, err, "zfs create%s -V %llu %s/%s",
			    s->sparse ? " -s" : "", (unsigned long long)
			    ((s->size_bytes + 1048575) & ~(uint64_t)1048575),
			    s->pool, s->name) == -1)
				return -1;
		} else if (run(p, err, "lvcreate --yes --wipesignatures y "
		    "--name %s --size %llub %s", s->name,
		    (unsigned long long)s->size_bytes, s->vg) == -1)
			return -1;
		*changed = 1;
	}
	if (!st_has(st, "bs %s %s", s->name, dev)) {
		if (st_get(st, "bs %s ", s->name) != NULL)
			return fail_at(err, &s->loc, "%s has an iSCSI backstore "
			    "'%s' on another device than %s: delete it by hand "
			    "(targetcli /backstores/block delete %s)", h->name,
			    s->name, dev, s->name);
		if (run(p, err, TCLI " /backstores/block create name=%s dev=%s",
		    s->name, dev) == -1)
			return -1;
		*changed = 1;
	}
	if (!st_has(st, "tgt %s", iqn)) {
		if (run(p, err, TCLI " /iscsi create %s", iqn) == -1)
			return -1;
		*changed = 1;
	}
	if (!st_has(st, "attr %s 0 1", iqn)) {
		/* no demo mode: only the ACLs' initiators, and never a
		   write from an initiator without one */
		if (run(p, err, TCLI " /iscsi/%s/tpg1 set attribute "
		    "authentication=0 generate_node_acls=0 "
		    "demo_mode_write_protect=1", iqn) == -1)
			return -1;
		*changed = 1;
	}
	/* once a target, even when two shares name it */
	(void)req;
	if ((lun = lun_of(st, iqn, s->name)) < 0) {
		lun = free_lun(st, iqn, luns, *nluns);
		if (run(p, err, TCLI " /iscsi/%s/tpg1/luns create "
		    "/backstores/block/%s lun=%ld add_mapped_luns=false", iqn,
		    s->name, lun) == -1)
			return -1;
		*changed = 1;
	}
	luns[(*nluns)++] = lun;
	for (i = 0; i < s->initiators.n; i++) {
		if ((ini = initiator_iqn(req->inv, s->initiators.v[i])) == NULL)
			return fail_at(err, &s->loc, "initiator '%s' of share "
			    "'%s' has no IQN (iscsi_initiator)",
			    s->initiators.v[i], s->name);
		if (!st_has(st, "acl %s %s", iqn, ini)) {
			if (run(p, err, TCLI " /iscsi/%s/tpg1/acls create %s "
			    "add_mapped_luns=false", iqn, ini) == -1)
				return -1;
			*changed = 1;
		}
		if (!st_has(st, "map %s %s %ld %ld", iqn, ini, lun, lun)) {
			if (run(p, err, TCLI " /iscsi/%s/tpg1/acls/%s create "
			    "mapped_lun=%ld tpg_lun_or_backstore=%ld", iqn, ini,
			    lun, lun) == -1)
				return -1;
			*changed = 1;
		}
	}
	return 0;
}

static const struct lab_share *
iscsi_named(const struct lab_host *h, const char *name)
{
	size_t	i;

	for (i = 0; i < h->nshares; i++)
		if (!is_nfs(&h->shares[i]) &&
		    strcmp(h->shares[i].name, name) == 0)
			return &h->shares[i];
	return NULL;
}

/* Is iqn a target of h's (a share's, or the default one)? */
static int
own_target(const struct lab_host *h, const char *iqn)
{
	char	buf[256];
	size_t	i;

	for (i = 0; i < h->nshares; i++) {
		if (is_nfs(&h->shares[i]))
			continue;
		lab_share_iqn(h, &h->shares[i], buf, sizeof(buf));
		if (strcmp(buf, iqn) == 0)
			return 1;
	}
	lab_share_iqn(h, &(struct lab_share){ .name = "" }, buf, sizeof(buf));
	return strcmp(buf, iqn) == 0;
}

/* The LUNs of lab's targets whose share is gone: warned, or pruned. */
static int
iscsi_prune(struct lab_plan *p, const struct lab_shares_req *req,
    const struct lab_host *h, const struct st *st, int *changed,
    struct lab_err *err)
{
	const char	*l, *sp, *name, *m, *msp;
	char		 iqn[256], pre[300], who[512];
	size_t		 i, j, n, w;
	long		 lun;

	for (i = 0; i < st->lines.n; i++) {
		l = st->lines.v[i];
		if (strncmp(l, "lun ", 4) != 0 ||
		    (sp = strchr(l + 4, ' ')) == NULL ||
		    (size_t)(sp - l - 4) >= sizeof(iqn))
			continue;
		memcpy(iqn, l + 4, (size_t)(sp - l - 4));
		iqn[sp - l - 4] = '\0';
		lun = strtol(sp + 1, NULL, 10);
		if ((name = strchr(sp + 1, ' ')) == NULL)
			continue;
		name++;
		if (!own_target(h, iqn) || iscsi_named(h, name) != NULL)
			continue;
		if (!req->prune) {
			if (lab_plan_warn(p, err, "%s serves LUN %ld (%s) of %s, "
			    "which no share of the inventory is: 'lab "
			    "provision %s --shares --prune' removes it", h->name,
			    lun, name, iqn, h->name) == -1)
				return -1;
			continue;
		}
		/* the initiators mapped to it that are logged in now */
		who[0] = '\0';
		n = (size_t)snprintf(pre, sizeof(pre), "map %s ", iqn);
		for (j = 0; j < st->lines.n; j++) {
			m = st->lines.v[j];
			if (strncmp(m, pre, n) != 0 ||
			    (msp = strchr(m + n, ' ')) == NULL)
				continue;
			if (strtol(strchr(msp + 1, ' ') != NULL ?
			    strchr(msp + 1, ' ') + 1 : "-1", NULL, 10) != lun)
				continue;
			w = (size_t)(msp - m - n);
			if (!st_has(st, "sess %s %.*s", iqn, (int)w, m + n))
				continue;
			snprintf(who + strlen(who), sizeof(who) - strlen(who),
			    "%s%.*s", who[0] ? ", " : "", (int)w, m + n);
		}
		if (who[0] != '\0')
			return lab_err_set(err, LAB_EXIT_PARTIAL, "%s: cannot "
			    "prune iSCSI LUN %ld (%s) of %s: initiator %s is "
			    "logged in (log it out there first); nothing was "
			    "changed", h->name, lun, name, iqn, who);
		if (run(p, err, TCLI " /backstores/block delete %s", name) == -1 ||
		    lab_plan_warn(p, err, "--prune: %s stops serving %s; its "
		    "volume and data stay", h->name, name) == -1)
			return -1;
		*changed = 1;
	}
	return 0;
}

/* --- the plans --- */

static const char *
layout_of(const struct lab_host *h, int mounts)
{
	int	nfs = 0, iscsi = 0;
	size_t	i;

	if (mounts)
		return "mounts";
	for (i = 0; i < h->nshares; i++) {
		if (is_nfs(&h->shares[i]))
			nfs = 1;
		else
			iscsi = 1;
	}
	return nfs && iscsi ? "nfs+iscsi" : nfs ? "nfs" : iscsi ? "iscsi" :
	    "none";
}

/* The CHECK steps: the tools, and each pool and VG the shares are on. */
static int
checks(struct lab_plan *p, const struct lab_host *h, struct lab_err *err)
{
	struct lab_strv	 seen;
	const char	*w;
	char		 key[128];
	size_t		 i;
	int		 nfs = 0, iscsi = 0, rc = 0;

	lab_strv_init(&seen);
	for (i = 0; rc == 0 && i < h->nshares; i++) {
		nfs |= is_nfs(&h->shares[i]);
		iscsi |= !is_nfs(&h->shares[i]);
		w = where(&h->shares[i]);
		snprintf(key, sizeof(key), "%s %s", h->shares[i].pool ? "pool" :
		    "vg", w);
		if (lab_strv_find(&seen, key) >= 0)
			continue;
		if (lab_strv_add(&seen, key) == -1)
			rc = lab_err_oom(err);
		else if (h->shares[i].pool != NULL)
			rc = step(p, LAB_STEP_CHECK, err, "zpool list -H %s "
			    ">/dev/null", w);
		else
			rc = step(p, LAB_STEP_CHECK, err, "vgs %s >/dev/null", w);
	}
	lab_strv_release(&seen);
	if (rc == 0 && nfs)
		rc = step(p, LAB_STEP_CHECK, err, "command -v exportfs "
		    ">/dev/null");
	if (rc == 0 && iscsi)
		rc = step(p, LAB_STEP_CHECK, err, "command -v " TCLI
		    " >/dev/null");
	return rc;
}

int
lab_plan_shares(const struct lab_host *h, const struct lab_shares_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	struct lab_plan	*p;
	struct st	 st;
	long		*luns = NULL;
	size_t		 i, nluns = 0, nchecks;
	int		 rc = -1, exp = 0, tgt = 0, nfs = 0, iscsi = 0;

	*ret = NULL;
	if (h->nshares == 0 && !req->prune)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no "
		    "shares: in the inventory (NFS exports, iSCSI LUNs)",
		    h->name);
	if (st_load(&st, req->state, err) == -1)
		goto out0;
	if (check_room(h, &st, req->state != NULL, err) == -1)
		goto out0;
	if ((p = lab_plan_new(h, "shares", layout_of(h, 0))) == NULL) {
		lab_err_oom(err);
		goto out0;
	}
	if ((luns = calloc(h->nshares + 1, sizeof(*luns))) == NULL) {
		lab_err_oom(err);
		goto out;
	}
	if (checks(p, h, err) == -1)
		goto out;
	nchecks = p->nsteps;
	for (i = 0; i < h->nshares; i++) {
		nfs |= is_nfs(&h->shares[i]);
		iscsi |= !is_nfs(&h->shares[i]);
		if (is_nfs(&h->shares[i]) && nfs_volume(p, h, &st,
		    &h->shares[i], err) == -1)
			goto out;
	}
	if (nfs_exports(p, req, h, &st, &exp, err) == -1)
		goto out;
	if ((nfs || exp) && !st_has(&st, "svc nfs-server enabled active") &&
	    run(p, err, "systemctl enable --now nfs-server") == -1)
		goto out;
	if (exp && run(p, err, "exportfs -ra") == -1)
		goto out;
	for (i = 0; i < h->nshares; i++)
		if (!is_nfs(&h->shares[i]) && iscsi_share(p, req, h, &st,
		    &h->shares[i], luns, &nluns, &tgt, err) == -1)
			goto out;
	if (iscsi_prune(p, req, h, &st, &tgt, err) == -1)
		goto out;
	if (tgt && run(p, err, TCLI " saveconfig") == -1)
		goto out;
	if (iscsi && !st_has(&st, "svc rtslib-fb-targetctl enabled active") &&
	    !st_has(&st, "svc rtslib-fb-targetctl enabled inactive") &&
	    run(p, err, "systemctl enable rtslib-fb-targetctl") == -1)
		goto out;
	/* nothing but the checks: nothing to change */
	if (p->nsteps == nchecks) {
		for (i = 0; i < p->nsteps; i++) {
			free(p->steps[i].text);
			free(p->steps[i].content);
			free(p->steps[i].comment);
		}
		p->nsteps = 0;
	}
	*ret = p;
	p = NULL;
	rc = 0;
out:
	lab_plan_free(p);
	free(luns);
out0:
	lab_strv_release(&st.lines);
	return rc;
}

/* The address clients reach a host at. */
static const char *
server_address(const struct lab_host *h, char *buf, size_t len)
{
	char	*slash;

	if (h->network != NULL && h->network->address != NULL) {
		snprintf(buf, len, "%s", h->network->address);
		if ((slash = strchr(buf, '/')) != NULL)
			*slash = '\0';
		return buf;
	}
	return h->ssh != NULL ? h->ssh->address : NULL;
}

static int
mount_nfs(struct lab_plan *p, const struct lab_host *srv,
    const struct lab_share *s, const struct lab_mount *m, const char *addr,
    const struct st *st, struct lab_err *err)
{
	const char *const	*opts;
	char			 line[1024], o[512], *path;
	size_t			 i, n;
	int			 rc = 0;

	opts = m->options.n > 0 ? (const char *const *)m->options.v :
	    lab_mount_nfs_default;
	n = m->options.n;
	if (n == 0)
		while (opts[n] != NULL)
			n++;
	o[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(o + strlen(o), sizeof(o) - strlen(o), "%s,", opts[i]);
	snprintf(line, sizeof(line), "%s:%s %s nfs %s_netdev 0 0 # lab: %s:%s",
	    addr, s->path, m->path, o, srv->name, s->name);
	path = q(m->path);
	if (!st_has(st, "fstab %s", line))
		rc = run(p, err, "set -e\nmkdir -p %s\nsed -i '\\|# lab: %s:%s$|d' "
		    "/etc/fstab\nprintf '%%s\\n' '%s' >>/etc/fstab", path,
		    srv->name, s->name, line);
	if (rc == 0 && !st_has(st, "mnt %s", m->path))
		rc = run(p, err, "mount %s", path);
	free(path);
	return rc;
}

static int
mount_iscsi(struct lab_plan *p, const struct lab_host *h,
    const struct lab_host *srv, const struct lab_share *s,
    const struct lab_mount *m, const char *addr, const struct st *st,
    struct lab_err *err)
{
	char	iqn[256];
	size_t	i;

	for (i = 0; i < s->initiators.n; i++)
		if (strcmp(s->initiators.v[i], h->name) == 0 ||
		    strcmp(s->initiators.v[i], h->initiator) == 0)
			break;
	if (i == s->initiators.n)
		return fail_at(err, &m->loc, "host '%s' logs in to %s, whose "
		    "initiators do not list it (%s or %s)", h->name, m->share,
		    h->name, h->initiator);
	lab_share_iqn(srv, s, iqn, sizeof(iqn));
	if (st_has(st, "isess %s:3260,1 %s", addr, iqn))
		return 0;
	if (step(p, LAB_STEP_CHECK, err, "grep -qx 'InitiatorName=%s' "
	    "/etc/iscsi/initiatorname.iscsi", h->initiator) == -1 ||
	    run(p, err, "iscsiadm -m discovery -t sendtargets -p %s:3260",
	    addr) == -1 ||
	    run(p, err, "iscsiadm -m node -T %s -p %s:3260 --op update -n "
	    "node.startup -v automatic", iqn, addr) == -1 ||
	    run(p, err, "iscsiadm -m node -T %s -p %s:3260 --login", iqn,
	    addr) == -1)
		return -1;
	return 0;
}

int
lab_plan_mounts(const struct lab_host *h, const struct lab_shares_req *req,
    struct lab_plan **ret, struct lab_err *err)
{
	const struct lab_host	*srv;
	const struct lab_share	*s;
	const struct lab_mount	*m;
	struct lab_plan		*p;
	struct st		 st;
	char			 abuf[80];
	const char		*addr;
	size_t			 i;
	int			 rc = -1, nfs = 0, iscsi = 0;

	*ret = NULL;
	if (h->nmounts == 0)
		return lab_err_set(err, LAB_EXIT_INPUT, "host '%s' has no "
		    "mounts: in the inventory", h->name);
	if (st_load(&st, req->state, err) == -1)
		goto out0;
	if ((p = lab_plan_new(h, "mounts", "mounts")) == NULL) {
		lab_err_oom(err);
		goto out0;
	}
	for (i = 0; i < h->nmounts; i++) {
		m = &h->mounts[i];
		if (req->inv == NULL ||
		    (s = lab_inventory_share(req->inv, m->share, &srv)) == NULL) {
			fail_at(err, &m->loc, "host '%s' mounts '%s', which no "
			    "host of the inventory shares", h->name, m->share);
			goto out;
		}
		if ((addr = server_address(srv, abuf, sizeof(abuf))) == NULL) {
			fail_at(err, &m->loc, "host '%s', which shares %s, has "
			    "no address (network: or ssh:)", srv->name, m->share);
			goto out;
		}
		if (is_nfs(s)) {
			if (!nfs++ && step(p, LAB_STEP_CHECK, err, "command -v "
			    "mount.nfs >/dev/null") == -1)
				goto out;
			if (mount_nfs(p, srv, s, m, addr, &st, err) == -1)
				goto out;
		} else {
			if (!iscsi++ && step(p, LAB_STEP_CHECK, err, "command "
			    "-v iscsiadm >/dev/null") == -1)
				goto out;
			if (mount_iscsi(p, h, srv, s, m, addr, &st, err) == -1)
				goto out;
		}
	}
	if (p->nsteps == (size_t)(nfs > 0) + (size_t)(iscsi > 0)) {
		for (i = 0; i < p->nsteps; i++)
			free(p->steps[i].text);
		p->nsteps = 0;
	}
	*ret = p;
	p = NULL;
	rc = 0;
out:
	lab_plan_free(p);
out0:
	lab_strv_release(&st.lines);
	return rc;
}
