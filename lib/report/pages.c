/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/file.h"
#include "lab/report.h"
#include "lab/str.h"
#include "report-html-priv.h"

/*
 * The previous and next report pages of one written to a folder: the
 * neighbours by name among the regular files NAME.html there that carry
 * lab's marker, and the update of the previous page's "next" link in
 * place (only between lab's own comments, through a temp file and a
 * rename), so a nightly series links both ways.
 */

/* A page bigger than this is not one of lab's: left alone. */
#define PAGE_MAX	((size_t)64 << 20)

static int
is_html(const char *name)
{
	size_t	n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".html") == 0 && name[0] != '.';
}

/*
 * The file dir/name when it is a regular file (not a symlink) of at most
 * PAGE_MAX bytes that carries the marker: *ret (NUL-ended) and 1; 0 when
 * it is not one of lab's pages; -1 when out of memory.
 */
static int
read_page(int dfd, const char *name, char **ret, size_t *len)
{
	struct stat	 st;
	char		*buf;
	size_t		 got = 0;
	ssize_t		 r;
	int		 fd;

	*ret = NULL;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		return 0;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > PAGE_MAX) {
		close(fd);
		return 0;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	if (strstr(buf, LAB_REPORT_MARKER) == NULL) {
		free(buf);
		return 0;
	}
	*ret = buf;
	*len = got;
	return 1;
}

static int
is_page(int dfd, const char *name)
{
	char	*buf;
	size_t	 len;
	int	 rc = read_page(dfd, name, &buf, &len);

	free(buf);
	return rc;
}

/* The folder of path and its base name (caller-owned). */
static int
split(const char *path, char **dir, char **base)
{
	const char	*slash = strrchr(path, '/');

	*dir = slash == NULL ? lab_strdup(".") : slash == path ?
	    lab_strdup("/") : lab_asprintf("%.*s", (int)(slash - path), path);
	*base = lab_strdup(slash == NULL ? path : slash + 1);
	if (*dir == NULL || *base == NULL) {
		free(*dir);
		free(*base);
		return -1;
	}
	return 0;
}

/* A relative link to name, percent-encoded (so also HTML-safe). */
static void
page_link(struct lab_buf *b, const char *rel, const char *name,
    const char *label)
{
	const unsigned char	*s;

	lab_buf_addf(b, "<a rel=\"%s\" href=\"", rel);
	/* "./": a name with a colon is not a scheme */
	lab_buf_adds(b, "./");
	for (s = (const unsigned char *)name; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("._~-", *s) != NULL)
			lab_buf_addc(b, (char)*s);
		else
			lab_buf_addf(b, "%%%02X", *s);
	}
	lab_buf_addf(b, "\">%s</a>", label);
}

void
lab_report_next_link(struct lab_buf *b, const char *name)
{
	if (name != NULL)
		page_link(b, "next", name, "next report &rarr;");
	else
		lab_buf_adds(b, "<span>no next report yet</span>");
}

void
lab_report_html_pages(const struct lab_report *r, struct lab_buf *b)
{
	if (!r->paged)
		return;
	lab_buf_adds(b, "<p class=\"pages\">");
	if (r->page_prev != NULL)
		page_link(b, "prev", r->page_prev, "&larr; previous report");
	else
		lab_buf_adds(b, "<span>no previous report</span>");
	lab_buf_adds(b, " " LAB_REPORT_NEXT_OPEN);
	lab_report_next_link(b, r->page_next);
	lab_buf_adds(b, LAB_REPORT_NEXT_CLOSE "</p>");
}

int
lab_report_pages_find(const char *out, char **prev, char **next,
    struct lab_err *err)
{
	struct dirent	*de;
	struct stat	 st;
	char		*dir, *base;
	DIR		*d;
	int		 dfd, rc = 0, page;

	*prev = *next = NULL;
	/* a device, a FIFO, a terminal: no folder of pages */
	if (stat(out, &st) == 0 && !S_ISREG(st.st_mode))
		return 0;
	if (split(out, &dir, &base) == -1)
		return lab_err_oom(err);
	if (!is_html(base) || (d = opendir(dir)) == NULL) {
		free(dir);
		free(base);
		return 0;
	}
	dfd = dirfd(d);
	while ((de = readdir(d)) != NULL) {
		const char	*n = de->d_name;
		int		 c = strcmp(n, base);

		if (c == 0 || !is_html(n))
			continue;
		/* only a nearer neighbour is worth reading */
		if (c < 0 && *prev != NULL && strcmp(n, *prev) <= 0)
			continue;
		if (c > 0 && *next != NULL && strcmp(n, *next) >= 0)
			continue;
		if ((page = is_page(dfd, n)) == -1) {
			rc = lab_err_oom(err);
			break;
		}
		if (page == 0)
			continue;
		if (c < 0) {
			free(*prev);
			*prev = lab_strdup(n);
		} else {
			free(*next);
			*next = lab_strdup(n);
		}
		if ((c < 0 ? *prev : *next) == NULL) {
			rc = lab_err_oom(err);
			break;
		}
	}
	closedir(d);
	free(dir);
	free(base);
	if (rc == -1) {
		free(*prev);
		free(*next);
		*prev = *next = NULL;
	}
	return rc;
}

int
lab_report_pages_link_next(const char *out, const char *prev,
    struct lab_err *err)
{
	struct lab_buf	 b;
	const char	*a, *z;
	char		*dir, *base, *page, *path;
	size_t		 len;
	int		 dfd, rc = 0;

	if (split(out, &dir, &base) == -1)
		return lab_err_oom(err);
	path = lab_asprintf("%s/%s", dir, prev);
	if (path == NULL) {
		free(dir);
		free(base);
		return lab_err_oom(err);
	}
	page = NULL;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd != -1 && read_page(dfd, prev, &page, &len) == -1)
		rc = lab_err_oom(err);
	if (dfd != -1)
		close(dfd);
	/* not lab's (any more), or no place for the link: left as it is */
	if (page == NULL || (a = strstr(page, LAB_REPORT_NEXT_OPEN)) == NULL ||
	    (z = strstr(a, LAB_REPORT_NEXT_CLOSE)) == NULL)
		goto out;
	a += strlen(LAB_REPORT_NEXT_OPEN);
	lab_buf_init(&b);
	lab_buf_add(&b, page, (size_t)(a - page));
	lab_report_next_link(&b, base);
	lab_buf_adds(&b, z);
	if (b.oom)
		rc = lab_err_oom(err);
	else
		rc = lab_file_write_out(path, b.s, b.len, err);
	lab_buf_release(&b);
out:
	free(page);
	free(path);
	free(dir);
	free(base);
	return rc;
}
