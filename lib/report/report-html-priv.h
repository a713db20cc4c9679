/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_REPORT_HTML_PRIV_H
#define LAB_REPORT_HTML_PRIV_H

#include <stddef.h>
#include <string.h>

#include "lab/report.h"
#include "lab/str.h"

/*
 * What html.c and svg.c share. The escapers (escape.c) write text valid
 * in both HTML and XML: &, <, >, " and ' become entities, control
 * characters and bytes that are not UTF-8 become U+FFFD. NULL writes
 * nothing.
 */
void	lab_report_esc(struct lab_buf *, const char *);
/* As lab_report_esc, keeping at most max characters (an ellipsis ends a
 * shortened string). */
void	lab_report_esc_short(struct lab_buf *, const char *, size_t max);

/* Whether a port is there: not an empty slot (notPresent: an absent
 * stack member, an empty cage), what the panel and the port table share. */
static inline int
lab_report_port_present(const struct lab_report_port *p)
{
	return p->oper_status == NULL ||
	    strcmp(p->oper_status, "notPresent") != 0;
}

/* An inline <svg> (its own lines) of a switch's front panel. */
void	lab_report_svg_panel(const struct lab_report_switch *,
	    struct lab_buf *);
/* An inline <svg> of a host's disks, grouped into vdevs or arrays, then
 * pools or volume groups. Nothing when the host has no disks. */
void	lab_report_svg_storage(const struct lab_report_host *,
	    struct lab_buf *);

/* The pool settings tables, a section (pool.c); nothing without one. */
void	lab_report_html_pools(const struct lab_report *, struct lab_buf *);

/* The HTML of a "next" link to name (percent-encoded), or "none yet"
 * (pages.c). */
void	lab_report_next_link(struct lab_buf *, const char *name);
/* The page links of r in its header (nothing unless r->paged). */
void	lab_report_html_pages(const struct lab_report *, struct lab_buf *);

#endif
