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
 * The module is built with -fvisibility=hidden so that only SQL-callable
 * functions are exported (other ULID extensions export symbols with the
 * same names as ours).  PostgreSQL 16 marks fmgr functions PGDLLEXPORT
 * itself; before that PGDLLEXPORT is empty on non-Windows platforms and
 * PG_FUNCTION_INFO_V1 does not mark the function at all.
 */
#if PG_VERSION_NUM < 160000 && defined(__GNUC__) && !defined(WIN32)
#undef PGDLLEXPORT
#define PGDLLEXPORT __attribute__((visibility("default")))
#undef PG_FUNCTION_INFO_V1
#define PG_FUNCTION_INFO_V1(funcname) \
extern PGDLLEXPORT Datum funcname(PG_FUNCTION_ARGS); \
extern PGDLLEXPORT const Pg_finfo_record * CppConcat(pg_finfo_,funcname)(void); \
const Pg_finfo_record * \
CppConcat(pg_finfo_,funcname) (void) \
{ \
	static const Pg_finfo_record my_finfo = { 1 }; \
	return &my_finfo; \
} \
extern int no_such_variable
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

/* Reserving a GUC prefix got its current name in 15. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

#endif							/* ULID_COMPAT_H */
