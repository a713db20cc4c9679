#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a test script against PostgreSQL instead of SQLite (issue 22: the
# LAB_TEST_DB=postgres variant of a suite): starts a throwaway cluster on
# 127.0.0.1:PORT, runs the command with LAB_TEST_DB=postgres and
# PGSRV_PORT=PORT (the scripts' testdb, tests/integration/pgsrv.sh,
# then gives each database a new one on it; PGPASSFILE holds the
# password), stops the cluster on every exit path and exits with the
# command's status. The command's expected outputs are the SQLite run's.
# sh on-pg.sh SRCDIR PORT COMMAND [ARG...]
# As root it runs in a network namespace of its own (loopback only), so
# the variant's fixed peer addresses cannot meet the SQLite run's.
set -eu
if [ "$(id -u)" = 0 ] && [ -z "${LAB_ONPG_NS:-}" ] &&
    command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1; then
	LAB_ONPG_NS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$@"' \
	    sh "$0" "$@"
fi
SRC=$1
PORT=$2
shift 2
. "$SRC/tests/integration/harness.sh"
. "$SRC/tests/integration/pgsrv.sh"
if [ ! -x "$PGBIN/initdb" ] || ! command -v psql >/dev/null 2>&1; then
	echo "on-pg.sh: needs postgresql-15 and postgresql-client" >&2
	[ "${LAB_TEST_REQUIRE_SIM:-0}" = 1 ] && exit 1
	exit 77
fi
P=$(mktemp -d /tmp/lab-onpg.XXXXXX)
harness_trap 'pgsrv_stop "$P"; rm -rf "$P"'
pgsrv_start "$P" "$PORT" || { echo "on-pg.sh: cluster on $PORT" >&2; exit 1; }
LAB_TEST_DB=postgres
export LAB_TEST_DB
rc=0
"$@" || rc=$?
# the variant must have run on PostgreSQL: a database testdb made
n=$(pgsrv_sql postgres "SELECT count(*) FROM pg_database WHERE
    datname LIKE 't\_%'") || n=0
if [ "$rc" = 0 ] && [ "${n:-0}" -eq 0 ]; then
	echo "on-pg.sh: $*: no database was made on PostgreSQL" >&2
	rc=1
fi
exit $rc
