/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_H
#define LAB_DB_H

#include <stddef.h>
#include <stdint.h>

#include "lab/err.h"
#include "lab/inventory.h"

/*
 * The database: one SQLite file in WAL mode with foreign keys on and a busy
 * timeout, its schema versioned by PRAGMA user_version and migrated on
 * open. Every error here is LAB_EXIT_ENV and names the file.
 */
struct lab_db;

enum lab_db_flags {
	LAB_DB_CREATE = 1 << 0,	/* create the file and its folder if missing */
	/* read only, never written (no migration: an older schema fails) */
	LAB_DB_READONLY = 1 << 1,
	/*
	 * Migrations the open has to run stay in a write transaction left
	 * open, which the first write transaction continues: a command that
	 * fails before it leaves the database as it was. For a writer that
	 * opens the database in a thread of its own while it reads its input
	 * (lab import on PostgreSQL, whose schema takes as long to make as
	 * 10,000 hosts of YAML take to read).
	 */
	LAB_DB_HOLD = 1 << 2,
};

#define LAB_DB_BUSY_MS	5000	/* how long to wait for another writer */

/*
 * Opens (and with LAB_DB_CREATE creates) the database at path and brings
 * its schema up to date. *ret is caller-owned (lab_db_free).
 */
int	lab_db_open(const char *path, int flags, struct lab_db **ret,
	    struct lab_err *err);
/*
 * lab_db_open() with the PostgreSQL password (the credentials file's
 * postgres: entry; NULL: libpq's ~/.pgpass or PGPASSFILE). Never kept.
 */
int	lab_db_open_auth(const char *path, int flags, const char *password,
	    struct lab_db **ret, struct lab_err *err);
/* Closes the database; NULL is a no-op. */
void	lab_db_free(struct lab_db *);
/* For LAB_CLEANUP. */
void	lab_db_freep(struct lab_db **);
/* The path it was opened with; borrowed for the life of the handle. */
const char *lab_db_path(const struct lab_db *);
/* Whether this open made the schema in an empty database (lab init). */
int	lab_db_fresh(const struct lab_db *);
/* The schema version this build writes. */
int	lab_db_schema_version(void);

/* Starts a write transaction (BEGIN IMMEDIATE, waiting up to the timeout). */
int	lab_db_begin(struct lab_db *, struct lab_err *err);
/* Commits the open transaction. */
int	lab_db_commit(struct lab_db *, struct lab_err *err);
/* Rolls the open transaction back, if any; never fails. */
void	lab_db_rollback(struct lab_db *);

/* One audit log entry. */
struct lab_audit {
	int64_t	 id;
	int64_t	 time;		/* seconds since the epoch, UTC */
	char	*user;
	char	*command;	/* "import", "power on" */
	char	*argv;		/* the command line, secrets redacted */
	int	 result;	/* the exit code */
	char	*message;	/* the error, or NULL */
};

/* Appends an audit entry in its own transaction (or the open one). */
int	lab_db_audit_add(struct lab_db *, const struct lab_audit *,
	    struct lab_err *err);
/*
 * The newest limit entries (all when limit <= 0), oldest first. *ret is
 * caller-owned (lab_audit_free_all).
 */
int	lab_db_audit_list(struct lab_db *, int limit, struct lab_audit **ret,
	    size_t *n, struct lab_err *err);
/* Frees n entries and the array. */
void	lab_audit_free_all(struct lab_audit *, size_t n);

/*
 * Reads the whole inventory, sorted by name (hosts, switches, groups;
 * NICs and disks in declared order). *ret is caller-owned.
 */
int	lab_db_inventory_load(struct lab_db *, struct lab_inventory **ret,
	    struct lab_err *err);

/* What lab_db_inventory_load_parts reads of each host besides its row. */
enum lab_load_parts {
	LAB_LOAD_BMCS = 1 << 0,
	LAB_LOAD_NICS = 1 << 1,
	LAB_LOAD_DISKS = 1 << 2,
	LAB_LOAD_MEMBERSHIPS = 1 << 3,	/* the host's groups */
	LAB_LOAD_HOSTS = 1 << 4,	/* without it: no hosts, no parts */
	LAB_LOAD_SSH = 1 << 5,		/* ssh settings and network */
	LAB_LOAD_ALL = 0x3f,
};

/*
 * Reads the hosts with only the parts asked for (the others are left
 * empty), and every switch and declared group; with name, only the host
 * or switch of that name (none when there is none). As
 * lab_db_inventory_load otherwise: for listings of a big lab that need
 * less than all of it.
 */
int	lab_db_inventory_load_parts(struct lab_db *, unsigned parts,
	    const char *name, struct lab_inventory **ret,
	    struct lab_err *err);
/* What `lab ls hosts` shows of a host. */
struct lab_host_row {
	const char	*name;
	const char	*model;
	const char	*role;		/* NULL when none */
	const char	*groups;	/* comma-joined, declared order; or NULL */
	const char	*bmc_type;	/* NULL: no BMC */
	const char	*bmc_address;
	size_t		 nnics;
	size_t		 ndisks;
};

struct lab_host_rows {
	struct lab_host_row	*v;
	size_t			 n;
	struct lab_pool		 text;	/* owns every string of v */
};

/*
 * Every host's row, sorted by name, without loading the inventory (three
 * scans joined in memory). ret is caller-owned (lab_host_rows_release).
 */
int	lab_db_host_rows(struct lab_db *, struct lab_host_rows *ret,
	    struct lab_err *err);
void	lab_host_rows_release(struct lab_host_rows *);

/* What an import did (or, dry, would do) to one thing. */
enum lab_change_op {
	LAB_CHANGE_ADD,
	LAB_CHANGE_MODIFY,
	LAB_CHANGE_REMOVE,
	LAB_CHANGE_KEEP,	/* in the database, not in the YAML, kept */
};

struct lab_change {
	enum lab_change_op	 op;
	const char		*what;		/* "host", "switch", "group" */
	char			*name;
	char			*detail;	/* what changed, or NULL */
};

struct lab_changes {
	struct lab_change	*v;
	size_t			 n;
};

enum lab_apply_flags {
	LAB_APPLY_PRUNE = 1 << 0,	/* remove what the YAML does not name */
	LAB_APPLY_DRY_RUN = 1 << 1,	/* work out the changes, write nothing */
};

/*
 * Makes the database hold inv, in one transaction: adds, changes and
 * (with LAB_APPLY_PRUNE) removes hosts, switches and groups. Without
 * PRUNE, things missing from inv are kept and listed as LAB_CHANGE_KEEP.
 * now stamps created/updated times. On error nothing is written.
 * ret is caller-owned (lab_changes_release).
 */
int	lab_db_inventory_apply(struct lab_db *, const struct lab_inventory *inv,
	    int flags, int64_t now, struct lab_changes *ret,
	    struct lab_err *err);
/* Frees the changes. */
void	lab_changes_release(struct lab_changes *);

/* One table lab_db_copy() moved, counted on both sides. */
struct lab_db_copied {
	char	*table;
	int64_t	 from;		/* rows in the source */
	int64_t	 to;		/* rows in the target after the copy */
};

/*
 * Copies every table of from (its whole history, ids kept) to to, in one
 * transaction on to, reading one snapshot of from; refuses (exit 2) when
 * to holds any row, unless replace, which deletes them first. The rows
 * are counted on both sides; a difference fails and nothing is written.
 * *ret (one entry a table, in copy order) is caller-owned
 * (lab_db_copied_free).
 */
int	lab_db_copy(struct lab_db *from, struct lab_db *to, int replace,
	    struct lab_db_copied **ret, size_t *n, struct lab_err *err);
void	lab_db_copied_free(struct lab_db_copied *, size_t n);

#endif
