/*
 * compat.h
 *		Every PG_VERSION_NUM difference the extension cares about, in one
 *		place.  Include it after the PostgreSQL headers.
 */
#ifndef ULID_COMPAT_H
#define ULID_COMPAT_H

#include "fmgr.h"

/* 16 moved the varlena macros (VARDATA, SET_VARSIZE, ...) to varatt.h. */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#include "varatt.h"
#endif

/*
 * Soft input errors (pg_input_is_valid and friends) arrived in 16.  Before
 * that an input function can only throw, which is what ereturn does here.
 */
#if PG_VERSION_NUM < 160000
#define ereturn(context, dummy_value, ...) \
	do { \
		(void) (context); \
		ereport(ERROR, __VA_ARGS__); \
		return dummy_value; \
	} while (0)
#endif

/*
 * Shared memory: 17 has a registry of named DSM segments that any backend
 * can create or attach without shared_preload_libraries.  Before that,
 * shared memory must be requested at postmaster start, from 15 on in a
 * shmem_request_hook.
 */
#define ULID_HAVE_DSM_REGISTRY (PG_VERSION_NUM >= 170000)
#define ULID_HAVE_SHMEM_REQUEST_HOOK (PG_VERSION_NUM >= 150000)

/*
 * 18 lets a module give its name and version, which pg_get_loaded_modules()
 * shows.  ULID_VERSION comes from ulid.control, through the Makefile.
 */
#if PG_VERSION_NUM >= 180000
#define ULID_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "ulid", .version = ULID_VERSION)
#else
#define ULID_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * 15 brought the abbreviated-key comparator for unsigned integers, with
 * tuplesort's specialized quicksort for it.
 */
#if PG_VERSION_NUM < 150000
#include "utils/sortsupport.h"

static inline int
ssup_datum_unsigned_cmp(Datum x, Datum y, SortSupport ssup)
{
	return (x > y) - (x < y);
}
#endif

/* 14 gave is_pseudo_constant_for_index() the PlannerInfo. */
#if PG_VERSION_NUM >= 140000
#define ulid_is_pseudo_constant_for_index(root, expr, index) \
	is_pseudo_constant_for_index((root), (expr), (index))
#else
#define ulid_is_pseudo_constant_for_index(root, expr, index) \
	is_pseudo_constant_for_index((expr), (index))
#endif

/* BRIN minmax-multi arrived in 14, btree skip support in 18. */
#define ULID_HAVE_BRIN_MINMAX_MULTI (PG_VERSION_NUM >= 140000)
#define ULID_HAVE_SKIP_SUPPORT (PG_VERSION_NUM >= 180000)
#if ULID_HAVE_BRIN_MINMAX_MULTI
#define ULID_IS_BRIN_MINMAX_MULTI_OPCINFO(proc) ((proc) == F_BRIN_MINMAX_MULTI_OPCINFO)
#else
#define ULID_IS_BRIN_MINMAX_MULTI_OPCINFO(proc) false
#endif

/* Reserving a GUC prefix got its current name in 15. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

#endif							/* ULID_COMPAT_H */
