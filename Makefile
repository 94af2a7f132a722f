# Makefile for the ulid extension (PGXS).
#
#   make && make install      build and install into the server of PG_CONFIG
#   make demo                 the extension at work in a throwaway cluster
#   make test                 every test (C unit tests, pg_regress, pgTAP, ...)
#   make bench                benchmarks against uuid in a throwaway cluster
#
# The version lives in ulid.control only.

EXTENSION  = ulid
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = ulid
OBJS = src/module.o src/codec.o src/generator.o src/support.o src/ulid.o src/ulid_flake.o src/flake_shared.o

DATA = $(wildcard ulid--*.sql)

REGRESS = setup ulid_type ulid_time ulid_generate ulid_flake brin
REGRESS_OPTS = --load-extension=$(EXTENSION)

PG_CONFIG ?= pg_config

# Warnings are errors when WERROR=1 (the test command sets it).  Only the
# functions fmgr calls are exported (see src/compat.h).
PG_CFLAGS += -Wall -Wextra -Wno-unused-parameter \
	-fvisibility=hidden
ifeq ($(WERROR),1)
PG_CFLAGS += -Werror
endif
SHLIB_LINK += -Wl,-Bsymbolic

EXTRA_CLEAN = test/unit/test_codec test/unit/test_generator results regression.diffs regression.out

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# C unit tests of the pure codec and generator, under ASan and UBSan.
UNIT_CC ?= $(CC)
UNIT_CFLAGS = -std=c99 -O1 -g -Wall -Wextra -Werror -Isrc \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

test/unit/test_%: test/unit/test_%.c test/unit/unit.h src/codec.c src/codec.h src/generator.c src/generator.h
	$(UNIT_CC) $(UNIT_CFLAGS) -o $@ $< src/codec.c src/generator.c

.PHONY: unittest test demo bench print-version
unittest: test/unit/test_codec test/unit/test_generator
	test/unit/test_codec test/vectors
	test/unit/test_generator test/vectors

test:
	@test/run_tests.sh

demo:
	@test/demo.sh

bench:
	@test/bench/bench.sh

print-version:
	@echo $(EXTVERSION)
