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

#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"

/*
 * The Unix milliseconds of the first and last instant of a time range,
 * clamped to [min_ms, max_ms]; false for an empty range.
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
	*first_ms = lower.infinite ? min_ms :
		clamped_unix_ms(DatumGetTimestampTz(lower.val), min_ms, max_ms);
	*last_ms = upper.infinite ? max_ms :
		clamped_unix_ms(DatumGetTimestampTz(upper.val), min_ms, max_ms);
	return true;
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
 * make_id; for an empty range, the other extreme, so that no id lies
 * between the lowest and the highest.
 */
static Datum
range_bound(FunctionCallInfo fcinfo, int64 min_ms, int64 max_ms, id_of_ms make_id,
			bool highest)
{
	int64		first_ms,
				last_ms;

	if (!range_ms_bounds(fcinfo, min_ms, max_ms, &first_ms, &last_ms))
		return highest ? make_id(min_ms, false) : make_id(max_ms, true);
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
 * "key <@ range" as "key >= range_min(range) AND key <= range_max(range)" for an
 * index on key whose operator family orders the type (btree, BRIN minmax).
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
	if (!is_pseudo_constant_clause(range))
		return NIL;

	keytype = exprType(key);
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
