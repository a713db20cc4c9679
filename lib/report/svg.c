/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/parse.h"
#include "report-html-priv.h"

#define SVG_OPEN	"<svg xmlns=\"http://www.w3.org/2000/svg\""

/* Front panel geometry: physical layouts, then generic rows of 24. */
#define PW		56
#define PH		38
#define GW		40
#define GH		34
#define GAP		6
#define PAD		14
#define GENERIC_MAX	48
#define GENERIC_ROW	24
#define PHYS_MAX	26

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

/* One port: a coloured jack with its number and a short host label. */
static void
port_draw(struct lab_buf *b, int x, int y, int w, int h, long num,
    const struct lab_report_port *p, size_t label)
{
	const char	*label_text = NULL;

	if (p != NULL)
		label_text = p->host != NULL ? p->host : p->neighbor;
	lab_buf_addf(b, "<g>");
	port_title(b, num, p);
	lab_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "rx=\"3\" fill=\"%s\"", x, y, w, h, port_fill(p));
	if (p != NULL && is_half(p))
		lab_buf_addf(b, " stroke=\"%s\" stroke-width=\"3\"", C_HALF);
	else if (p == NULL)
		lab_buf_adds(b, " stroke=\"#888\" stroke-dasharray=\"3 2\"");
	else
		lab_buf_adds(b, " stroke=\"#222\" stroke-width=\"1\"");
	lab_buf_adds(b, "/>");
	lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"pn\">%ld</text>",
	    x + w / 2, y + 12, num);
	if (label_text != NULL) {
		lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"pl\">",
		    x + w / 2, y + h - 6);
		lab_report_esc_short(b, label_text, label);
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
	legend_item(b, PAD + 410, y, C_DOWN, "#222", "down or not present");
	legend_item(b, PAD + 570, y, "#ffffff", C_HALF, "half duplex");
	legend_item(b, PAD + 670, y, C_NODATA, "#888", "no data");
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
	    ".nt{font:12px sans-serif;fill:#eee}"
	    "</style>\n");
}

/* The SG200 way: odd ports on top, even below, combo uplinks apart. */
static void
panel_physical(const struct lab_report_switch *sw, struct lab_buf *b)
{
	const struct lab_report_port	*slot[PHYS_MAX + 1] = { 0 };
	int				 n = sw->model_ports, copper, up;
	int				 cols;
	int				 ucols, w, h, x, y, k;
	size_t				 i;
	long				 num;

	for (i = 0; i < sw->nports; i++) {
		if (is_logical(sw->ports[i].name))
			continue;
		num = port_number(sw->ports[i].name);
		/* the first (lowest ifindex) wins a clash */
		if (num >= 1 && num <= n && slot[num] == NULL)
			slot[num] = &sw->ports[i];
	}
	up = n >= 10 && n % 8 == 2 ? 2 : 0;
	copper = n - up;
	cols = (copper + 1) / 2;
	ucols = (up + 1) / 2;
	w = PAD + cols * (PW + GAP) + (up > 0 ? 24 + ucols * (PW + GAP) : 0) +
	    PAD;
	if (w < 780)
		w = 780;
	h = PAD + 2 * (PH + GAP) + PAD + 30;
	svg_begin(b, w, h, "panel", "front panel of", sw->name);
	lab_buf_addf(b, "<rect x=\"1\" y=\"1\" width=\"%d\" height=\"%d\" "
	    "rx=\"6\" fill=\"#37474f\"/>\n", w - 2, PAD + 2 * (PH + GAP) +
	    PAD - 2 - GAP);
	for (k = 1; k <= copper; k++) {
		x = PAD + ((k - 1) / 2) * (PW + GAP);
		y = PAD + (k % 2 == 1 ? 0 : PH + GAP);
		port_draw(b, x, y, PW, PH, k, slot[k], 9);
	}
	for (k = copper + 1; k <= n; k++) {
		x = PAD + cols * (PW + GAP) + 24 +
		    ((k - copper - 1) / 2) * (PW + GAP);
		y = PAD + ((k - copper) % 2 == 1 ? 0 : PH + GAP);
		port_draw(b, x, y, PW, PH, k, slot[k], 9);
	}
	legend(b, h - 24);
	lab_buf_adds(b, "</svg>\n");
}

/* Any other switch: the first ports in ifindex order, rows of 24. */
static void
panel_generic(const struct lab_report_switch *sw, struct lab_buf *b)
{
	size_t	n = sw->nports < GENERIC_MAX ? sw->nports : GENERIC_MAX;
	size_t	rows = n == 0 ? 1 : (n + GENERIC_ROW - 1) / GENERIC_ROW;
	size_t	i;
	long	num;
	int	w, h, body;

	w = PAD + GENERIC_ROW * (GW + GAP) + PAD - GAP;
	body = PAD + (int)rows * (GH + GAP) - GAP + PAD;
	h = body + 30;
	svg_begin(b, w, h, "panel", "ports of", sw->name);
	lab_buf_addf(b, "<rect x=\"1\" y=\"1\" width=\"%d\" height=\"%d\" "
	    "rx=\"6\" fill=\"#37474f\"/>\n", w - 2, body - 2);
	if (n == 0)
		lab_buf_addf(b, "<text x=\"%d\" y=\"%d\" class=\"nt\">"
		    "no ports known: no switch discovered yet</text>\n",
		    PAD, PAD + GH / 2 + 4);
	for (i = 0; i < n; i++) {
		num = port_number(sw->ports[i].name);
		if (num < 0)
			num = (long)sw->ports[i].ifindex;
		port_draw(b, PAD + (int)(i % GENERIC_ROW) * (GW + GAP),
		    PAD + (int)(i / GENERIC_ROW) * (GH + GAP), GW, GH, num,
		    &sw->ports[i], 6);
	}
	legend(b, h - 24);
	lab_buf_adds(b, "</svg>\n");
}

/* Draws a switch's front panel (see report-html-priv.h). */
void
lab_report_svg_panel(const struct lab_report_switch *sw, struct lab_buf *b)
{
	if (sw->model_ports > 0 && sw->model_ports <= PHYS_MAX)
		panel_physical(sw, b);
	else
		panel_generic(sw, b);
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
