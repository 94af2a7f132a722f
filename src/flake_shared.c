/*
 * flake_shared.c
 *		One Ulid-Flake generator state for the whole server.
 *
 * A Ulid-Flake has only 20 random bits.  If every backend ran its own
 * generator, two sessions generating in the same millisecond would collide
 * often enough for a primary key to fail (the stand-alone layout assumes a
 * single generator).  So the generator state lives in shared memory, one
 * 64-bit word per layout, advanced with compare-and-swap: ids are then
 * unique and increasing across all sessions of the server.
 *
 * Where the 16 bytes live: on PostgreSQL 17 and later, a named DSM segment
 * that the first caller creates.  Before 17, a named struct in the main
 * shared memory segment: reserved at server start when the library is in
 * shared_preload_libraries, and otherwise by the first backend that loads
 * the library, from the spare room PostgreSQL leaves in that segment (about
 * 100 kB).  That room is shared with the lock table, which grows into it:
 * a transaction taking many locks, which any user can run, can use it all
 * up before the library is first loaded.  Then the state cannot be had until
 * the server restarts, and the flake generators say so, pointing to
 * shared_preload_libraries, which is what guarantees it on 13 to 16.
 */
#include "support.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#if ULID_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

#define FLAKE_SHARED_NAME "ulid_flake generator state"

typedef struct FlakeSharedState
{
	/* packed ulid_flake_generator, by layout: stand-alone, scalable */
	pg_atomic_uint64 last[2];
} FlakeSharedState;

static FlakeSharedState *shared_state = NULL;

static void
init_shared_state(void *ptr)
{
	FlakeSharedState *state = (FlakeSharedState *) ptr;

	pg_atomic_init_u64(&state->last[0], 0);
	pg_atomic_init_u64(&state->last[1], 0);
}

#if !ULID_HAVE_DSM_REGISTRY
/*
 * Find the struct by name, creating it if this is the first backend; leave
 * shared_state NULL when there is no room left for it.  This runs in
 * _PG_init, where an error would make the whole library fail to load, so
 * ShmemInitStruct's "not enough shared memory" is caught: it is raised with
 * nothing held but our lock, and after undoing its own allocation.
 */
static void
attach_shared_state(void)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	bool		found;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		shared_state = ShmemInitStruct(FLAKE_SHARED_NAME, sizeof(FlakeSharedState), &found);
		if (!found)
			init_shared_state(shared_state);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		if (edata->sqlerrcode != ERRCODE_OUT_OF_MEMORY)
			PG_RE_THROW();
		FlushErrorState();
		FreeErrorData(edata);
		shared_state = NULL;
	}
	PG_END_TRY();
	LWLockRelease(AddinShmemInitLock);
}

static shmem_startup_hook_type prev_shmem_startup_hook = NULL;
#if ULID_HAVE_SHMEM_REQUEST_HOOK
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif

static void
request_shared_state(void)
{
#if ULID_HAVE_SHMEM_REQUEST_HOOK
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
#endif
	RequestAddinShmemSpace(MAXALIGN(sizeof(FlakeSharedState)));
}

static void
startup_shared_state(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	attach_shared_state();
}
#endif

void
reserve_flake_shared_state(void)
{
#if !ULID_HAVE_DSM_REGISTRY
	if (!process_shared_preload_libraries_in_progress)
	{
		/* as early as this backend can: before other users take the room */
		if (IsUnderPostmaster)
			attach_shared_state();
		return;
	}
#if ULID_HAVE_SHMEM_REQUEST_HOOK
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = request_shared_state;
#else
	request_shared_state();
#endif
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = startup_shared_state;
#endif
}

pg_atomic_uint64 *
flake_shared_state(flake_layout layout)
{
	if (shared_state == NULL)
	{
#if ULID_HAVE_DSM_REGISTRY
		bool		found;

		shared_state = GetNamedDSMSegment(FLAKE_SHARED_NAME, sizeof(FlakeSharedState),
										  init_shared_state, &found);
#else
		attach_shared_state();
		if (shared_state == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("could not reserve shared memory for the ulid_flake generator state"),
					 errdetail("Other users (for example a transaction holding many locks) took the shared memory left over at server start before the ulid library was first loaded."),
					 errhint("Add ulid to shared_preload_libraries and restart the server.")));
#endif
	}
	return &shared_state->last[layout == FLAKE_SCALABLE ? 1 : 0];
}
