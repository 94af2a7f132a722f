/*
 * shared_state.c
 *		The generator states that are one for the whole server: the
 *		Ulid-Flake generators' and gen_monotonic_ulid()'s.
 *
 * A Ulid-Flake has only 20 random bits.  If every backend ran its own
 * generator, two sessions generating in the same millisecond would collide
 * often enough for a primary key to fail (the stand-alone layout assumes a
 * single generator).  So the generator state lives in shared memory, one
 * 64-bit word per layout, advanced with compare-and-swap: ids are then
 * unique and increasing across all sessions of the server.
 *
 * gen_monotonic_ulid() promises what pgx_ulid's does: every id greater than
 * any id given before it, in any session.  Its state is 128 bits, too wide
 * for an atomic, so a spinlock guards it; the randomness a new millisecond
 * needs is drawn before the lock is taken, so nothing under it can fail or
 * take long.
 *
 * Where the state lives: on PostgreSQL 17 and later, a named DSM segment
 * that the first caller creates.  Before 17, a named struct in the main
 * shared memory segment: reserved at server start when the library is in
 * shared_preload_libraries, and otherwise by the first backend that loads
 * the library, from the spare room PostgreSQL leaves in that segment (from
 * about 100 kB).  That room is shared with the lock table, which grows into it:
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
#include "storage/spin.h"
#if ULID_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

/*
 * After a library upgrade without a restart, backends of two versions of
 * the library run side by side: they must share one generator state, or
 * refuse to generate, never each keep their own (ids would repeat or go
 * back).  So the state's layout has a number, its name carries it, and a
 * marker that never changes (SharedLayout, under its own name) holds the
 * layout of the server's state: a backend whose library has another layout
 * raises an error when it would generate.  Layout 1 is 0.3.0's and keeps
 * 0.3.0's name, so that 0.3.0's backends and these share it.  A change to
 * SharedState takes the next number, and a name of its own such as
 * "ulid generator state, layout 2".  (A test builds the library with
 * another number.)
 */
#ifndef ULID_SHARED_STATE_LAYOUT
#define ULID_SHARED_STATE_LAYOUT 1
#endif
#if ULID_SHARED_STATE_LAYOUT == 1
#define SHARED_STATE_NAME "ulid generator state"
#else
#define SHARED_STATE_NAME "ulid generator state, layout " CppAsString2(ULID_SHARED_STATE_LAYOUT)
#endif
#define SHARED_LAYOUT_NAME "ulid generator state layout"

typedef struct SharedLayout
{
	uint32		layout;
} SharedLayout;

typedef struct SharedState
{
	/* packed ulid_flake_generator, by layout: stand-alone, scalable */
	pg_atomic_uint64 flake[2];
	/* gen_monotonic_ulid() */
	slock_t		ulid_lock;
	ulid_generator ulid;
} SharedState;

static SharedState *shared_state = NULL;

/* the layout of the server's state, once this backend has looked */
static uint32 server_layout = 0;

static void
init_shared_layout(void *ptr)
{
	((SharedLayout *) ptr)->layout = ULID_SHARED_STATE_LAYOUT;
}

static void
init_shared_state(void *ptr)
{
	SharedState *state = (SharedState *) ptr;

	pg_atomic_init_u64(&state->flake[0], 0);
	pg_atomic_init_u64(&state->flake[1], 0);
	SpinLockInit(&state->ulid_lock);
	memset(&state->ulid, 0, sizeof(state->ulid));
}

#if !ULID_HAVE_DSM_REGISTRY
/*
 * Find the struct by name, creating it if this is the first backend; leave
 * shared_state NULL when there is no room left for it.  This runs in
 * _PG_init, where an error would make the whole library fail to load, so
 * ShmemInitStruct's "not enough shared memory" is caught: it is raised with
 * nothing held but our lock, and after undoing its own allocation.
 *
 * Raising an ERROR zeroes the interrupt holdoff counts (errfinish), but our
 * lock is still held and releasing it resumes interrupts once more: without
 * putting the counts back as they were under the lock, that would wrap the
 * count (an assertion failure in an assert-enabled build) and leave this
 * backend deaf to cancel requests, statement_timeout and termination.
 */
static void
attach_shared_state(void)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	bool		found;
	uint32		holdoff;
	uint32		cancel_holdoff;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	holdoff = InterruptHoldoffCount;
	cancel_holdoff = QueryCancelHoldoffCount;
	PG_TRY();
	{
		SharedLayout *marker = ShmemInitStruct(SHARED_LAYOUT_NAME, sizeof(SharedLayout), &found);

		if (!found)
			init_shared_layout(marker);
		server_layout = marker->layout;
		if (server_layout == ULID_SHARED_STATE_LAYOUT)
		{
			shared_state = ShmemInitStruct(SHARED_STATE_NAME, sizeof(SharedState), &found);
			if (!found)
				init_shared_state(shared_state);
		}
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		InterruptHoldoffCount = holdoff;
		QueryCancelHoldoffCount = cancel_holdoff;
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
	RequestAddinShmemSpace(MAXALIGN(sizeof(SharedLayout)) + MAXALIGN(sizeof(SharedState)));
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
reserve_shared_state(void)
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

#if ULID_HAVE_DSM_REGISTRY
static void
attach_shared_state(void)
{
	bool		found;
	SharedLayout *marker = GetNamedDSMSegment(SHARED_LAYOUT_NAME, sizeof(SharedLayout),
											  init_shared_layout, &found);

	server_layout = marker->layout;
	if (server_layout == ULID_SHARED_STATE_LAYOUT)
		shared_state = GetNamedDSMSegment(SHARED_STATE_NAME, sizeof(SharedState),
										  init_shared_state, &found);
}
#endif

static SharedState *
attached_shared_state(void)
{
	if (shared_state == NULL)
	{
		attach_shared_state();
		if (server_layout != 0 && server_layout != ULID_SHARED_STATE_LAYOUT)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the server-wide ulid generators are in use by another version of the ulid library"),
					 errdetail("The server's generator state has layout %u; this library (ulid %s) has layout %u.",
							   server_layout, ULID_VERSION, ULID_SHARED_STATE_LAYOUT),
					 errhint("Restart the server after installing a new version of the ulid library.")));
#if !ULID_HAVE_DSM_REGISTRY
		if (shared_state == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("could not reserve shared memory for the server-wide ulid generators"),
					 errdetail("Other users (for example a transaction holding many locks) took the shared memory left over at server start before the ulid library was first loaded."),
					 errhint("Add ulid to shared_preload_libraries and restart the server.")));
#endif
	}
	return shared_state;
}

pg_atomic_uint64 *
flake_shared_state(flake_layout layout)
{
	return &attached_shared_state()->flake[layout == FLAKE_SCALABLE ? 1 : 0];
}

/* randomness drawn for the next shared ULID before the lock is taken */
static uint8_t predrawn[ULID_RANDOM_BYTES];

static void
predrawn_random(uint8_t *buf, size_t len)
{
	Assert(len == sizeof(predrawn));
	memcpy(buf, predrawn, len);
}

gen_status
shared_ulid_next(int64 now_ms, uint8_t out[ULID_BYTES])
{
	SharedState *state = attached_shared_state();
	gen_status	status;

	ulid_random_fill(predrawn, sizeof(predrawn));
	SpinLockAcquire(&state->ulid_lock);
	status = ulid_generator_next(&state->ulid, now_ms, predrawn_random, out);
	SpinLockRelease(&state->ulid_lock);
	explicit_bzero(predrawn, sizeof(predrawn));
	return status;
}
