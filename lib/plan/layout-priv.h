/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LAB_LAYOUT_PRIV_H
#define LAB_LAYOUT_PRIV_H

#include "plan-priv.h"

/*
 * A layout file once read and checked (layout.c), for the steps that
 * make it (layout-steps.c).
 */

#define MAXD	32	/* disks */
#define MAXP	16	/* partitions per disk */
#define MAXA	32	/* arrays */
#define MAXV	32	/* volume groups */
#define MAXL	32	/* logical volumes per group */
#define MAXM	32	/* members of an array or group */
#define MIB	((uint64_t)1024 * 1024)
#define ALIGN	(2 * MIB)	/* lost to alignment and GPT */

/* What a disk, partition or array holds. */
struct vol {
	const struct ynode	*node;
	const struct ynode	*use_node;
	const char		*use;
	const char		*fs;
	const char		*mount;
	int			 used;	/* a member of something */
};

struct member {
	const char	*dev;
	uint64_t	 bytes;
	char		 label[64];
};

struct lpart {
	struct vol	 v;
	uint64_t	 bytes;
	int		 rest;
	const char	*dev;
};

struct ldisk {
	struct vol		 v;
	const struct lab_disk	*d;
	const char		*table;
	struct lpart		 p[MAXP];
	size_t			 np;
	const char		*dev;
};

struct larray {
	struct vol		 v;
	const char		*name;
	const struct md_level	*l;
	struct member		 m[MAXM];
	size_t			 nm;
	const char		*dev;
	uint64_t		 bytes;
};

struct llv {
	const struct ynode	*node;
	const char		*name;
	uint64_t		 bytes;
	int			 rest;
	const char		*fs;
	const char		*mount;
	const char		*dev;
};

struct lvg {
	const struct ynode	*node;
	const char		*name;
	struct llv		 lv[MAXL];
	size_t			 nlv;
	struct member		 m[MAXM];
	size_t			 nm;
	uint64_t		 bytes;
};

struct layout {
	const char		*file;
	const struct lab_host	*h;
	const struct lab_storage_req *req;
	struct lab_plan		*p;
	struct lab_err		*err;
	struct ldisk		 d[MAXD];
	size_t			 nd;
	struct larray		 a[MAXA];
	size_t			 na;
	struct lvg		 g[MAXV];
	size_t			 ng;
	struct lab_strv		 own;	/* device names */
};

/* The steps that make a checked layout, and its volumes. */
int	lab_layout_steps(struct layout *);

#endif
