/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_TEXT_H
#define LAB_TEXT_H

#include <stddef.h>

#include "lab/str.h"

/*
 * Text that lab did not write itself (a peer's answer, the database, the
 * command line) on its way to a screen, a file or the audit log.
 */

/*
 * A copy of s with the password of every URL in it hidden:
 * "scheme://user:pass@host/..." becomes "scheme://user:***@host/...".
 * A user alone stays; a password (even an empty one) is always "***".
 * When the '@' is not in the authority (a '/' in the password), the text
 * up to the first '@' after "user:" is hidden: it hides more, never less.
 * NULL for NULL or when out of memory.
 */
char	*lab_url_redact(const char *s);

/*
 * Appends s so that a terminal shows every byte of it and obeys none:
 * C0 controls (tab and newline too), DEL, C1 controls (U+0080-U+009F)
 * and bytes that are not valid UTF-8 become "\xNN" (one a byte); a
 * backslash becomes "\\", so the output reads back unambiguously.
 * Valid UTF-8 text otherwise passes as it is.
 */
void	lab_buf_add_visible(struct lab_buf *, const char *s);
/*
 * The same for lines of text (a plan, a report, a command's output):
 * newlines and tabs stay as they are, and so do backslashes (a plan's
 * scripts are full of them and must read as they run): there "\x1b" may
 * also be text that was typed, never an escape sent.
 */
void	lab_buf_add_visible_lines(struct lab_buf *, const char *s);
/* Whether lab_buf_add_visible would change s. */
int	lab_visible_needed(const char *s);
/* lab_buf_add_visible into a new string; NULL for NULL or out of memory. */
char	*lab_visible(const char *s);

/*
 * The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the
 * bytes there are none (overlong, surrogate, beyond U+10FFFF, truncated,
 * a stray continuation byte). s is NUL-terminated.
 */
size_t	lab_utf8_len(const char *s);
/* The columns UTF-8 text takes on a terminal: one a character. */
size_t	lab_text_width(const char *s);
/* Appends s with every invalid sequence replaced by U+FFFD. */
void	lab_buf_add_utf8(struct lab_buf *, const char *s);
/* The longest prefix of s of at most max bytes that ends on a character
   boundary. */
size_t	lab_utf8_cut(const char *s, size_t max);
/* Cuts an incomplete sequence off the end of s, in place (after a
   snprintf that may have stopped mid-character). */
void	lab_utf8_trim(char *s);

/*
 * The first control character (C0, tab and newline included, DEL, or C1
 * written as UTF-8) in the len bytes at s: its code point, its offset in
 * *off; -1 when there is none.
 */
long	lab_ctrl_find(const char *s, size_t len, size_t *off);

#endif
