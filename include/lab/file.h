/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_FILE_H
#define LAB_FILE_H

#include <stddef.h>
#include <sys/types.h>

#include "lab/err.h"

/* "a FIFO", "a character device", "a directory"...: what mode is. */
const char	*lab_file_kind(mode_t mode);

/*
 * Opens a file a user named, for reading, without ever blocking: refuses
 * anything that is not a regular file (a FIFO, a device, a directory, a
 * socket) before reading a byte. Returns the descriptor (O_CLOEXEC,
 * blocking again); -1 when open(2) failed, errno set and err untouched
 * (the caller words a missing file its own way); -2 with err set to
 * "PATH: not a regular file (a FIFO)" and code.
 */
int	lab_file_open_read(const char *path, enum lab_exit code,
	    struct lab_err *err);

/*
 * Writes len bytes to path, for --out. A symlink is followed on purpose:
 * what follows applies to the file it points to, and the link stays. A
 * new path or an existing regular file: a temp file in the same folder,
 * fsync, rename, with the mode (and, as root, the owner and group) of
 * the file replaced; a new file is 0644. A character device, a FIFO or a
 * terminal: written plainly, never replaced (a FIFO without a reader is
 * an error, not a wait). Errors are LAB_EXIT_ENV and name path.
 */
int	lab_file_write_out(const char *path, const void *buf, size_t len,
	    struct lab_err *err);

/*
 * Opens a log to append to (console --log): a symlink, a file that is not
 * regular or one owned by another user is refused; a new file is 0600.
 * Returns the descriptor or -1 (LAB_EXIT_ENV).
 */
int	lab_file_open_log(const char *path, struct lab_err *err);

/* "uid 65534 (nobody)", or "uid N" for a uid without a name. */
void	lab_file_owner(uid_t uid, char *buf, size_t size);

#endif
