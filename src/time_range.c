/*
 * time_range.c
 *		Time ranges by id: "id <@ tstzrange(a, b)" for both types, the ids
 *		that bound a time range, and the planner support function that lets
 *		an index on id answer the operator.
 *
 * An id's time is its millisecond, so "id <@ r" holds when that millisecond
 * (as a timestamptz) is in r.  Every such id lies between the lowest id of
 * r's first millisecond and the highest id of its last one, which is what
 * the planner support function hands to a btree or BRIN index on id: two
 * range conditions, lossy, with the operator itself rechecked on each row.
 * Unbounded and infinite ends of the range put no bound on that side.
 */
#include "support.h"

#include "access/brin_internal.h"
#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"

/*
 * The millisecond that a bound of a time range puts first (lower) or last
 * (upper): an id's time is the start instant of its millisecond, so the
 * first one is the lower bound rounded up, and one more when an exclusive
 * bound falls on a millisecond's start; the last one is the upper bound
 * rounded down, and one less likewise.  Infinite bounds stand beyond
 * [min_ms, max_ms].
 */
static int64
bound_ms(const RangeBound *bound, int64 min_ms, int64 max_ms)
{
	TimestampTz ts;
	int64		ms;
	bool		on_ms_start;

	if (bound->infinite)
		return bound->lower ? min_ms : max_ms;
	ts = DatumGetTimestampTz(bound->val);
	if (TIMESTAMP_IS_NOBEGIN(ts))
		return bound->lower ? min_ms : min_ms - 1;
	if (TIMESTAMP_IS_NOEND(ts))
		return bound->lower ? max_ms + 1 : max_ms;
	ms = unix_ms_floor(ts);
	on_ms_start = ts % 1000 == 0;
	if (bound->lower)
		return (on_ms_start && bound->inclusive) ? ms : ms + 1;
	return (on_ms_start && !bound->inclusive) ? ms - 1 : ms;
}

/*
 * The first and last Unix millisecond of [min_ms, max_ms] whose start is in
 * the time range; false when there is none: an empty range, one that lies
 * between two milliseconds' starts, or one wholly outside the type's span.
 */
static bool
range_ms_bounds(FunctionCallInfo fcinfo, int64 min_ms, int64 max_ms,
				int64 *first_ms, int64 *last_ms)
{
	RangeType  *range = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	RangeBound	lower,
				upper;
	bool		empty;

	range_deserialize(typcache, range, &lower, &upper, &empty);
	if (empty)
		return false;
	*first_ms = Max(bound_ms(&lower, min_ms, max_ms), min_ms);
	*last_ms = Min(bound_ms(&upper, min_ms, max_ms), max_ms);
	return *first_ms <= *last_ms;
}

/* Is the millisecond unix_ms in the time range r? */
static bool
ms_in_range(FunctionCallInfo fcinfo, int64 unix_ms, RangeType *r)
{
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(r));

	return range_contains_elem_internal(typcache, r,
										TimestampTzGetDatum(unix_ms_to_timestamptz(unix_ms)));
}

PG_FUNCTION_INFO_V1(ulid_in_time_range);
Datum
ulid_in_time_range(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ms_in_range(fcinfo, ulid_datum_unix_ms(PG_GETARG_DATUM(0)),
							   PG_GETARG_RANGE_P(1)));
}

PG_FUNCTION_INFO_V1(ulid_flake_in_time_range);
Datum
ulid_flake_in_time_range(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ms_in_range(fcinfo, ulid_flake_datum_unix_ms(PG_GETARG_DATUM(0)),
							   PG_GETARG_RANGE_P(1)));
}

typedef Datum (*id_of_ms) (int64 unix_ms, bool highest);

/*
 * The lowest (or highest) id whose time is in the time range, made by
 * make_id; NULL when no millisecond of the type is in the range, so that
 * "id BETWEEN ulid_range_min(r) AND ulid_range_max(r)" matches nothing.
 */
static Datum
range_bound(FunctionCallInfo fcinfo, int64 min_ms, int64 max_ms, id_of_ms make_id,
			bool highest)
{
	int64		first_ms,
				last_ms;

	if (!range_ms_bounds(fcinfo, min_ms, max_ms, &first_ms, &last_ms))
		PG_RETURN_NULL();
	return highest ? make_id(last_ms, true) : make_id(first_ms, false);
}

/* ulid_range_min(tstzrange), ulid_range_max(tstzrange), and for ulid_flake */
PG_FUNCTION_INFO_V1(ulid_range_min);
Datum
ulid_range_min(PG_FUNCTION_ARGS)
{
	return range_bound(fcinfo, 0, ULID_MAX_UNIX_MS, ulid_datum_bound, false);
}

PG_FUNCTION_INFO_V1(ulid_range_max);
Datum
ulid_range_max(PG_FUNCTION_ARGS)
{
	return range_bound(fcinfo, 0, ULID_MAX_UNIX_MS, ulid_datum_bound, true);
}

#define FLAKE_MIN_MS ULID_FLAKE_EPOCH_UNIX_MS
#define FLAKE_MAX_MS (ULID_FLAKE_EPOCH_UNIX_MS + ULID_FLAKE_MAX_MS)

PG_FUNCTION_INFO_V1(ulid_flake_range_min);
Datum
ulid_flake_range_min(PG_FUNCTION_ARGS)
{
	return range_bound(fcinfo, FLAKE_MIN_MS, FLAKE_MAX_MS, ulid_flake_datum_bound, false);
}

PG_FUNCTION_INFO_V1(ulid_flake_range_max);
Datum
ulid_flake_range_max(PG_FUNCTION_ARGS)
{
	return range_bound(fcinfo, FLAKE_MIN_MS, FLAKE_MAX_MS, ulid_flake_datum_bound, true);
}

/* The function schema.name(tstzrange) of the extension. */
static Oid
bound_function(Oid sibling, const char *name)
{
	Oid			argtype = TSTZRANGEOID;
	List	   *qualified = list_make2(makeString(get_namespace_name(get_func_namespace(sibling))),
									   makeString(pstrdup(name)));

	return LookupFuncName(qualified, 1, &argtype, false);
}

/*
 * Does the index's operator family order keytype as btree does, so that its
 * strategies 2 and 4 are <= and >=?  A btree family, or a BRIN minmax or
 * minmax-multi one (told apart from inclusion and bloom by their opcinfo
 * support function); any other access method may number its strategies
 * otherwise.
 */
static bool
orders_like_btree(IndexOptInfo *index, Oid opfamily, Oid keytype)
{
	Oid			opcinfo;

	if (index->relam == BTREE_AM_OID)
		return true;
	if (index->relam != BRIN_AM_OID)
		return false;
	opcinfo = get_opfamily_proc(opfamily, keytype, keytype, BRIN_PROCNUM_OPCINFO);
	return opcinfo == F_BRIN_MINMAX_OPCINFO || ULID_IS_BRIN_MINMAX_MULTI_OPCINFO(opcinfo);
}

/*
 * "key <@ range" as "key >= range_min(range) AND key <= range_max(range)" for an
 * index on key whose operator family orders the type (btree, BRIN minmax).
 * The range may come from another relation of a join (a parameterized index
 * scan), as long as it does not involve the indexed one.
 */
static List *
time_range_index_conditions(SupportRequestIndexCondition *req)
{
	List	   *args;
	Node	   *key;
	Node	   *range;
	Oid			keytype;
	Oid			ge,
				le;
	bool		is_ulid;
	Expr	   *lower,
			   *upper;

	if (is_opclause(req->node))
		args = ((OpExpr *) req->node)->args;
	else if (is_funcclause(req->node))
		args = ((FuncExpr *) req->node)->args;
	else
		return NIL;
	if (req->indexarg != 0 || list_length(args) != 2)
		return NIL;
	key = linitial(args);
	range = lsecond(args);
	if (!ulid_is_pseudo_constant_for_index(req->root, range, req->index))
		return NIL;

	/*
	 * The type the operator class is for: ulid or ulid_flake, also for a
	 * column of a domain over either.
	 */
	keytype = req->index->opcintype[req->indexcol];
	if (keytype != getBaseType(exprType(key)) ||
		!orders_like_btree(req->index, req->opfamily, keytype))
		return NIL;
	ge = get_opfamily_member(req->opfamily, keytype, keytype, BTGreaterEqualStrategyNumber);
	le = get_opfamily_member(req->opfamily, keytype, keytype, BTLessEqualStrategyNumber);
	if (!OidIsValid(ge) || !OidIsValid(le))
		return NIL;


	/* ulid is 16 bytes, ulid_flake 8 */
	is_ulid = get_typlen(keytype) == ULID_BYTES;
	lower = (Expr *) makeFuncExpr(bound_function(req->funcid, is_ulid ? "ulid_range_min" : "ulid_flake_range_min"),
								  keytype, list_make1(copyObject(range)),
								  InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	upper = (Expr *) makeFuncExpr(bound_function(req->funcid, is_ulid ? "ulid_range_max" : "ulid_flake_range_max"),
								  keytype, list_make1(copyObject(range)),
								  InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	req->lossy = true;
	return list_make2(make_opclause(ge, BOOLOID, false, (Expr *) copyObject(key), lower,
									InvalidOid, InvalidOid),
					  make_opclause(le, BOOLOID, false, (Expr *) copyObject(key), upper,
									InvalidOid, InvalidOid));
}

/* Planner support for ulid_in_time_range and ulid_flake_in_time_range. */
PG_FUNCTION_INFO_V1(ulid_time_range_support);
Datum
ulid_time_range_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestIndexCondition))
		PG_RETURN_POINTER(time_range_index_conditions((SupportRequestIndexCondition *) rawreq));
	PG_RETURN_POINTER(NULL);
}
