/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_DB_PQ_H
#define LAB_DB_PQ_H

#include <libpq-fe.h>

struct lab_err;

/*
 * libpq, loaded at the first connection to a PostgreSQL server (pq.c)
 * rather than linked: a command on SQLite, and `lab --version`, do not
 * pay to load and relocate it and the crypto, Kerberos and LDAP libraries
 * it brings, and the light front (cmd/full.c) serves a PostgreSQL
 * database itself. pg.c calls each function through this table by its
 * own name (the defines below).
 */
#define LAB_PQ_FUNCS(X) \
	X(PQclear) X(PQcmdTuples) X(PQconnectdbParams) X(PQerrorMessage) \
	X(PQexec) X(PQexecParams) X(PQexecPrepared) X(PQfinish) \
	X(PQftype) X(PQgetisnull) X(PQgetlength) X(PQgetvalue) \
	X(PQnfields) X(PQntuples) X(PQprepare) X(PQresultErrorField) \
	X(PQresultStatus) X(PQsetNoticeProcessor) X(PQstatus) \
	X(PQtransactionStatus) X(PQenterPipelineMode) X(PQexitPipelineMode) \
	X(PQpipelineStatus) X(PQpipelineSync) X(PQgetResult) \
	X(PQsendPrepare) X(PQsendQueryParams) X(PQsendQueryPrepared) \
	X(PQputCopyData) X(PQputCopyEnd)

struct lab_pq {
#define LAB_PQ_FIELD(f)	__typeof__(f) *(f);
	LAB_PQ_FUNCS(LAB_PQ_FIELD)
#undef LAB_PQ_FIELD
};

extern struct lab_pq lab_pq;

/*
 * Loads libpq once (any thread); on failure, an error for the database
 * at uri naming the Debian package to install. 0 or -1.
 */
int	lab_pq_load(const char *uri, struct lab_err *);

#ifndef LAB_PQ_LOADER
#define PQclear			(lab_pq.PQclear)
#define PQcmdTuples		(lab_pq.PQcmdTuples)
#define PQconnectdbParams	(lab_pq.PQconnectdbParams)
#define PQerrorMessage		(lab_pq.PQerrorMessage)
#define PQexec			(lab_pq.PQexec)
#define PQexecParams		(lab_pq.PQexecParams)
#define PQexecPrepared		(lab_pq.PQexecPrepared)
#define PQfinish		(lab_pq.PQfinish)
#define PQftype			(lab_pq.PQftype)
#define PQgetisnull		(lab_pq.PQgetisnull)
#define PQgetlength		(lab_pq.PQgetlength)
#define PQgetvalue		(lab_pq.PQgetvalue)
#define PQnfields		(lab_pq.PQnfields)
#define PQntuples		(lab_pq.PQntuples)
#define PQprepare		(lab_pq.PQprepare)
#define PQresultErrorField	(lab_pq.PQresultErrorField)
#define PQresultStatus		(lab_pq.PQresultStatus)
#define PQsetNoticeProcessor	(lab_pq.PQsetNoticeProcessor)
#define PQstatus		(lab_pq.PQstatus)
#define PQtransactionStatus	(lab_pq.PQtransactionStatus)
#define PQenterPipelineMode	(lab_pq.PQenterPipelineMode)
#define PQexitPipelineMode	(lab_pq.PQexitPipelineMode)
#define PQpipelineStatus	(lab_pq.PQpipelineStatus)
#define PQpipelineSync		(lab_pq.PQpipelineSync)
#define PQgetResult		(lab_pq.PQgetResult)
#define PQsendPrepare		(lab_pq.PQsendPrepare)
#define PQsendQueryParams	(lab_pq.PQsendQueryParams)
#define PQsendQueryPrepared	(lab_pq.PQsendQueryPrepared)
#define PQputCopyData		(lab_pq.PQputCopyData)
#define PQputCopyEnd		(lab_pq.PQputCopyEnd)
#endif

#endif
