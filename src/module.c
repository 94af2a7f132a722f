/*
 * module.c
 *		The ulid extension's module: magic block and settings.
 */
#include "support.h"

#include "utils/guc.h"

ULID_MODULE_MAGIC;

extern PGDLLEXPORT void _PG_init(void);

int			ulid_flake_node_id_setting = ULID_FLAKE_NODE_ID_UNSET;
int			ulid_flake_entropy_bytes_setting = 1;
int			ulid_flake_overflow_setting = FLAKE_OVERFLOW_WAIT;

static const struct config_enum_entry flake_overflow_options[] = {
	{"wait", FLAKE_OVERFLOW_WAIT, false},
	{"error", FLAKE_OVERFLOW_ERROR, false},
	{NULL, 0, false}
};

void
_PG_init(void)
{
	/* the server's identity: only a superuser, or a role granted it, sets it */
	DefineCustomIntVariable("ulid.flake_node_id",
							"Node id (0 to 31) that ulid_flake_generate_scalable() writes into its ids.",
							"-1, the default, means unset: each writer node must be given its own id.",
							&ulid_flake_node_id_setting,
							ULID_FLAKE_NODE_ID_UNSET,
							ULID_FLAKE_NODE_ID_UNSET, ULID_FLAKE_MAX_NODE_ID,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("ulid.flake_entropy_bytes",
							"Random bytes drawn for the increment between ulid_flake ids of one millisecond.",
							"The increment is uniform in 1 .. 2^(8 * bytes) - 1: more bytes make the next id harder to guess and the millisecond fill up sooner (on average about 4,000 ids a millisecond with 1, 16 with 2). 1 or 2; 1 for the scalable layout.",
							&ulid_flake_entropy_bytes_setting,
							1, 1, 2,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomEnumVariable("ulid.flake_overflow",
							 "What a ulid_flake generator does when a millisecond has no room left.",
							 "wait: wait for the next millisecond (or, with the clock set back behind the last id, move on to the one after it); error: raise an error (SQLSTATE 54000).",
							 &ulid_flake_overflow_setting,
							 FLAKE_OVERFLOW_WAIT,
							 flake_overflow_options,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("ulid");
	reserve_shared_state();
}
