/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Files a user names: read only when regular (a FIFO must not hang lab),
 * --out written through to a device and replaced atomically otherwise,
 * a log never followed through a symlink.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/file.h"
#include "lab/str.h"

const char *
lab_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symlink";
	return "not a file";
}

/* Makes fd blocking again; the open was non-blocking not to wait. */
static int
blocking(int fd)
{
	int	fl;

	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1)
		return -1;
	return 0;
}

int
lab_file_open_read(const char *path, enum lab_exit code, struct lab_err *err)
{
	struct stat	st;
	int		fd, e;

	/* a device is not even opened: some act on open */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		goto refuse;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || blocking(fd) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return fd;
	close(fd);
refuse:
	lab_err_set(err, code, "%s: not a regular file (%s)", path,
	    lab_file_kind(st.st_mode));
	return -2;
}

static int
write_all(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Replaces path (a regular file as st says, or none) through a rename. */
static int
replace(const char *path, const struct stat *st, const void *buf, size_t len,
    struct lab_err *err)
{
	char	*tmp;
	int	 fd, rc = -1;

	if ((tmp = lab_asprintf("%s.XXXXXX", path)) == NULL)
		return lab_err_oom(err);
	if ((fd = mkostemp(tmp, O_CLOEXEC)) == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "cannot create '%s': %s", tmp,
		    strerror(errno));
		free(tmp);
		return -1;
	}
	/* the owner first: chown(2) clears the set-id bits */
	if ((st != NULL && geteuid() == 0 &&
	    fchown(fd, st->st_uid, st->st_gid) == -1) ||
	    fchmod(fd, st != NULL ? st->st_mode & 07777 : 0644) == -1 ||
	    write_all(fd, buf, len) == -1 || fsync(fd) == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': %s", tmp,
		    strerror(errno));
		close(fd);
	} else if (close(fd) == -1 || rename(tmp, path) == -1)
		lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': %s", path,
		    strerror(errno));
	else
		rc = 0;
	if (rc == -1)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* Writes to a device, FIFO or terminal as it is: it is never replaced. */
static int
write_through(const char *path, const struct stat *st, const void *buf,
    size_t len, struct lab_err *err)
{
	struct stat	now;
	int		fd;

	if ((fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1) {
		if (errno == ENXIO && S_ISFIFO(st->st_mode))
			return lab_err_set(err, LAB_EXIT_ENV, "cannot write "
			    "'%s': a FIFO with no reader", path);
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s' (%s): "
		    "%s", path, lab_file_kind(st->st_mode), strerror(errno));
	}
	if (fstat(fd, &now) == -1 || blocking(fd) == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': %s", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISREG(now.st_mode)) {
		close(fd);
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': it "
		    "became a regular file while opened", path);
	}
	if (write_all(fd, buf, len) == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': %s", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd) == -1 && errno != EINTR)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': %s",
		    path, strerror(errno));
	return 0;
}

int
lab_file_write_out(const char *path, const void *buf, size_t len,
    struct lab_err *err)
{
	struct stat	 st;
	char		*real;
	int		 rc;

	if (stat(path, &st) == -1) {
		if (errno != ENOENT)
			return lab_err_set(err, LAB_EXIT_ENV, "cannot write "
			    "'%s': %s", path, strerror(errno));
		/* a rename would replace the link, not make its target */
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			return lab_err_set(err, LAB_EXIT_ENV, "cannot write "
			    "'%s': a symlink to a missing file", path);
		return replace(path, NULL, buf, len, err);
	}
	if (S_ISDIR(st.st_mode))
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': a "
		    "directory", path);
	if (!S_ISREG(st.st_mode))
		return write_through(path, &st, buf, len, err);
	/* a symlink is followed: its target is replaced, the link stays */
	if ((real = realpath(path, NULL)) == NULL)
		return lab_err_set(err, LAB_EXIT_ENV, "cannot write '%s': %s",
		    path, strerror(errno));
	rc = replace(real, &st, buf, len, err);
	free(real);
	return rc;
}

/* "uid 65534 (nobody)" */
void
lab_file_owner(uid_t uid, char *buf, size_t size)
{
	struct passwd	 pw, *res = NULL;
	char		 tmp[1024];

	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) == 0 && res != NULL)
		snprintf(buf, size, "uid %u (%s)", (unsigned)uid, res->pw_name);
	else
		snprintf(buf, size, "uid %u", (unsigned)uid);
}

/* Refuses a log that is not a regular file of our own. */
static int
log_check(const char *path, const struct stat *st, struct lab_err *err)
{
	char	who[96];

	if (S_ISLNK(st->st_mode))
		return lab_err_set(err, LAB_EXIT_ENV, "cannot open the log "
		    "'%s': a symlink, which lab does not follow (give the file "
		    "it points to)", path);
	if (!S_ISREG(st->st_mode))
		return lab_err_set(err, LAB_EXIT_ENV, "cannot open the log "
		    "'%s': not a regular file (%s)", path,
		    lab_file_kind(st->st_mode));
	if (st->st_uid != geteuid()) {
		lab_file_owner(st->st_uid, who, sizeof(who));
		return lab_err_set(err, LAB_EXIT_ENV, "cannot open the log "
		    "'%s': it belongs to %s, not to you (uid %u): give a file "
		    "of your own", path, who, (unsigned)geteuid());
	}
	return 0;
}

int
lab_file_open_log(const char *path, struct lab_err *err)
{
	struct stat	st;
	int		fd;

	if (lstat(path, &st) == 0 && log_check(path, &st, err) == -1)
		return -1;
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600)) == -1) {
		if (errno == ELOOP)
			return lab_err_set(err, LAB_EXIT_ENV, "cannot open the "
			    "log '%s': a symlink, which lab does not follow "
			    "(give the file it points to)", path);
		return lab_err_set(err, LAB_EXIT_ENV, "cannot open the log "
		    "'%s': %s", path, strerror(errno));
	}
	if (fstat(fd, &st) == -1 || blocking(fd) == -1) {
		lab_err_set(err, LAB_EXIT_ENV, "cannot open the log '%s': %s",
		    path, strerror(errno));
		close(fd);
		return -1;
	}
	if (log_check(path, &st, err) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}
