/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/parse.h"
#include "report-html-priv.h"

#define SVG_OPEN	"<svg xmlns=\"http://www.w3.org/2000/svg\""

/*
 * Front panel geometry: jacks in two rows, blocks of GROUP_COLS columns
 * stacked when a group has more; a LAG badge under a jack.
 */
#define PW		44
#define PH		34
#define GAP		6
#define PAD		14
#define TOP		28
#define BADGE		12
#define ROW_H		(PH + BADGE + 2)
#define BLOCK_H		(2 * ROW_H + 8)
#define GROUP_COLS	24
#define BLOCK_JACKS	((size_t)2 * GROUP_COLS)
#define UPLINK_GAP	24
#define NAME_H		15
#define PANEL_MAX	1024

/* Storage diagram geometry. */
#define DW		156
#define DH		46
#define SG		8
#define VHEAD		18
#define PHEAD		22

#define C_UP		"#4caf50"
#define C_SLOW		"#ffb300"
#define C_DOWN		"#9e9e9e"
#define C_NODATA	"#e4e4e4"
#define C_HALF		"#d32f2f"
#define C_LAG		"#1565c0"

static int
is_up(const struct lab_report_port *p)
{
	return p->oper_status != NULL && strcmp(p->oper_status, "up") == 0;
}

static int
is_half(const struct lab_report_port *p)
{
	return p->duplex != NULL && strcasestr(p->duplex, "half") != NULL;
}

static const char *
port_fill(const struct lab_report_port *p)
{
	if (p == NULL)
		return C_NODATA;
	if (!is_up(p))
		return C_DOWN;
	if (p->speed_suspect || (p->speed_mbps > 0 && p->speed_mbps < 1000))
		return C_SLOW;
	return C_UP;
}

/* The number at the end of a port name ("gi1/0/22" is 22), or -1. */
static long
port_number(const char *name)
{
	const char	*e, *b;

	if (name == NULL)
		return -1;
	e = name + strlen(name);
	b = e;
	while (b > name && isdigit((unsigned char)b[-1]))
		b--;
	if (b == e || e - b > 6)
		return -1;
	return strtol(b, NULL, 10);
}

/* Port-channels, VLAN interfaces and the like have no jack on the front. */
static int
is_logical(const char *name)
{
	static const char *const pfx[] = { "port-channel", "port channel",
	    "vlan", "lag", "loopback", "tunnel", "null", "bond", "cpu" };
	size_t	i;

	if (name == NULL)
		return 1;
	for (i = 0; i < LAB_ARRAY_SIZE(pfx); i++)
		if (strncasecmp(name, pfx[i], strlen(pfx[i])) == 0)
			return 1;
	if ((strncasecmp(name, "po", 2) == 0 ||
	    strncasecmp(name, "ch", 2) == 0) && isdigit((unsigned char)name[2]))
		return 1;
	return 0;
}

static void
speed_text(struct lab_buf *b, long long mbps)
{
	if (mbps >= 1000 && mbps % 1000 == 0)
		lab_buf_addf(b, "%lld Gb/s", mbps / 1000);
	else
		lab_buf_addf(b, "%lld Mb/s", mbps);
}

/* The tooltip of a port: everything the table says about it. */
static void
port_title(struct lab_buf *b, long num, const struct lab_report_port *p)
{
	lab_buf_adds(b, "<title>");
	if (p == NULL) {
		lab_buf_addf(b, "port %ld: no data</title>", num);
		return;
	}
	lab_report_esc(b, p->name);
	lab_buf_adds(b, ": ");
	lab_report_esc(b, p->oper_status != NULL ? p->oper_status :
	    "status unknown");
	if (is_up(p) && p->speed_mbps > 0) {
		lab_buf_adds(b, ", ");
		speed_text(b, p->speed_mbps);
		if (p->speed_suspect)
			lab_buf_adds(b, " (suspect)");
	}
	if (p->duplex != NULL) {
		lab_buf_adds(b, ", ");
		lab_report_esc(b, p->duplex);
		lab_buf_adds(b, " duplex");
	}
	if (p->vlan != NULL) {
		lab_buf_adds(b, ", VLAN ");
		lab_report_esc(b, p->vlan);
	}
	if (p->lag != NULL) {
		lab_buf_adds(b, ", in ");
		lab_report_esc(b, p->lag);
	}
	if (p->host != NULL) {
		lab_buf_adds(b, "\nhost ");
		lab_report_esc(b, p->host);
		if (p->nic != NULL) {
			lab_buf_addc(b, ' ');
			lab_report_esc(b, p->nic);
		}
	}
	if (p->neighbor != NULL) {
		lab_buf_adds(b, "\nneighbour ");
		lab_report_esc(b, p->neighbor);
	}
	if (p->alias != NULL && *p->alias != '\0') {
		lab_buf_adds(b, "\nalias ");
		lab_report_esc(b, p->alias);
	}
	lab_buf_adds(b, "</title>");
}

/* One port: a coloured jack with its number, its VLAN and its LAG badge. */
static void
port_draw(struct lab_buf *b, int x, int y, long num,
    const struct lab_report_port *p)
{
	lab_buf_addf(b, "<g>");
	port_title(b, num, p);
	lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "rx=\"3\" fill=\"%s\"", x, y, PW, PH, port_fill(p));
	if (is_half(p))
		lab_buf_addf(b, " stroke=\"%s\" stroke-width=\"3\"", C_HALF);
	else
		lab_buf_adds(b, " stroke=\"#222\" stroke-width=\"1\"");
	lab_buf_adds(b, "/>");
	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"pn\">%ld</text>",
	    x + PW / 2, y + 12, num);
	if (p->vlan != NULL) {
		lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"pl\">v",
		    x + PW / 2, y + PH - 6);
		lab_report_esc(b, p->vlan);
		lab_buf_adds(b, "</text>");
	}
	if (p->lag != NULL) {
		lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\" rx=\"2\" class=\"lag\"/><text x=\"%d\" "
		    "y=\"%d\" class=\"lb\">", x + 4, y + PH + 2, PW - 8,
		    BADGE - 3, x + PW / 2, y + PH + BADGE - 4);
		lab_report_esc(b, p->lag);
		lab_buf_adds(b, "</text>");
	}
	lab_buf_adds(b, "</g>\n");
}

static void
legend_item(struct lab_buf *b, int x, int y, const char *fill,
    const char *stroke, const char *text)
{
	lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" "
	    "rx=\"2\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%d\"/>",
	    x, y, fill, stroke, strcmp(stroke, C_HALF) == 0 ? 3 : 1);
	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"lg\">%s</text>\n",
	    x + 20, y + 10, text);
}

static void
legend(struct lab_buf *b, int y)
{
	legend_item(b, PAD, y, C_UP, "#222", "up, 1 Gb/s or more");
	legend_item(b, PAD + 150, y, C_SLOW, "#222",
	    "up, 100 or 10 Mb/s, or suspect speed");
	legend_item(b, PAD + 410, y, C_DOWN, "#222", "down");
	legend_item(b, PAD + 480, y, "#ffffff", C_HALF, "half duplex");
	legend_item(b, PAD + 580, y, C_LAG, C_LAG, "in a LAG (its name)");
	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"lg\">vN: its "
	    "VLAN (PVID)</text>\n", PAD + 730, y + 10);
}

static void
svg_begin(struct lab_buf *b, int w, int h, const char *cls,
    const char *label, const char *name)
{
	lab_buf_addf(b, "\n" SVG_OPEN " class=\"%s\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-label=\"%s ", cls, w, h, w, h, label);
	lab_report_esc(b, name);
	lab_buf_adds(b, "\">\n<style>"
	    ".pn{font:bold 10px sans-serif;text-anchor:middle;fill:#111}"
	    ".pl{font:9px sans-serif;text-anchor:middle;fill:#111}"
	    ".lg{font:11px sans-serif;fill:#222}"
	    ".dt{font:bold 11px sans-serif;fill:#111}"
	    ".ds{font:11px sans-serif;fill:#333}"
	    ".gt{font:bold 12px sans-serif;fill:#1a237e}"
	    ".vt{font:11px sans-serif;fill:#333}"
	    ".nt{font:12px sans-serif;fill:#eee}");
	if (strcmp(cls, "panel") == 0)
		lab_buf_adds(b, ".lb{font:bold 8px sans-serif;"
		    "text-anchor:middle;fill:#fff}.lag{fill:" C_LAG "}"
		    ".tt{font:bold 12px sans-serif;fill:#222}");
	lab_buf_adds(b, "</style>\n");
}

/*
 * A port with a jack on the front: an ethernet interface by ifType
 * (ethernetCsmacd, fastEther, fastEtherFX, gigabitEthernet), or by its
 * name when the type is unknown; a slot with nothing in it (notPresent:
 * an absent stack member, an empty cage) has none.
 */
static int
is_jack(const struct lab_report_port *p)
{
	if (!lab_report_port_present(p))
		return 0;
	if (p->type != 0)
		return p->type == 6 || p->type == 62 || p->type == 69 ||
		    p->type == 117;
	return !is_logical(p->name);
}

static int
name_is(const char *name, const char *pfx)
{
	size_t	n = strlen(pfx);

	return strncasecmp(name, pfx, n) == 0 &&
	    (isdigit((unsigned char)name[n]) || strlen(pfx) > 2);
}

/* A 10 Gb/s-or-faster uplink, drawn apart: by its name, else its speed. */
static int
is_fast(const struct lab_report_port *p)
{
	static const char *const fast[] = { "te", "xe", "tw", "fo", "hu",
	    "tengig", "twentyfive", "fortygig", "hundredgig" };
	static const char *const slow[] = { "gi", "ge", "fa", "fe", "et",
	    "gigabit", "fastethernet", "ethernet" };
	size_t	i;

	if (p->name == NULL)
		return p->speed_mbps >= 10000;
	for (i = 0; i < LAB_ARRAY_SIZE(fast); i++)
		if (name_is(p->name, fast[i]))
			return 1;
	for (i = 0; i < LAB_ARRAY_SIZE(slow); i++)
		if (name_is(p->name, slow[i]))
			return 0;
	return p->speed_mbps >= 10000;
}

/* Columns of a group of n jacks (two rows, blocks of GROUP_COLS). */
static int
group_cols(size_t n)
{
	size_t	c = (n + 1) / 2;

	return (int)(c > GROUP_COLS ? GROUP_COLS : c);
}

static int
group_blocks(size_t n)
{
	return n == 0 ? 0 : (int)((n + BLOCK_JACKS - 1) / BLOCK_JACKS);
}

/* Draws one group's jacks from x0: odd places on top, even below. */
static void
group_draw(struct lab_buf *b, const struct lab_report_switch *sw,
    const size_t *idx, size_t n, int x0, int y0)
{
	size_t	k, col;
	long	num;
	int	x, y;

	for (k = 0; k < n; k++) {
		const struct lab_report_port	*p = &sw->ports[idx[k]];

		col = (k / 2) % GROUP_COLS;
		x = x0 + (int)col * (PW + GAP);
		y = y0 + (int)(k / BLOCK_JACKS) * BLOCK_H +
		    (int)(k % 2) * ROW_H;
		num = port_number(p->name);
		if (num < 0)
			num = (long)p->ifindex;
		port_draw(b, x, y, num, p);
	}
}

/* A port the table under the panel names: what is on it, in full. */
static int
is_named(const struct lab_report_port *p)
{
	return p->host != NULL || p->neighbor != NULL || p->lag != NULL;
}

/* The table under the panel: port, host and NIC, neighbour, LAG. */
static void
names_table(struct lab_buf *b, const struct lab_report_switch *sw,
    const size_t *idx, size_t n, int y)
{
	size_t	k;

	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"tt\">port"
	    "<tspan x=\"%d\">host and NIC, or neighbour</tspan>"
	    "<tspan x=\"%d\">LAG</tspan></text>\n", PAD, y, PAD + 110,
	    PAD + 640);
	for (k = 0; k < n; k++) {
		const struct lab_report_port	*p = &sw->ports[idx[k]];

		if (!is_named(p))
			continue;
		y += NAME_H;
		lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"lg\">", PAD,
		    y);
		lab_report_esc(b, p->name);
		lab_buf_addf(b, "<tspan x=\"%d\">", PAD + 110);
		if (p->host != NULL) {
			lab_report_esc(b, p->host);
			if (p->nic != NULL) {
				lab_buf_addc(b, ' ');
				lab_report_esc(b, p->nic);
			}
			if (p->neighbor != NULL)
				lab_buf_adds(b, "; ");
		}
		lab_report_esc(b, p->neighbor);
		lab_buf_addf(b, "</tspan><tspan x=\"%d\">", PAD + 640);
		lab_report_esc(b, p->lag);
		lab_buf_adds(b, "</tspan></text>\n");
	}
}

/*
 * Draws a switch's front panel (see report-html-priv.h) from the ports
 * the switch reported: its ethernet jacks in ifindex order, 1 Gb/s and
 * slower ones first, the 10 Gb/s uplinks apart on the right. The
 * declared model names the picture, nothing more.
 */
void
lab_report_svg_panel(const struct lab_report_switch *sw, struct lab_buf *b)
{
	size_t	*idx, nc = 0, nf = 0, nn = 0, absent = 0, i, k;
	int	 cw, fw, w, h, body, blocks, y;

	if ((idx = calloc(sw->nports + 1, sizeof(*idx))) == NULL) {
		b->oom = 1;
		return;
	}
	/* copper first, then the fast ones: one array, two runs */
	for (k = 0; k < 2; k++)
		for (i = 0; i < sw->nports && nc + nf < PANEL_MAX; i++) {
			const struct lab_report_port	*p = &sw->ports[i];

			if (k == 0 && !lab_report_port_present(p))
				absent++;
			if (!is_jack(p) || is_fast(p) != (int)k)
				continue;
			idx[nc + nf] = i;
			if (k == 0)
				nc++;
			else
				nf++;
			nn += is_named(p);
		}
	cw = group_cols(nc) * (PW + GAP);
	fw = group_cols(nf) * (PW + GAP);
	w = PAD + cw + (nc > 0 && nf > 0 ? UPLINK_GAP : 0) + fw + PAD;
	if (w < 860)
		w = 860;
	blocks = group_blocks(nc) > group_blocks(nf) ? group_blocks(nc) :
	    group_blocks(nf);
	if (blocks == 0)
		blocks = 1;
	body = TOP + blocks * BLOCK_H + PAD;
	h = body + 30 + (nn > 0 ? (int)(nn + 1) * NAME_H + 8 : 0);
	svg_begin(b, w, h, "panel", sw->model_ports > 0 ? "front panel of" :
	    "ports of", sw->name);
	lab_buf_addf(b, "<rect x=\"1\" y=\"1\" width=\"%d\" height=\"%d\" "
	    "rx=\"6\" fill=\"#37474f\"/>\n", w - 2, body - 2);
	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"nt\">", PAD, PAD + 4);
	lab_report_esc(b, sw->name);
	if (sw->model_name != NULL || sw->model != NULL) {
		lab_buf_adds(b, " \xc2\xb7 declared ");
		lab_report_esc(b, sw->model_name != NULL ? sw->model_name :
		    sw->model);
	}
	if (nc + nf > 0)
		lab_buf_addf(b, " \xc2\xb7 %zu ports discovered (%zu at "
		    "10 Gb/s or more)", nc + nf, nf);
	if (absent > 0)
		lab_buf_addf(b, ", %zu not present not drawn", absent);
	lab_buf_adds(b, "</text>\n");
	if (nc + nf == 0)
		lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"nt\">"
		    "no ports known: no switch discovered yet</text>\n",
		    PAD, TOP + PH / 2 + 4);
	group_draw(b, sw, idx, nc, PAD, TOP);
	group_draw(b, sw, idx + nc, nf, PAD + cw + (nc > 0 ? UPLINK_GAP : 0),
	    TOP);
	y = body + 6;
	legend(b, y);
	if (nn > 0)
		names_table(b, sw, idx, nc + nf, y + 12 + NAME_H);
	lab_buf_adds(b, "</svg>\n");
	free(idx);
}

/*
 * A disk's membership: "tank/mirror-0" is vdev mirror-0 of pool tank,
 * "md0" or "tank" a group with no level below. NULL: unassigned.
 */
struct seg {
	const char	*p;
	size_t		 n;
};

static void
split(const struct lab_report_disk *d, struct seg *pool, struct seg *vdev)
{
	const char	*m = d->member_of, *s;

	pool->p = vdev->p = NULL;
	pool->n = vdev->n = 0;
	if (m == NULL || *m == '\0')
		return;
	s = strchr(m, '/');
	pool->p = m;
	pool->n = s != NULL ? (size_t)(s - m) : strlen(m);
	if (s != NULL) {
		vdev->p = s + 1;
		vdev->n = strlen(s + 1);
	}
}

static int
seg_eq(const struct seg *a, const struct seg *b)
{
	if (a->p == NULL || b->p == NULL)
		return a->p == b->p;
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

static void
esc_seg(struct lab_buf *b, const struct seg *s)
{
	char	*t;

	if (s->p == NULL)
		return;
	t = strndup(s->p, s->n);
	if (t == NULL) {
		b->oom = 1;
		return;
	}
	lab_report_esc(b, t);
	free(t);
}

static int
same_pool(const struct lab_report_host *h, size_t i, size_t j)
{
	struct seg	pi, vi, pj, vj;

	split(&h->disks[i], &pi, &vi);
	split(&h->disks[j], &pj, &vj);
	return seg_eq(&pi, &pj);
}

static int
same_vdev(const struct lab_report_host *h, size_t i, size_t j)
{
	struct seg	pi, vi, pj, vj;

	split(&h->disks[i], &pi, &vi);
	split(&h->disks[j], &pj, &vj);
	return seg_eq(&pi, &pj) && seg_eq(&vi, &vj);
}

/* Whether disk i is the first of its pool (first) or of its vdev. */
static int
first_of(const struct lab_report_host *h, size_t i,
    int (*same)(const struct lab_report_host *, size_t, size_t))
{
	size_t	j;

	for (j = 0; j < i; j++)
		if (same(h, i, j))
			return 0;
	return 1;
}

static void
size_text(struct lab_buf *b, uint64_t v)
{
	char	s[32];

	lab_format_size_human(v, s, sizeof(s));
	lab_buf_adds(b, s);
}

static void
disk_draw(struct lab_buf *b, int x, int y, const struct lab_report_disk *d)
{
	lab_buf_adds(b, "<g><title>");
	lab_report_esc(b, d->slot != NULL ? d->slot : "unknown slot");
	lab_buf_adds(b, ", ");
	lab_report_esc(b, d->kind != NULL ? d->kind : "disk");
	lab_buf_adds(b, ", ");
	if (d->size_bytes > 0)
		size_text(b, d->size_bytes);
	else
		lab_buf_adds(b, "size unknown");
	if (d->controller != NULL) {
		lab_buf_adds(b, ", on ");
		lab_report_esc(b, d->controller);
	}
	lab_buf_adds(b, "</title>");
	lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "rx=\"4\" fill=\"%s\" stroke=\"#546e7a\"/>", x, y, DW, DH,
	    d->kind != NULL && strcasestr(d->kind, "ssd") != NULL ?
	    "#e1f5fe" : "#fff8e1");
	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"dt\">", x + 8, y + 18);
	lab_report_esc_short(b, d->slot != NULL ? d->slot : "unknown slot",
	    22);
	lab_buf_addf(b, "</text><text x=\"%d\" y=\"%d\" class=\"ds\">",
	    x + 8, y + 36);
	lab_report_esc_short(b, d->kind != NULL ? d->kind : "disk", 10);
	lab_buf_adds(b, " \xc2\xb7 ");
	if (d->size_bytes > 0)
		size_text(b, d->size_bytes);
	else
		lab_buf_adds(b, "size unknown");
	lab_buf_adds(b, "</text></g>\n");
}

/* Whether the pool of disk p has a level below it (vdevs, arrays). */
static int
has_vdevs(const struct lab_report_host *h, size_t p)
{
	struct seg	pool, vdev;
	size_t		i;

	for (i = p; i < h->ndisks; i++) {
		split(&h->disks[i], &pool, &vdev);
		if (same_pool(h, i, p) && vdev.p != NULL)
			return 1;
	}
	return 0;
}

static int
pool_height(const struct lab_report_host *h, size_t p)
{
	return PHEAD + (has_vdevs(h, p) ? VHEAD : 0) + DH + 2 * SG;
}

/* Draws the vdevs of the pool of disk p at (x, y); returns the width. */
static int
pool_draw(struct lab_buf *b, const struct lab_report_host *h, size_t p,
    int x, int y, int draw)
{
	struct seg	pool, vdev;
	size_t		i, j, n;
	uint64_t	sum;
	int		vx = x + SG, w, k, dy = has_vdevs(h, p) ? VHEAD : 0;

	for (i = 0; i < h->ndisks; i++) {
		if (!same_pool(h, i, p) || !first_of(h, i, same_vdev))
			continue;
		split(&h->disks[i], &pool, &vdev);
		n = 0;
		sum = 0;
		for (j = i; j < h->ndisks; j++)
			if (same_vdev(h, i, j)) {
				n++;
				sum += h->disks[j].size_bytes;
			}
		w = (int)n * (DW + SG) + SG;
		if (draw && vdev.p != NULL) {
			lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			    "height=\"%d\" rx=\"4\" fill=\"#eceff1\" "
			    "stroke=\"#90a4ae\"/>", vx, y, w,
			    VHEAD + DH + SG);
			lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"vt\">",
			    vx + SG, y + 13);
			esc_seg(b, &vdev);
			lab_buf_adds(b, " \xc2\xb7 ");
			size_text(b, sum);
			lab_buf_adds(b, " raw</text>\n");
		}
		k = 0;
		for (j = i; j < h->ndisks && draw; j++)
			if (same_vdev(h, i, j))
				disk_draw(b, vx + SG + k++ * (DW + SG),
				    y + dy, &h->disks[j]);
		vx += w + SG;
	}
	return vx - x;
}

/* Draws a host's storage (see report-html-priv.h). */
void
lab_report_svg_storage(const struct lab_report_host *h, struct lab_buf *b)
{
	struct seg	pool, vdev;
	size_t		i, j, n;
	uint64_t	sum;
	int		w = 0, pw, y, ph, ht = SG;

	if (h->ndisks == 0)
		return;
	for (i = 0; i < h->ndisks; i++) {
		if (!first_of(h, i, same_pool))
			continue;
		ht += pool_height(h, i) + SG;
		pw = pool_draw(b, h, i, 0, 0, 0);
		if (pw > w)
			w = pw;
	}
	w += 2 * SG;
	if (w < 360)
		w = 360;
	svg_begin(b, w, ht, "storage",
	    "storage of", h->name);
	y = SG;
	for (i = 0; i < h->ndisks; i++) {
		if (!first_of(h, i, same_pool))
			continue;
		split(&h->disks[i], &pool, &vdev);
		ph = pool_height(h, i);
		n = 0;
		sum = 0;
		for (j = i; j < h->ndisks; j++)
			if (same_pool(h, i, j)) {
				n++;
				sum += h->disks[j].size_bytes;
			}
		lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\" rx=\"6\" fill=\"%s\" stroke=\"%s\"%s/>\n",
		    SG, y, w - 2 * SG, ph,
		    pool.p != NULL ? "#f5f7ff" : "#fafafa",
		    pool.p != NULL ? "#3f51b5" : "#9e9e9e",
		    pool.p != NULL ? "" : " stroke-dasharray=\"5 3\"");
		lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"gt\">",
		    2 * SG, y + 16);
		if (pool.p != NULL)
			esc_seg(b, &pool);
		else
			lab_buf_adds(b, "unassigned (not provisioned by lab)");
		lab_buf_addf(b, " \xc2\xb7 %zu disk%s, ", n, n == 1 ? "" : "s");
		size_text(b, sum);
		lab_buf_adds(b, " raw</text>\n");
		pool_draw(b, h, i, SG, y + PHEAD, 1);
		y += ph + SG;
	}
	lab_buf_adds(b, "</svg>\n");
}
