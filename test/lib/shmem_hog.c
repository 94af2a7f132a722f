/*
 * shmem_hog.c
 *		Test tool, never installed: takes every byte of the main shared
 *		memory segment's spare room, as a lock table grown by other users
 *		can, so that test/suites/flake_server.sh can show what the ulid_flake
 *		generators do when their state cannot be had.
 *
 *	LOAD '/path/to/shmem_hog.so'; then SELECT free bytes from
 *	pg_shmem_allocations: none are left.
 */
#include "postgres.h"

#include "fmgr.h"
#include "storage/shmem.h"

PG_MODULE_MAGIC;

extern PGDLLEXPORT void _PG_init(void);

void
_PG_init(void)
{
	Size		chunk = 1024 * 1024;

	/* ShmemAllocNoError returns NULL, without an error, when out of room */
	while (chunk > 0)
		if (ShmemAllocNoError(chunk) == NULL)
			chunk /= 2;
}
