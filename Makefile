# Makefile for the ulid extension (PGXS).
#
#   make && make install      build and install into the server of PG_CONFIG
#   make deps                 install (as root, with apt-get) what the build
#                             and the tests use
#   make demo                 the extension at work in a throwaway cluster
#   make test                 every test (C unit tests, pg_regress, pgTAP, ...)
#   make bench                benchmarks against uuid in a throwaway cluster
#   make dist                 the release zip (PGXN layout, META.json)
#   make deb-check            the Debian package built and tested in a clean chroot
#
# The version lives in ulid.control only.

EXTENSION  = ulid
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = ulid
OBJS = src/module.o src/codec.o src/generator.o src/support.o src/ulid.o src/ulid_flake.o src/shared_state.o src/time_range.o

# The install and update scripts are installed as built into build/ by
# test/tools/script_filter.awk: the lines between "-- @if pgN" and
# "-- @endif" (BRIN classes PostgreSQL 14 brought, skip support from 18) are
# dropped for majors before N, so that a fresh install needs no DO block.
# A database that pg_upgrade brought from an older major lacks them: the
# update scripts to this version end with those blocks, each in a DO block
# that creates what is missing, and so does an update to this version's
# "-pg_upgrade" twin and back, for a database already at this version:
#   ALTER EXTENSION ulid UPDATE TO '0.4.0-pg_upgrade'; ALTER EXTENSION ulid UPDATE;
# A directive the filter does not know, or a block left open, stops the build.
EXT_SCRIPTS = $(wildcard $(EXTENSION)--*.sql)
REPAIR_VERSION = $(EXTVERSION)-pg_upgrade
DATA_built = $(addprefix build/,$(EXT_SCRIPTS)) \
	build/$(EXTENSION)--$(EXTVERSION)--$(REPAIR_VERSION).sql \
	build/$(EXTENSION)--$(REPAIR_VERSION)--$(EXTVERSION).sql

REGRESS = setup ulid_type ulid_time ulid_generate ulid_flake compat time_range sort brin plans
REGRESS_OPTS = --load-extension=$(EXTENSION)

PG_CONFIG ?= pg_config

# Only the functions fmgr calls are exported: what the headers of src/
# declare is hidden (#pragma GCC visibility), the rest is static; the test
# command checks the exported symbols, and that every file compiles without
# a warning (make check-warnings).  Paths in the debugging information are
# relative to the tree, so the same sources build the same library wherever
# they are checked out (make test compares it with the installed one).
PG_CFLAGS += -Wall -Wextra -Wno-unused-parameter -ffile-prefix-map=$(CURDIR)=.
PG_CPPFLAGS += -DULID_VERSION='"$(EXTVERSION)"'

EXTRA_CLEAN = build test/unit/test_codec test/unit/test_generator results regression.diffs regression.out test/fuzz/fuzz_ulid test/fuzz/fuzz_ulid_flake test/fuzz/corpus

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Calls within the module bind to the module (other ULID extensions export
# functions of the same names); a GNU-style linker option, used only there.
ifeq ($(with_gnu_ld),yes)
SHLIB_LINK += -Wl,-Bsymbolic
endif

# Without the server's headers (Debian's postgresql-server-dev-NN, which a
# bare 'sudo make install' may be the first to need) nothing builds: make
# prints the command that installs them, and installs nothing itself (a
# build does not change the system; make demo, make test and make deps do).
ifeq ($(wildcard $(includedir_server)/postgres.h),)
$(OBJS) $(OBJS:.o=.bc): | server-headers
.PHONY: server-headers
server-headers:
	@test/lib/deps.sh build --no-install
endif

# A header change rebuilds what includes it.
$(OBJS): $(wildcard src/*.h)

# BRIN minmax-multi and bloom exist from PostgreSQL 14 on, soft input
# errors (pg_input_is_valid) from 16 on.
ifeq ($(shell test $(MAJORVERSION) -ge 14 && echo yes),yes)
REGRESS += brin_multi
endif

# rebuilt when built for another major
SCRIPT_FILTER = awk -v major=$(MAJORVERSION) -f test/tools/script_filter.awk
build/.major-$(MAJORVERSION):
	@rm -rf build && mkdir -p build && touch $@
build/%.sql: %.sql build/.major-$(MAJORVERSION) test/tools/script_filter.awk
	$(SCRIPT_FILTER) -v mode=install $< >$@.tmp && mv $@.tmp $@
# The module's C functions that call core's (ULID_CALLS_CORE in src/): up to
# 0.4.0 their SQL functions were LANGUAGE internal aliases of core's, so each
# update to this version ends with their definitions (where they are C
# functions already, it changes nothing).  The update from 0.4.0 must keep
# them when a later version is made the current one.
CORE_CALLERS = $(shell sed -n 's/^ULID_CALLS_CORE(\([a-z_0-9]*\), [a-z_0-9]*);$$/\1/p' src/*.c)
# an update to this version: and what a fresh install on this major has, then
# the install script's definitions of the functions that call core's
build/$(EXTENSION)--%--$(EXTVERSION).sql: $(EXTENSION)--%--$(EXTVERSION).sql $(EXTENSION)--$(EXTVERSION).sql \
		build/.major-$(MAJORVERSION) test/tools/script_filter.awk $(wildcard src/*.c)
	{ $(SCRIPT_FILTER) -v mode=install $< && \
	  $(SCRIPT_FILTER) -v mode=repair $(EXTENSION)--$(EXTVERSION).sql && \
	  echo "-- The functions that call core's, as $(EXTENSION)--$(EXTVERSION).sql defines them" && \
	  $(SCRIPT_FILTER) -v mode=replace -v functions="$(CORE_CALLERS)" $(EXTENSION)--$(EXTVERSION).sql; \
	} >$@.tmp && mv $@.tmp $@
build/$(EXTENSION)--$(EXTVERSION)--$(REPAIR_VERSION).sql: $(EXTENSION)--$(EXTVERSION).sql \
		build/.major-$(MAJORVERSION) test/tools/script_filter.awk
	{ printf '%s\n' "/* $(notdir $@), made by the build from $< */" \
	    "\\echo Use \"ALTER EXTENSION $(EXTENSION) UPDATE TO '$(REPAIR_VERSION)'\" to load this file. \\quit" \
	    "-- After pg_upgrade from an older major: what a fresh install on this one has."; \
	  $(SCRIPT_FILTER) -v mode=repair $<; } >$@.tmp && mv $@.tmp $@
build/$(EXTENSION)--$(REPAIR_VERSION)--$(EXTVERSION).sql: build/.major-$(MAJORVERSION)
	printf '%s\n' "/* $(notdir $@), made by the build */" \
	    "\\echo Use \"ALTER EXTENSION $(EXTENSION) UPDATE\" to load this file. \\quit" \
	    "-- Back to $(EXTVERSION), with nothing to do: see $(EXTENSION)--$(EXTVERSION)--$(REPAIR_VERSION).sql." >$@
ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo yes),yes)
REGRESS += soft_errors
endif
ifeq ($(shell test $(MAJORVERSION) -ge 18 && echo yes),yes)
REGRESS += skip_scan
endif
# last: it drops the extension to install and update each version
REGRESS += upgrade

# C unit tests of the pure codec and generator, under ASan and UBSan.
UNIT_CC ?= $(CC)
UNIT_CFLAGS = -std=c99 -O1 -g -Wall -Wextra -Werror -Isrc \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

test/unit/test_%: test/unit/test_%.c test/unit/unit.h src/codec.c src/codec.h src/generator.c src/generator.h
	$(UNIT_CC) $(UNIT_CFLAGS) -o $@ $< src/codec.c src/generator.c

.PHONY: unittest test demo bench print-version matrix check-warnings deps
unittest: test/unit/test_codec test/unit/test_generator
	test/unit/test_codec test/vectors
	test/unit/test_generator test/vectors

test:
	@test/run_tests.sh

# what the build and every test suite use, installed as root with apt-get
deps:
	@test/lib/deps.sh test

# every C file compiled with -Werror, the objects thrown away
check-warnings:
	@for f in $(OBJS:.o=.c); do $(CC) $(CFLAGS) $(CPPFLAGS) -Werror -c -o /dev/null $$f || exit 1; done

demo:
	@test/tools/demo.sh

# the whole suite on PostgreSQL 13 (clang), 17 and 18, each built from
# Debian's sources into ULID_PG_CACHE (default /var/cache/ulid-pg) once
matrix:
	@test/matrix.sh $(MAJORS)

bench:
	@test/tools/bench/bench.sh

print-version:
	@echo $(EXTVERSION)

# Fuzzing the codec's decoders (clang, libFuzzer; Debian's libclang-rt-14-dev).
#   make fuzz FUZZ_RUNS=10000000     or     make fuzz FUZZ_SECONDS=60
FUZZ_CC ?= clang
FUZZ_RUNS ?= 10000000
FUZZ_SECONDS ?= 0
FUZZ_FLAGS = -g -O1 -Isrc -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CORPUS = test/fuzz/corpus

test/fuzz/fuzz_ulid: test/fuzz/fuzz_decode.c src/codec.c src/codec.h
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_ULID -o $@ test/fuzz/fuzz_decode.c src/codec.c
test/fuzz/fuzz_ulid_flake: test/fuzz/fuzz_decode.c src/codec.c src/codec.h
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_ULID_FLAKE -o $@ test/fuzz/fuzz_decode.c src/codec.c

.PHONY: fuzz
fuzz: test/fuzz/fuzz_ulid test/fuzz/fuzz_ulid_flake
	test/fuzz/seed_corpus.sh $(FUZZ_CORPUS)
	for t in ulid ulid_flake; do \
		test/fuzz/fuzz_$$t -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 $(FUZZ_CORPUS)/$$t || exit 1; \
	done

# The regression suite against a server under valgrind (slow).
.PHONY: valgrind
valgrind:
	@test/suites/valgrind.sh

# The sort suite against mutants of the sort support (make test runs it
# too): each must fail it.  About 5 minutes.
.PHONY: sort-mutants
sort-mutants: all
	@test/lib/install_if_needed.sh sort-mutants && test/suites/sort_mutants.sh

# The sort support against tables drawn at random, in a throwaway cluster,
# for SORT_FUZZ_SECONDS from SORT_FUZZ_SEED on (make test runs 64 trials of
# fixed seeds).  A failing trial keeps its ids in test/output/sort_fuzz/ and
# prints the command that replays it (SORT_FUZZ_AT).
SORT_FUZZ_SECONDS ?= 600
SORT_FUZZ_SEED ?= 1000
.PHONY: sort-fuzz
sort-fuzz: all
	@test/lib/install_if_needed.sh sort-fuzz && \
		SORT_FUZZ_SECONDS=$(SORT_FUZZ_SECONDS) SORT_FUZZ_SEED=$(SORT_FUZZ_SEED) \
		test/lib/cluster.sh test/suites/sort_fuzz.sh

# The Debian package as a packager builds it: dpkg-buildpackage in a clean
# Debian 12 chroot (debootstrapped once into ULID_CHROOT_CACHE, default
# /var/cache/ulid-chroot), its build-time tests, lintian, and autopkgtest in a
# second fresh chroot; logs and .deb files in test/output/debian/.  As root.
.PHONY: deb-check
deb-check:
	@test/suites/debian_package.sh

# A PGXN release zip of the committed tree: ulid-VERSION.zip.
DIST = $(EXTENSION)-$(EXTVERSION).zip
.PHONY: dist
dist:
	git archive --format zip --prefix=$(EXTENSION)-$(EXTVERSION)/ -o $(DIST) HEAD
	@echo "wrote $(DIST)"

# Static analysis of src/: cppcheck and clang-tidy; any finding fails.
# (unknownEvaluationOrder: cppcheck takes the compound literals of
# list_make2()'s expansion for side effects, even of two plain variables.)
.PHONY: lint
lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--inline-suppr -Isrc src/codec.c src/generator.c
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		-Isrc -I$(shell $(PG_CONFIG) --includedir-server) --suppress=missingIncludeSystem --suppress=toomanyconfigs \
		--suppress=unknownEvaluationOrder \
		--suppress='*:$(shell $(PG_CONFIG) --includedir-server)/*' src/*.c
	clang-tidy --quiet src/*.c -- -Isrc -I$(shell $(PG_CONFIG) --includedir-server) -D_GNU_SOURCE $(PG_CPPFLAGS)

# The concurrency test at full size: 8 sessions x 100,000 inserts of each
# type, with and without the library preloaded (minutes).
.PHONY: stress
stress:
	make -s install
	ULID_CONCURRENCY_ROWS=100000 test/lib/cluster.sh test/suites/concurrency.sh
	ULID_CONCURRENCY_ROWS=100000 ULID_SERVER_OPTS="-c shared_preload_libraries=ulid" test/lib/cluster.sh test/suites/concurrency.sh

# a database using both types through pg_upgrade to a newer major; needs
# the extension installed into both servers (not part of make test):
#   make pg-upgrade-check NEW_PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config
.PHONY: pg-upgrade-check
pg-upgrade-check:
	OLD_PG_CONFIG=$(PG_CONFIG) test/suites/pg_upgrade_check.sh

# ulid and ulid_flake as Citus distribution columns on a local 3-node
# cluster; needs Citus installed into the server (not part of make test).
.PHONY: citus-check
citus-check:
	make -s install
	test/suites/citus_check.sh
