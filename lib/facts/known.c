/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Known issues of firmware: the version compare and the match.
 *
 * Versions compare part by part: a run of digits is a number (so 1.9 <
 * 1.10 and 1.1.2.0 < 1.1.10), a run of letters is text (case ignored;
 * text sorts before a number), and any other character (. - _ space)
 * only separates parts. A version that runs out is padded with zeros:
 * 1.1.2 = 1.1.2.0.
 *
 * A BMC's firmware (component: bmc) is what IPMI's Get Device ID says:
 * the major revision, a dot and the minor as its two BCD digits, so the
 * RAC's firmware "1.2" is reported as 1.20 and "1.3" as 1.30, and 1.20 <
 * 1.30 as numbers. Known issues of BMCs are written in that form
 * ("1.30"). A vendor's one-digit minor written in a known issue ("1.3")
 * is read as its first BCD digit, 1.30, when the component is a BMC:
 * both sides of a BMC compare go through bmc_form() below. Nothing else
 * is rewritten.
 *
 * The match: every key an issue gives must hold (model and product are
 * globs, fnmatch(3); product ignores case; bmc and component are words),
 * and the firmware must be below, equal to, or match the issue's one.
 * A component whose firmware is not known matches nothing.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "lab/facts.h"

static int
is_sep(int ch)
{
	return ch != '\0' && !isalnum((unsigned char)ch);
}

/* The rest of a version is zeros and separators only. */
static int
all_zero(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s != '0' && !is_sep(*s))
			return 0;
	return 1;
}

static int
cmp_number(const char **pa, const char **pb)
{
	const char	*a = *pa, *b = *pb;
	size_t		 la, lb;
	int		 c;

	while (*a == '0' && isdigit((unsigned char)a[1]))
		a++;
	while (*b == '0' && isdigit((unsigned char)b[1]))
		b++;
	for (la = 0; isdigit((unsigned char)a[la]); la++)
		;
	for (lb = 0; isdigit((unsigned char)b[lb]); lb++)
		;
	*pa = a + la;
	*pb = b + lb;
	if (la != lb)
		return la < lb ? -1 : 1;
	c = memcmp(a, b, la);
	return c < 0 ? -1 : c > 0;
}

static int
cmp_text(const char **pa, const char **pb)
{
	const char	*a = *pa, *b = *pb;
	int		 ca, cb;

	while (isalpha((unsigned char)*a) && isalpha((unsigned char)*b)) {
		ca = tolower((unsigned char)*a++);
		cb = tolower((unsigned char)*b++);
		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	*pa = a;
	*pb = b;
	if (isalpha((unsigned char)*a))
		return 1;	/* "rc" > "r" */
	if (isalpha((unsigned char)*b))
		return -1;
	return 0;
}

int
lab_version_cmp(const char *a, const char *b)
{
	int	c;

	if (a == NULL || b == NULL)
		return a == b ? 0 : a == NULL ? -1 : 1;
	for (;;) {
		while (is_sep(*a))
			a++;
		while (is_sep(*b))
			b++;
		if (*a == '\0' || *b == '\0') {
			if (*a == '\0' && *b == '\0')
				return 0;
			if (*a == '\0')
				return all_zero(b) ? 0 : -1;
			return all_zero(a) ? 0 : 1;
		}
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b))
			c = cmp_number(&a, &b);
		else if (isdigit((unsigned char)*a))
			return 1;
		else if (isdigit((unsigned char)*b))
			return -1;
		else
			c = cmp_text(&a, &b);
		if (c != 0)
			return c;
	}
}

/*
 * A BMC's version in IPMI's MAJOR.MM form: "1.3" -> "1.30"; anything
 * else (already two digits, more parts, text) as it is.
 */
static const char *
bmc_form(const char *v, char *buf, size_t len)
{
	const char	*dot = strchr(v, '.');
	size_t		 i;

	if (dot == NULL || dot == v || strlen(dot) != 2 ||
	    !isdigit((unsigned char)dot[1]))
		return v;
	for (i = 0; v + i < dot; i++)
		if (!isdigit((unsigned char)v[i]))
			return v;
	if ((size_t)snprintf(buf, len, "%s0", v) >= len)
		return v;
	return buf;
}

static int
glob(const char *pat, const char *s, int flags)
{
	return s != NULL && fnmatch(pat, s, flags) == 0;
}

int
lab_known_issue_match(const struct lab_known_issue *ki,
    const struct lab_component *c)
{
	const char	*fw, *want;
	char		 b1[64], b2[64];
	int		 bmc;

	if (ki == NULL || c == NULL || c->firmware == NULL)
		return 0;
	if (ki->component != NULL && (c->component == NULL ||
	    strcmp(ki->component, c->component) != 0))
		return 0;
	if (ki->model != NULL && !glob(ki->model, c->model, 0))
		return 0;
	if (ki->bmc != NULL && (c->bmc == NULL || strcmp(ki->bmc, c->bmc) != 0))
		return 0;
	if (ki->product != NULL && !glob(ki->product, c->product,
	    FNM_CASEFOLD))
		return 0;
	bmc = c->component != NULL && strcmp(c->component, "bmc") == 0;
	fw = bmc ? bmc_form(c->firmware, b1, sizeof(b1)) : c->firmware;
	if (ki->matching != NULL)
		return glob(ki->matching, c->firmware, 0);
	want = ki->below != NULL ? ki->below : ki->equal;
	if (want == NULL)
		return 0;
	if (bmc)
		want = bmc_form(want, b2, sizeof(b2));
	if (ki->below != NULL)
		return lab_version_cmp(fw, want) < 0;
	return lab_version_cmp(fw, want) == 0;
}

int
lab_known_issues_check(const struct lab_known_issues *kis,
    const struct lab_component *c, const char *subject,
    struct lab_fact_findings *out, struct lab_err *err)
{
	const struct lab_known_issue	*ki;
	const char			*comp;
	char				 why[160];
	size_t				 i;

	if (kis == NULL)
		return 0;
	for (i = 0; i < kis->n; i++) {
		ki = &kis->v[i];
		if (!lab_known_issue_match(ki, c))
			continue;
		comp = c->component != NULL ? c->component : "its";
		if (ki->below != NULL)
			snprintf(why, sizeof(why), "%s firmware %.40s is "
			    "below %.40s", comp, c->firmware, ki->below);
		else
			snprintf(why, sizeof(why), "%s firmware %.40s", comp,
			    c->firmware);
		if (lab_fact_findings_add(out, ki->severity != NULL ?
		    ki->severity : "warning", "known-issue",
		    subject, "%s: %s (source: %s)", why,
		    ki->message != NULL ? ki->message : "",
		    ki->source != NULL ? ki->source : "none") == -1)
			return lab_err_oom(err);
	}
	return 0;
}
