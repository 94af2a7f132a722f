/*
 * shared_state.c
 *		The generator states shared by the sessions of a database, kept in
 *		shared memory: the Ulid-Flake generators' and gen_monotonic_ulid()'s,
 *		and their high-water mark, kept in the database.
 *
 * A Ulid-Flake has only 20 random bits.  If every backend ran its own
 * generator, two sessions generating in the same millisecond would collide
 * often enough for a primary key to fail (the stand-alone layout assumes a
 * single generator).  So the generator state lives in shared memory, one
 * 64-bit word per layout, advanced with compare-and-swap: ids are then
 * unique and increasing across all sessions.
 *
 * gen_monotonic_ulid() promises what pgx_ulid's does: every id greater than
 * any id given before it, in any session.  Its state is 128 bits, too wide
 * for an atomic, so a spinlock guards it; the randomness a new millisecond
 * needs is drawn before the lock is taken, so nothing under it can fail or
 * take long.
 *
 * Shared memory does not outlive the server, and the clock can be behind
 * the last ids after a restart (set back, a VM snapshot, a standby promoted
 * on a machine whose clock is behind).  So each database keeps a high-water
 * mark in a sequence of the extension, ulid_high_water_mark: a Unix
 * millisecond at or above every id these generators gave out in it.  Like a
 * sequence's own prefetch, it is logged ahead, one second past the id that
 * needs it, and flushed before that id is handed out; any row that holds an
 * id comes later in the WAL, so crash recovery, and a standby that has the
 * row, have the mark.  The first time a database generates after the server
 * started, its generators are raised above its mark (covered_by_mark).
 *
 * That is why each database has generators of its own (before 0.5.0 there
 * was one per server): a database's owner may set its mark (its restores
 * do), and a mark set far ahead must not move other databases' ids.
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

#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "tcop/utility.h"
#include "utils/fmgrprotos.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
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
#define ULID_SHARED_STATE_LAYOUT 2
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

#define MARK_SEQUENCE_NAME "ulid_high_water_mark"
#define MARK_LEAD_MS 1000		/* how far ahead the mark is logged */
#define NO_MARK PG_INT64_MIN

/*
 * The generators of one database, and what the server knows of its mark.
 * A slot is given to a database when one of its sessions first generates,
 * and kept until the server stops; the slot of a database dropped since is
 * given again when all are taken.
 */
#define MAX_DATABASES 128

typedef struct DatabaseState
{
	Oid			database;		/* InvalidOid: a free slot */
	/* packed ulid_flake_generator, by layout: stand-alone, scalable */
	pg_atomic_uint64 flake[2];
	/* gen_monotonic_ulid() */
	slock_t		ulid_lock;
	ulid_generator ulid;
	/* the mark, under SharedState.lock */
	Oid			mark_sequence;
	int64		mark_ms;		/* as last read or written; NO_MARK: not read */
	XLogRecPtr	mark_lsn;		/* where it was last written */
} DatabaseState;

typedef struct SharedState
{
	int			tranche;
	LWLock		lock;			/* giving slots; reading and writing marks */
	DatabaseState databases[MAX_DATABASES];
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
reset_database_state(DatabaseState *db, Oid database)
{
	db->database = database;
	pg_atomic_write_u64(&db->flake[0], 0);
	pg_atomic_write_u64(&db->flake[1], 0);
	memset(&db->ulid, 0, sizeof(db->ulid));
	db->mark_sequence = InvalidOid;
	db->mark_ms = NO_MARK;
	db->mark_lsn = InvalidXLogRecPtr;
}

static void
init_shared_state(void *ptr)
{
	SharedState *state = (SharedState *) ptr;

	state->tranche = LWLockNewTrancheId();
	LWLockInitialize(&state->lock, state->tranche);
	for (int i = 0; i < MAX_DATABASES; i++)
	{
		pg_atomic_init_u64(&state->databases[i].flake[0], 0);
		pg_atomic_init_u64(&state->databases[i].flake[1], 0);
		SpinLockInit(&state->databases[i].ulid_lock);
		reset_database_state(&state->databases[i], InvalidOid);
	}
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
		LWLockRegisterTranche(shared_state->tranche, "ulid_generators");
	}
	return shared_state;
}

/*
 * This database's slot: the one it has, a free one, or (with dropped[], the
 * slots whose database was found dropped) one given again; NULL if none.
 * Under the lock.
 */
static DatabaseState *
find_database_slot(SharedState *state, const Oid *dropped)
{
	DatabaseState *free_slot = NULL;

	for (int i = 0; i < MAX_DATABASES; i++)
	{
		DatabaseState *db = &state->databases[i];

		if (db->database == MyDatabaseId)
			return db;
		if (free_slot == NULL &&
			(db->database == InvalidOid ||
			 (dropped != NULL && db->database == dropped[i])))
			free_slot = db;
	}
	if (free_slot != NULL)
		reset_database_state(free_slot, MyDatabaseId);
	return free_slot;
}

/*
 * This database's generators.  When every slot is taken, those of databases
 * dropped since are looked for outside the lock (a catalog lookup may wait
 * for a lock, which must not happen under an LWLock), then given again if
 * still theirs.
 */
static DatabaseState *my_database_state = NULL;

static DatabaseState *
database_state(void)
{
	SharedState *state;
	Oid			dropped[MAX_DATABASES];

	if (my_database_state != NULL)
		return my_database_state;
	state = attached_shared_state();
	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	my_database_state = find_database_slot(state, NULL);
	LWLockRelease(&state->lock);
	if (my_database_state != NULL)
		return my_database_state;

	for (int i = 0; i < MAX_DATABASES; i++)
	{
		Oid			database = state->databases[i].database;

		dropped[i] = SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(database)) ?
			InvalidOid : database;
	}
	LWLockAcquire(&state->lock, LW_EXCLUSIVE);
	my_database_state = find_database_slot(state, dropped);
	LWLockRelease(&state->lock);
	if (my_database_state == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the ulid generators of more than %d databases are in use", MAX_DATABASES),
				 errdetail("The server-wide generators keep the state of each database that used them since the server started."),
				 errhint("Restart the server, or use ulid_generate() (per session) in some databases.")));
	return my_database_state;
}

pg_atomic_uint64 *
flake_shared_state(flake_layout layout)
{
	return &database_state()->flake[layout == FLAKE_SCALABLE ? 1 : 0];
}

/* randomness drawn for the next shared ULID before the lock is taken */
static uint8_t predrawn[ULID_RANDOM_BYTES];

static void
predrawn_random(uint8_t *buf, size_t len)
{
	Assert(len == sizeof(predrawn));
	memcpy(buf, predrawn, len);
}

/*
 * The server-wide generators write their mark, so like nextval() they are
 * refused where nothing may be written: in a read-only transaction, on a
 * standby, in a parallel worker.  Refused always, not only on the calls that
 * move the mark, so that what works in testing works in production.
 */
void
check_server_wide_generation(Oid fn_oid)
{
	if (XactReadOnly || IsInParallelMode())
	{
		char	   *command = psprintf("%s()", get_func_name(fn_oid));

		PreventCommandIfReadOnly(command);
		PreventCommandIfParallelMode(command);
	}
}

/* The mark this backend has seen durable, for its database's sequence. */
static int64 backend_mark_ms = NO_MARK;
static Oid	backend_mark_sequence = InvalidOid;
static bool backend_mark_callback = false;

/*
 * The sequence dropped (DROP EXTENSION, a restore's --clean): forget it.
 * Without a sequence (see missing_mark), any relation created may be it.
 */
static void
forget_backend_mark(Datum arg, Oid relid)
{
	if (relid == InvalidOid || relid == backend_mark_sequence ||
		backend_mark_sequence == InvalidOid)
		backend_mark_ms = NO_MARK;
}

/* The hot path: whether an id at unix_ms is under the mark seen. */
static inline bool
mark_covers(int64 unix_ms)
{
	return unix_ms <= backend_mark_ms;
}

static void
remember_backend_mark(Oid sequence, int64 mark_ms)
{
	if (!backend_mark_callback)
	{
		CacheRegisterRelcacheCallback(forget_backend_mark, (Datum) 0);
		backend_mark_callback = true;
	}
	backend_mark_sequence = sequence;
	backend_mark_ms = mark_ms;
}

/*
 * The extension's SQL is older than its library (0.4.0 and before had no
 * mark): after a package upgrade, until ALTER EXTENSION ulid UPDATE.  The
 * generators go on as those versions did, without a mark, rather than stop
 * every insert; this session says so once.
 */
static void
missing_mark(Oid namespace)
{
	static bool warned = false;

	if (!warned)
		ereport(WARNING,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sequence \"%s.%s\" does not exist",
						get_namespace_name(namespace), MARK_SEQUENCE_NAME),
				 errdetail("Without their high-water mark, the server-wide ulid generators can repeat ids after a restart with the clock set back."),
				 errhint("Update the extension: ALTER EXTENSION ulid UPDATE.")));
	warned = true;
	remember_backend_mark(InvalidOid, PG_INT64_MAX);
}

/*
 * The mark's sequence: the member of the called generator's extension of
 * that name, in its schema.  Locked as nextval() locks a sequence, before
 * our LWLock is taken, so that no wait for a heavyweight lock happens under
 * it.  Returns it and sets *owner; InvalidOid when there is none.
 */
static Oid
lock_mark_sequence(Oid fn_oid, Oid *namespace, Oid *owner)
{
	Oid			sequence;
	HeapTuple	tuple;

	*namespace = get_func_namespace(fn_oid);
	sequence = get_relname_relid(MARK_SEQUENCE_NAME, *namespace);
	/* only the extension's own: not a look-alike planted in its schema */
	if (!OidIsValid(sequence) ||
		getExtensionOfObject(RelationRelationId, sequence) !=
		getExtensionOfObject(ProcedureRelationId, fn_oid))
		return InvalidOid;
	LockRelationOid(sequence, RowExclusiveLock);
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(sequence));
	if (!HeapTupleIsValid(tuple))
		return InvalidOid;		/* dropped while we waited */
	*owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return sequence;
}

/* The mark as the sequence holds it; never written: NO_MARK. */
static int64
read_mark(Oid sequence)
{
	LOCAL_FCINFO(fcinfo, 1);
	Datum		value;

	InitFunctionCallInfoData(*fcinfo, NULL, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = ObjectIdGetDatum(sequence);
	fcinfo->args[0].isnull = false;
	value = pg_sequence_last_value(fcinfo);
	return fcinfo->isnull ? NO_MARK : DatumGetInt64(value);
}

/*
 * Every generator of a database above Unix millisecond floor_ms.  Under the
 * LWLock, not under a spinlock: the randomness a raised ULID generator
 * needs is drawn here, before its spinlock is taken.
 */
static void
raise_generators(DatabaseState *db, int64 floor_ms)
{
	for (int layout = 0; layout < 2; layout++)
	{
		pg_atomic_uint64 *flake = &db->flake[layout];
		uint64		seen = pg_atomic_read_u64(flake);
		ulid_flake_generator gen;

		do
		{
			ulid_flake_generator_unpack(seen, &gen);
			ulid_flake_generator_raise(&gen, floor_ms,
									   layout ? FLAKE_SCALABLE : FLAKE_STANDALONE);
		} while (!pg_atomic_compare_exchange_u64(flake, &seen,
												 ulid_flake_generator_pack(&gen)));
	}
	ulid_random_fill(predrawn, sizeof(predrawn));
	SpinLockAcquire(&db->ulid_lock);
	ulid_generator_raise(&db->ulid, floor_ms, predrawn_random);
	SpinLockRelease(&db->ulid_lock);
	explicit_bzero(predrawn, sizeof(predrawn));
}

/*
 * Whether this database's mark covers an id at unix_ms.  When it does not,
 * the mark is moved to MARK_LEAD_MS past it, WAL-logged and flushed, and
 * false returned: the caller computes its id again, since the generators
 * may have been raised meanwhile.
 *
 * The first time since the server started (or since the extension was
 * created again), the mark is read and the database's generators raised
 * above it, since ids up to it may have been given out before a restart;
 * so is a mark that someone else moved up (a restore's setval).  A mark
 * found below what was written (set back by hand) is written again.  The
 * sequence is written as its owner: the caller may not have the right to,
 * and must not need it.
 */
bool
covered_by_mark(Oid fn_oid, int64 unix_ms)
{
	DatabaseState *db;
	Oid			sequence;
	Oid			namespace;
	Oid			owner;
	Oid			save_user;
	int			save_context;
	int64		durable;
	int64		mark;
	XLogRecPtr	lsn;

	if (mark_covers(unix_ms))
		return true;

	db = database_state();
	sequence = lock_mark_sequence(fn_oid, &namespace, &owner);
	if (!OidIsValid(sequence))
	{
		missing_mark(namespace);
		return true;
	}
	GetUserIdAndSecContext(&save_user, &save_context);
	SetUserIdAndSecContext(owner, save_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	LWLockAcquire(&shared_state->lock, LW_EXCLUSIVE);
	durable = read_mark(sequence);
	if (db->mark_sequence != sequence)
	{
		db->mark_sequence = sequence;
		db->mark_ms = NO_MARK;
		db->mark_lsn = InvalidXLogRecPtr;
	}
	if (durable > db->mark_ms)
	{
		raise_generators(db, durable);
		db->mark_ms = durable;
	}
	if (durable < Max(unix_ms, db->mark_ms))
	{
		mark = Max(unix_ms + MARK_LEAD_MS, db->mark_ms);
		DirectFunctionCall2(setval_oid, ObjectIdGetDatum(sequence), Int64GetDatum(mark));
		db->mark_ms = mark;
		db->mark_lsn = XactLastRecEnd;
	}
	mark = db->mark_ms;
	lsn = db->mark_lsn;
	LWLockRelease(&shared_state->lock);
	SetUserIdAndSecContext(save_user, save_context);

	/* durable before any id under it is handed out */
	if (!XLogRecPtrIsInvalid(lsn))
		XLogFlush(lsn);
	remember_backend_mark(sequence, mark);
	return false;
}

gen_status
shared_ulid_next(Oid fn_oid, int64 now_ms, uint8_t out[ULID_BYTES])
{
	DatabaseState *db = database_state();
	gen_status	status;

	for (;;)
	{
		ulid_generator next;
		int64		id_ms;

		ulid_random_fill(predrawn, sizeof(predrawn));
		SpinLockAcquire(&db->ulid_lock);
		next = db->ulid;
		status = ulid_generator_next(&next, now_ms, predrawn_random, out);
		id_ms = (int64) load_be(out, 6);
		if (status != GEN_OK || mark_covers(id_ms))
		{
			if (status == GEN_OK)
				db->ulid = next;
			SpinLockRelease(&db->ulid_lock);
			break;
		}
		/* covered_by_mark() takes locks: not under the spinlock */
		SpinLockRelease(&db->ulid_lock);
		covered_by_mark(fn_oid, id_ms);
	}
	explicit_bzero(predrawn, sizeof(predrawn));
	return status;
}
