# SPDX-License-Identifier: GPL-3.0-or-later
# pgsrv.sh: a throwaway PostgreSQL 15 cluster for a test, and the
# database a test uses on whichever backend it runs (issue 22). Source it:
#
#	. "$SRC/tests/integration/pgsrv.sh"
#
# pgsrv_start DIR PORT
#	initdb in DIR/pg (user lab, a random password, scram-sha-256) and
#	starts it on 127.0.0.1:PORT, its socket and log in DIR/sock. The
#	password goes only to DIR/pgpass, which PGPASSFILE then names. The
#	server refuses to run as root: it runs as postgres (else nobody).
#	Records the postmaster with harness_pidfile when harness.sh is
#	loaded. Exports PGSRV_PORT. Fails (status 1) with the log on stderr.
# pgsrv_run DIR PORT
#	Starts the cluster pgsrv_start made in DIR again (after pgsrv_stop).
# pgsrv_stop DIR
#	Stops it (immediate); cannot fail.
# pgsrv_as COMMAND...
#	Runs it as the server's user (postgres, else nobody) when root.
# pgsrv_sql DB SQL...
#	Runs each SQL on database DB of the cluster of PGSRV_PORT as lab,
#	printing the rows it returns (psql -At).
# pgsrv_psql SQL...
#	pgsrv_sql on the database postgres, printing nothing.
# testdb FILE
#	Prints the database a test uses: FILE on SQLite (the default);
#	when LAB_TEST_DB=postgres, a new empty database on the cluster of
#	PGSRV_PORT (on-pg.sh starts it), as its postgresql:// URI: a
#	copy of LAB_TEST_PG_TEMPLATE when set (a database made once).

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

pgsrv_as()
{
	if [ "$(id -u)" != 0 ]; then
		"$@"
	elif id postgres >/dev/null 2>&1; then
		runuser -u postgres -- "$@"
	else
		runuser -u nobody -- "$@"
	fi
}

pgsrv_start()
{
	_pd=$1
	if [ ! -x "$PGBIN/initdb" ]; then
		echo "pgsrv.sh: needs postgresql-15 ($PGBIN/initdb)" >&2
		return 1
	fi
	mkdir -p "$_pd/pg" "$_pd/sock" || return 1
	chmod 755 "$_pd"
	_pw=pg-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	printf '%s\n' "$_pw" >"$_pd/pwfile"
	if [ "$(id -u)" = 0 ]; then
		_pu=postgres
		id postgres >/dev/null 2>&1 || _pu=nobody
		chown "$_pu" "$_pd/pg" "$_pd/sock" "$_pd/pwfile"
	fi
	# fsync off: a throwaway cluster need not survive a power cut
	if ! pgsrv_as "$PGBIN/initdb" -D "$_pd/pg" -U lab -A scram-sha-256 \
	    --no-sync --pwfile="$_pd/pwfile" >"$_pd/initdb.log" 2>&1; then
		rm -f "$_pd/pwfile"
		cat "$_pd/initdb.log" >&2
		return 1
	fi
	rm -f "$_pd/pwfile"
	printf '127.0.0.1:%s:*:lab:%s\n' "$2" "$_pw" >"$_pd/pgpass"
	chmod 600 "$_pd/pgpass"
	PGPASSFILE=$_pd/pgpass PGSRV_PORT=$2
	export PGPASSFILE PGSRV_PORT
	unset PGPASSWORD PGHOST PGPORT PGUSER PGDATABASE || :
	pgsrv_run "$_pd" "$2" || return 1
	if [ "${HARNESS_LOADED:-0}" = 1 ]; then
		# its first line: the others hold the port and the shared
		# memory's id, numbers a live process may have too
		harness_pidfile postgres "$_pd/pg/postmaster.pid" first
	fi
}

pgsrv_run()
{
	if ! pgsrv_as "$PGBIN/pg_ctl" -D "$1/pg" -l "$1/sock/pg.log" -w \
	    -o "-p $2 -k $1/sock -c listen_addresses=127.0.0.1 -c fsync=off" \
	    start >/dev/null 2>&1; then
		cat "$1/sock/pg.log" >&2
		return 1
	fi
}

pgsrv_stop()
{
	if [ -f "$1/pg/postmaster.pid" ]; then
		pgsrv_as "$PGBIN/pg_ctl" -D "$1/pg" -m immediate -w stop \
		    >/dev/null 2>&1 || :
	fi
}

pgsrv_sql()
{
	_pdb=$1
	shift
	for _s in "$@"; do
		"$PGBIN/../bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 \
		    -p "$PGSRV_PORT" -U lab -d "$_pdb" -c "$_s" || return 1
	done
}

pgsrv_psql()
{
	pgsrv_sql postgres "$@" >/dev/null
}

testdb()
{
	if [ "${LAB_TEST_DB:-sqlite}" != postgres ]; then
		echo "$1"
		return 0
	fi
	# one database a call (often in a subshell: no counter survives)
	_tn=t_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	pgsrv_psql "CREATE DATABASE $_tn${LAB_TEST_PG_TEMPLATE:+ TEMPLATE \
$LAB_TEST_PG_TEMPLATE}" || return 1
	echo "postgresql://lab@127.0.0.1:$PGSRV_PORT/$_tn"
}

# testdb_dump DB FILE
#	On PostgreSQL, writes pg_dump of DB into FILE, so that a test that
#	greps the SQLite file for secrets greps the same rows; nothing on
#	SQLite (FILE is the database).
testdb_dump()
{
	case $1 in
	postgres://*|postgresql://*)
		"$PGBIN/../bin/pg_dump" -d "$1" >"$2" || return 1 ;;
	esac
}

# testdb_copy LAB FILE
#	Prints FILE on SQLite; on PostgreSQL, a new database holding FILE's
#	lab (lab db copy --to), as its URI: a test that fills its database
#	with sqlite3 runs its reads on PostgreSQL this way.
testdb_copy()
{
	if [ "${LAB_TEST_DB:-sqlite}" != postgres ]; then
		echo "$2"
		return 0
	fi
	_tu=$(testdb "$2") || return 1
	"$1" --db "$2" db copy --to "$_tu" >/dev/null || return 1
	echo "$_tu"
}
