/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The declared model of a switch against the one its sysDescr names. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lab/model.h"
#include "lab/switch.h"

/* The most of sysDescr a message quotes. */
#define QUOTE_MAX	120

static int
word_char(char c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* Whether word is in s as a whole word ("SG200-26" is not in "SG200-26P"). */
static int
has_word(const char *s, const char *word)
{
	size_t		 n = strlen(word);
	const char	*p;

	for (p = s; *p != '\0'; p++)
		if ((p == s || !word_char(p[-1])) &&
		    strncasecmp(p, word, n) == 0 && !word_char(p[n]))
			return 1;
	return 0;
}

/*
 * The model-mismatch finding of a discovered switch, or 0 with *subject
 * and *message NULL when it agrees or nothing can tell: a catalogue
 * switch model (not generic-switch) whose last word of name ("SG200-26")
 * is not a word of sysDescr. -1: out of memory.
 */
int
lab_switch_model_check(const struct lab_switch *sw,
    const struct lab_switch_view *v, char **subject, char **message)
{
	const struct lab_model	*m;
	const char		*word, *d = v->sys.descr;
	size_t			 n;

	*subject = *message = NULL;
	if (sw == NULL || sw->model == NULL ||
	    (m = lab_model_find(sw->model)) == NULL ||
	    m->kind != LAB_MODEL_SWITCH || m->switch_ports == 0 ||
	    d == NULL || *d == '\0')
		return 0;
	word = strrchr(m->name, ' ');
	word = word != NULL ? word + 1 : m->name;
	if (has_word(d, word))
		return 0;
	/* the first line, cut on a character boundary */
	n = strcspn(d, "\r\n");
	if (n > QUOTE_MAX) {
		n = QUOTE_MAX;
		while (n > 0 && ((unsigned char)d[n] & 0xc0) == 0x80)
			n--;
	}
	*subject = lab_asprintf("%s", v->name);
	*message = lab_asprintf("the inventory says model %s (%s) but the "
	    "switch reports '%.*s'%s%s%s: the report draws the ports the "
	    "switch reports; fix model: in the YAML", m->name, m->id, (int)n,
	    d, n < strlen(d) ? "..." : "", v->sys.object_id ?
	    ", sysObjectID " : "", v->sys.object_id ? v->sys.object_id : "");
	if (*subject == NULL || *message == NULL) {
		free(*subject);
		free(*message);
		*subject = *message = NULL;
		return -1;
	}
	return 1;
}
