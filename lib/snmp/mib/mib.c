/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers and release functions of the MIB decoders. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/mib.h"

#include "mib-priv.h"

/* Frees each varbind's members, then the array. */
void
lab_varbinds_free(struct lab_varbind *vbs, size_t n)
{
	size_t	i;

	if (vbs == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(vbs[i].oid);
		free(vbs[i].str);
		free(vbs[i].oidv);
	}
	free(vbs);
}

/* The ifindex of a bridge port. */
unsigned long
lab_snmp_bridge_ifindex(const struct lab_snmp_bridge *br, unsigned long port)
{
	size_t	lo, hi, mid;

	if (br == NULL || br->n == 0)
		return port;
	lo = 0;
	hi = br->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (br->v[mid].port == port)
			return br->v[mid].ifindex;
		if (br->v[mid].port < port)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Frees the system strings. */
void
lab_snmp_system_release(struct lab_snmp_system *s)
{
	free(s->descr);
	free(s->name);
	free(s->object_id);
	memset(s, 0, sizeof(*s));
}

/* Frees the ports. */
void
lab_snmp_ports_release(struct lab_snmp_ports *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].descr);
		free(p->v[i].alias);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* Frees the MAC table. */
void
lab_snmp_fdb_release(struct lab_snmp_fdb *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Frees the bridge port map. */
void
lab_snmp_bridge_release(struct lab_snmp_bridge *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}

/* Frees the VLANs and PVIDs. */
void
lab_snmp_vlans_release(struct lab_snmp_vlans *vl)
{
	size_t	i;

	for (i = 0; i < vl->n; i++) {
		free(vl->v[i].name);
		free(vl->v[i].egress.v);
		free(vl->v[i].untagged.v);
	}
	free(vl->v);
	free(vl->pvid);
	memset(vl, 0, sizeof(*vl));
}

/* Frees the LAGs. */
void
lab_snmp_lags_release(struct lab_snmp_lags *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].members.v);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Frees the neighbours. */
void
lab_snmp_neighbors_release(struct lab_snmp_neighbors *nb)
{
	size_t	i;

	for (i = 0; i < nb->n; i++) {
		free(nb->v[i].remote_device);
		free(nb->v[i].remote_port);
		free(nb->v[i].platform);
		free(nb->v[i].version);
		free(nb->v[i].address);
	}
	free(nb->v);
	memset(nb, 0, sizeof(*nb));
}

/* Matches prefix.COL.INDEX. */
int
lab_mib_column(const struct lab_varbind *vb, const unsigned long *prefix,
    size_t plen, unsigned long *col, const unsigned long **idx,
    size_t *idx_len)
{
	if (vb->oid == NULL || vb->oid_len < plen + 2 ||
	    vb->oid_len > LAB_MIB_MAX_OID)
		return 0;
	if (memcmp(vb->oid, prefix, plen * sizeof(*prefix)) != 0)
		return 0;
	*col = vb->oid[plen];
	*idx = vb->oid + plen + 1;
	*idx_len = vb->oid_len - plen - 1;
	return 1;
}

/* The integer value of a numeric varbind, within [min, max]. */
int
lab_mib_int(const struct lab_varbind *vb, long long min, long long max,
    long long *out)
{
	long long	v;

	switch (vb->type) {
	case LAB_SNMP_INTEGER:
		if (vb->i < min || vb->i > max)
			return -1;
		v = vb->i;
		break;
	case LAB_SNMP_COUNTER32:
	case LAB_SNMP_GAUGE32:
	case LAB_SNMP_TIMETICKS:
	case LAB_SNMP_COUNTER64:
		if (vb->u > (unsigned long long)LLONG_MAX ||
		    (long long)vb->u < min || (long long)vb->u > max)
			return -1;
		v = (long long)vb->u;
		break;
	default:
		return -1;
	}
	*out = v;
	return 0;
}

/* A bounded, cleaned copy of an OCTET STRING. */
char *
lab_mib_text(const struct lab_varbind *vb)
{
	size_t	 len, i;
	char	*s;

	len = 0;
	if (vb->type == LAB_SNMP_OCTETS && vb->str != NULL)
		len = vb->str_len;
	if (len > LAB_MIB_MAX_STR)
		len = LAB_MIB_MAX_STR;
	if ((s = malloc(len + 1)) == NULL)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = vb->str[i];

		s[i] = (char)(c < 0x20 || c == 0x7f ? ' ' : c);
	}
	while (len > 0 && s[len - 1] == ' ')
		len--;
	s[len] = '\0';
	/* Leading blanks too: ifAlias " VOICE" is "VOICE" to any reader. */
	for (i = 0; s[i] == ' '; i++)
		;
	if (i > 0)
		memmove(s, s + i, len - i + 1);
	return s;
}

/* 1 for printable ASCII text. */
int
lab_mib_printable(const struct lab_varbind *vb)
{
	size_t	i;

	if (vb->type != LAB_SNMP_OCTETS)
		return 0;
	for (i = 0; i < vb->str_len; i++)
		if (vb->str[i] < 0x20 || vb->str[i] > 0x7e)
			return 0;
	return 1;
}

/* Hex of bytes with an optional separator. */
char *
lab_mib_hex(const unsigned char *p, size_t len, char sep)
{
	static const char	 digits[] = "0123456789abcdef";
	char			*s, *q;
	size_t			 i;

	if (len > LAB_MIB_MAX_STR)
		len = LAB_MIB_MAX_STR;
	if ((s = malloc(len * 3 + 1)) == NULL)
		return NULL;
	q = s;
	for (i = 0; i < len; i++) {
		if (i > 0 && sep != '\0')
			*q++ = sep;
		*q++ = digits[p[i] >> 4];
		*q++ = digits[p[i] & 0xf];
	}
	*q = '\0';
	return s;
}

/* Adds a row key. */
int
lab_mib_keys_add(struct mib_keys *k, const unsigned long *key, size_t len,
    struct lab_err *err)
{
	unsigned long	(*v)[MIB_KEY_MAX];
	size_t		  cap, i;

	/* Each column repeats the row keys: squeeze them out before growing. */
	if (k->n == k->cap)
		lab_mib_keys_sort(k);
	if (k->cap == 0 || k->n > k->cap / 2) {
		if (k->n >= LAB_MIB_MAX_ROWS)
			return lab_err_set(err, LAB_EXIT_INPUT,
			    "table has more than %d rows", LAB_MIB_MAX_ROWS);
		cap = k->cap ? k->cap * 2 : 64;
		if ((v = realloc(k->v, cap * sizeof(*v))) == NULL)
			return lab_err_oom(err);
		k->v = v;
		k->cap = cap;
	}
	for (i = 0; i < MIB_KEY_MAX; i++)
		k->v[k->n][i] = i < len ? key[i] : 0;
	k->n++;
	return 0;
}

static int
keycmp(const void *a, const void *b)
{
	const unsigned long	*x = a, *y = b;
	size_t			 i;

	for (i = 0; i < MIB_KEY_MAX; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* Sorts keys and drops duplicates. */
void
lab_mib_keys_sort(struct mib_keys *k)
{
	size_t	i, j;

	if (k->n == 0)
		return;
	qsort(k->v, k->n, sizeof(*k->v), keycmp);
	for (i = 1, j = 1; i < k->n; i++)
		if (keycmp(k->v[i], k->v[j - 1]) != 0)
			memcpy(k->v[j++], k->v[i], sizeof(*k->v));
	k->n = j;
}

/* Binary search for a key. */
long
lab_mib_keys_find(const struct mib_keys *k, const unsigned long *key,
    size_t len)
{
	unsigned long	 want[MIB_KEY_MAX];
	size_t		 lo, hi, mid, i;
	int		 c;

	for (i = 0; i < MIB_KEY_MAX; i++)
		want[i] = i < len ? key[i] : 0;
	lo = 0;
	hi = k->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = keycmp(k->v[mid], want)) == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Frees keys. */
void
lab_mib_keys_release(struct mib_keys *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* Adds to an ifindex set. */
int
lab_mib_ifset_add(struct lab_snmp_ifset *s, unsigned long v,
    struct lab_err *err)
{
	unsigned long	*p;
	size_t		 cap;

	/* Power-of-two growth: n is a power of two exactly when full. */
	if (s->n == 0 || (s->n >= 8 && (s->n & (s->n - 1)) == 0)) {
		if (s->n >= LAB_MIB_MAX_ROWS)
			return lab_err_set(err, LAB_EXIT_INPUT,
			    "port list has more than %d ports",
			    LAB_MIB_MAX_ROWS);
		cap = s->n == 0 ? 8 : s->n * 2;
		if ((p = realloc(s->v, cap * sizeof(*p))) == NULL)
			return lab_err_oom(err);
		s->v = p;
	}
	s->v[s->n++] = v;
	return 0;
}

static int
ulcmp(const void *a, const void *b)
{
	unsigned long	x = *(const unsigned long *)a;
	unsigned long	y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Sorts a set and drops duplicates. */
void
lab_mib_ifset_sort(struct lab_snmp_ifset *s)
{
	size_t	i, j;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof(*s->v), ulcmp);
	for (i = 1, j = 1; i < s->n; i++)
		if (s->v[i] != s->v[j - 1])
			s->v[j++] = s->v[i];
	s->n = j;
}

/* Bounded calloc. */
void *
lab_mib_calloc(size_t n, size_t sz, struct lab_err *err)
{
	void	*p;

	if (n > LAB_MIB_MAX_ROWS) {
		lab_err_set(err, LAB_EXIT_INPUT,
		    "table has more than %d rows", LAB_MIB_MAX_ROWS);
		return NULL;
	}
	if ((p = calloc(n ? n : 1, sz)) == NULL)
		lab_err_oom(err);
	return p;
}

/* Appends add's neighbours to out. */
int
lab_mib_neighbors_append(struct lab_snmp_neighbors *out,
    struct lab_snmp_neighbors *add, struct lab_err *err)
{
	struct lab_snmp_neighbor	*v;

	if (add->n == 0) {
		lab_snmp_neighbors_release(add);
		return 0;
	}
	if (out->n > LAB_MIB_MAX_ROWS || add->n > LAB_MIB_MAX_ROWS - out->n) {
		lab_snmp_neighbors_release(add);
		return lab_err_set(err, LAB_EXIT_INPUT,
		    "more than %d neighbours", LAB_MIB_MAX_ROWS);
	}
	if ((v = realloc(out->v, (out->n + add->n) * sizeof(*v))) == NULL) {
		lab_snmp_neighbors_release(add);
		return lab_err_oom(err);
	}
	memcpy(v + out->n, add->v, add->n * sizeof(*v));
	out->v = v;
	out->n += add->n;
	free(add->v);
	memset(add, 0, sizeof(*add));
	return 0;
}

/* Replaces NULL strings by "". */
int
lab_mib_neighbor_finish(struct lab_snmp_neighbor *nb)
{
	char	**s[] = { &nb->remote_device, &nb->remote_port,
		    &nb->platform, &nb->version, &nb->address };
	size_t	  i;

	for (i = 0; i < MIB_LEN(s); i++)
		if (*s[i] == NULL && (*s[i] = strdup("")) == NULL)
			return -1;
	return 0;
}
