/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <pthread.h>
#include <string.h>

#include "lab/dburi.h"
#include "lab/facts.h"
#include "lab/json.h"
#include "lab.h"

static const char *const op_names[] = { "added", "changed", "removed",
	"kept" };
static const char op_marks[] = { '+', '~', '-', '=' };

static void
print_changes(const struct lab_changes *ch, int prune)
{
	const struct lab_change	*c;
	size_t			 i;

	/* no printf per line: a first import of 10,000 hosts is 10,000 */
	for (i = 0; i < ch->n; i++) {
		c = &ch->v[i];
		putchar(op_marks[c->op]);
		putchar(' ');
		fputs(c->what, stdout);
		putchar(' ');
		fputs(c->name, stdout);
		if (c->detail != NULL)
			printf(": %s", c->detail);
		if (c->op == LAB_CHANGE_KEEP)
			printf(": not in the YAML, kept%s", prune ? "" :
			    " (--prune removes it)");
		putchar('\n');
	}
}

static int
json_changes(const struct lab_changes *ch, const char *db, int dry,
    struct lab_err *err)
{
	struct lab_buf	b;
	struct lab_json	j;
	size_t		i;
	int		rc;

	lab_buf_init(&b);
	lab_json_init(&j, &b);
	lab_json_obj_begin(&j);
	lab_json_kstr(&j, "db", db);
	lab_json_key(&j, "dry_run");
	lab_json_bool(&j, dry);
	lab_json_key(&j, "changes");
	lab_json_arr_begin(&j);
	for (i = 0; i < ch->n; i++) {
		lab_json_obj_begin(&j);
		lab_json_kstr(&j, "op", op_names[ch->v[i].op]);
		lab_json_kstr(&j, "kind", ch->v[i].what);
		lab_json_kstr(&j, "name", ch->v[i].name);
		lab_json_kstr(&j, "detail", ch->v[i].detail);
		lab_json_obj_end(&j);
	}
	lab_json_arr_end(&j);
	lab_json_obj_end(&j);
	lab_json_end(&j);
	rc = cmd_write(&b, err);
	lab_buf_release(&b);
	return rc;
}

/* Prints the changes (JSON, or lines and the summary). */
static int
show_changes(struct lab_call *call, const struct lab_inventory *inv,
    const struct lab_changes *ch, int prune, int dry, struct lab_err *err)
{
	size_t	i, nk, count[4] = { 0 };
	char	known[48] = "";

	for (i = 0; i < ch->n; i++)
		count[ch->v[i].op]++;
	if (call->json)
		return json_changes(ch, lab_db_path(call->db), dry, err);
	print_changes(ch, prune);
	nk = inv->known != NULL ? inv->known->n : 0;
	if (nk > 0)
		snprintf(known, sizeof(known), ", %zu known issue%s", nk,
		    nk == 1 ? "" : "s");
	printf("%s %zu host%s, %zu switch%s%s from %zu file%s into %s: "
	    "%zu added, %zu changed, %zu removed, %zu kept\n",
	    dry ? "would import" : "imported", inv->nhosts,
	    inv->nhosts == 1 ? "" : "s", inv->nswitches,
	    inv->nswitches == 1 ? "" : "es", known, inv->files.n,
	    inv->files.n == 1 ? "" : "s", lab_db_path(call->db),
	    count[LAB_CHANGE_ADD], count[LAB_CHANGE_MODIFY],
	    count[LAB_CHANGE_REMOVE], count[LAB_CHANGE_KEEP]);
	if (dry)
		printf("dry run: nothing was written\n");
	return 0;
}

/*
 * --prune that would remove recorded hosts, switches or groups is the
 * safety rule's (lab(1), SAFETY): the dry run's changes are the plan,
 * then --yes or a "y" on a terminal. Returns 1 to apply, 0 when the plan
 * was all (--dry-run), -1 (err) when refused.
 */
static int
prune_confirm(struct lab_call *call, const struct lab_inventory *inv,
    struct lab_err *err)
{
	struct lab_changes	 ch = { NULL, 0 };
	char			 q[4200], what[160];
	size_t			 i, n = 0, removed = 0;
	int			 rc;

	if (lab_db_inventory_apply(call->db, inv, LAB_APPLY_PRUNE |
	    LAB_APPLY_DRY_RUN, call->now, &ch, err) == -1)
		return -1;
	for (i = 0; i < ch.n; i++) {
		removed += ch.v[i].op == LAB_CHANGE_REMOVE;
		n += ch.v[i].op != LAB_CHANGE_KEEP;
	}
	if (removed == 0) {	/* nothing deleted: nothing to ask */
		lab_changes_release(&ch);
		return 1;
	}
	/* the plan: what the dry run prints, to stdout */
	rc = show_changes(call, inv, &ch, 1, 1, err);
	lab_changes_release(&ch);
	if (rc == -1)
		return -1;
	snprintf(q, sizeof(q), "Apply these %zu changes to %s?", n,
	    lab_db_path(call->db));
	snprintf(what, sizeof(what), "this deletes %zu recorded host%s, "
	    "switch%s, group%s or known issue%s ('-' above)", removed,
	    removed == 1 ? "" : "s", removed == 1 ? "" : "es",
	    removed == 1 ? "" : "s", removed == 1 ? "" : "s");
	return cmd_confirm(call, q, what, err);
}

/* The database, opened in a thread while the YAML is read. */
struct opener {
	struct lab_call	*call;
	struct lab_err	 err;
	int		 rc;
};

static void *
open_db(void *arg)
{
	struct opener	*o = arg;

	o->rc = cmd_db(o->call, LAB_DB_CREATE | LAB_DB_HOLD, &o->err);
	return NULL;
}

/*
 * Reads and checks the YAML; on PostgreSQL, opens the database at the same
 * time: a new database's schema takes the server about as long to make as
 * 10,000 hosts of YAML take to read. The migrations stay in a transaction
 * the import continues, so a bad file still changes nothing. Not for a
 * dry run or a --prune that asks (they do not write, or not yet), nor on
 * SQLite, where the open would create the file and costs little.
 */
static int
load(struct lab_call *call, struct lab_inventory *inv, int ahead,
    struct lab_err *err)
{
	struct opener	o;
	pthread_t	t;
	int		rc;

	o.call = call;
	o.rc = 0;
	lab_err_init(&o.err);
	ahead = ahead && call->db == NULL && lab_db_uri_is_pg(call->db_path) &&
	    pthread_create(&t, NULL, open_db, &o) == 0;
	rc = lab_inventory_load(inv, call->argv, (size_t)call->argc, err);
	if (!ahead)
		return rc;
	pthread_join(t, NULL);
	if (rc == -1) {		/* the input's error first, as when read alone */
		lab_db_free(call->db);
		call->db = NULL;
		return -1;
	}
	if (o.rc == -1)
		*err = o.err;
	return o.rc;
}

static int
import_run(struct lab_call *call, struct lab_err *err)
{
	LAB_CLEANUP(lab_inventory_freep) struct lab_inventory *inv = NULL;
	struct lab_changes	 ch = { NULL, 0 };
	const struct lab_warning *w;
	size_t			 i;
	int			 prune = cmd_opt(call, "prune") != NULL, flags;
	int			 rc;

	if ((inv = lab_inventory_new()) == NULL)
		return lab_err_oom(err), LAB_EXIT_ENV;
	/* every file validated before anything is written */
	if (load(call, inv, !call->dry_run && (!prune || call->yes), err) == -1)
		return err->code;
	for (i = 0; i < inv->nwarnings; i++) {
		w = &inv->warnings[i];
		fprintf(stderr, "lab: %s: warning: %s:%d:%d: %s\n", call->label,
		    w->loc.file, w->loc.line, w->loc.col, w->msg);
	}
	if (cmd_db(call, LAB_DB_CREATE, err) == -1)
		return LAB_EXIT_ENV;
	if (prune && !call->yes && !call->dry_run) {
		if ((rc = prune_confirm(call, inv, err)) != 1) {
			call->no_audit = 1;	/* nothing was written */
			return rc == 0 ? LAB_EXIT_OK : (int)err->code;
		}
		if (!call->json)
			printf("\n");	/* the plan above, the outcome below */
	}
	flags = (prune ? LAB_APPLY_PRUNE : 0) |
	    (call->dry_run ? LAB_APPLY_DRY_RUN : 0);
	if (lab_db_inventory_apply(call->db, inv, flags, call->now, &ch,
	    err) == -1)
		return err->code;
	rc = show_changes(call, inv, &ch, prune, call->dry_run, err);
	lab_changes_release(&ch);
	return rc == -1 ? LAB_EXIT_ENV : LAB_EXIT_OK;
}

static const struct lab_opt import_opts[] = {
	{ "prune", NULL, "remove hosts, switches and groups the YAML does "
	  "not name" },
	{ NULL, NULL, NULL },
};

static const struct lab_verb import_verbs[] = {
	{ .name = NULL, .args = "PATH...", .min = 1, .max = LAB_ARGS_ANY,
	  .flags = LAB_VERB_JSON | LAB_VERB_DRYRUN | LAB_VERB_MUTATES |
		LAB_VERB_CONFIRMS,
	  .run = import_run, .opts = import_opts,
	  .summary = "apply YAML files or folders of *.yaml to the database "
		"in one transaction; a bad file changes nothing" },
	{ .name = NULL },
};

const struct lab_cmd lab_cmd_import = {
	.name = "import",
	.summary = "apply the inventory YAML to the database",
	.verbs = import_verbs,
};
