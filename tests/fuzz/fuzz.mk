# tests/fuzz/fuzz.mk - the fuzz targets (tests/fuzz/README.md), included by
# the Makefile.
#
#   make fuzz          libFuzzer (clang) + ASan + UBSan in build-fuzz/: each
#                      target runs FUZZ_SECONDS (default 60) from the seeds
#                      and tests/fuzz/regressions/ (tests/fuzz/run.sh)
#   make fuzz-dict     regenerates the committed dictionaries from the schema
#   make coverage      gcc --coverage build in build-cov/: `make test`'s
#                      steps, then line coverage of core/ lint/ fix/
#                      (scripts/coverage.py, gcov)
# `make test` replays the seeds and regressions through every target, built
# with tests/fuzz/replay_main.c by the normal compiler (tests/fuzz/replay.sh).

FUZZ_SECONDS ?= 60
FUZZ_TARGETS := lint fix textform
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_UTIL    := $(BUILD)/tests/fuzz/fuzz_util.o

.PHONY: fuzz _fuzz fuzz-dict _fuzz-dict coverage

# Explicit rules (not patterns), so make keeps the objects.
define FUZZ_RULES
$(BUILD)/fuzz/replay_$(1): $(BUILD)/tests/fuzz/fuzz_$(1).o $(FUZZ_UTIL) $(BUILD)/tests/fuzz/replay_main.o $(BUILD)/libw3dlint.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS_ALL)

# The libFuzzer binary: everything is compiled with -fsanitize=fuzzer-no-link
# (coverage feedback) by `make fuzz`, only this links libFuzzer's main.
$(BUILD)/fuzz/fuzz_$(1): $(BUILD)/tests/fuzz/fuzz_$(1).o $(FUZZ_UTIL) $(BUILD)/libw3dlint.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -fsanitize=fuzzer -o $$@ $$^ $$(LDLIBS_ALL)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_RULES,$(t))))

# The seeds: gen_demo's models and corpus/'s text cases, assembled, plus
# their text forms (tests/fuzz/seeds.sh); never the real-file corpus.
$(BUILD)/fuzz/seeds/.stamp: tests/fuzz/seeds.sh $(BUILD)/gen_demo $(BUILD)/w3dasm $(BUILD)/w3ddump \
		$(BUILD)/gen_p3d_seeds $(shell find corpus -name '*.txt' -o -type d 2>/dev/null)
	sh tests/fuzz/seeds.sh $(BUILD)/fuzz/seeds $(BUILD)/gen_demo $(BUILD)/w3dasm $(BUILD)/w3ddump \
		$(BUILD)/gen_p3d_seeds
	@touch $@

_test: $(FUZZ_REPLAYS) $(BUILD)/fuzz/seeds/.stamp

$(BUILD)/fuzz/gen_dict: $(BUILD)/tests/fuzz/gen_dict.o $(BUILD)/libw3dlint.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/fuzz/w3d.dict: $(BUILD)/fuzz/gen_dict
	$(BUILD)/fuzz/gen_dict > $@

$(BUILD)/fuzz/textform.dict: $(BUILD)/fuzz/gen_dict
	$(BUILD)/fuzz/gen_dict --text > $@

fuzz: deps
	@sh scripts/setup-deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang \
		CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" LDFLAGS="$(FUZZ_SAN)" _fuzz

_fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%) $(BUILD)/fuzz/seeds/.stamp \
		$(BUILD)/fuzz/w3d.dict $(BUILD)/fuzz/textform.dict
	@cmp -s $(BUILD)/fuzz/w3d.dict tests/fuzz/w3d.dict && cmp -s $(BUILD)/fuzz/textform.dict tests/fuzz/textform.dict || \
		echo "fuzz: note: the schema changed since tests/fuzz/*.dict were generated (make fuzz-dict)"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		sh tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-dict: deps
	@$(MAKE) --no-print-directory _fuzz-dict

_fuzz-dict: $(BUILD)/fuzz/w3d.dict $(BUILD)/fuzz/textform.dict
	cp $(BUILD)/fuzz/w3d.dict $(BUILD)/fuzz/textform.dict tests/fuzz/

# Counters start from zero on every run; objects are rebuilt only when
# their sources changed.  Every step of make test runs even when one fails
# (make -i: the figures count what ran, and a note says a step failed).
# COVERAGE_MIN=85 makes a total below 85% fail the target.
COVERAGE_MIN ?= 0
coverage: deps
	@sh scripts/setup-deps.sh coverage
	@mkdir -p build-cov
	@find build-cov -name '*.gcda' -delete
	@$(MAKE) --no-print-directory -i BUILD=build-cov CC=gcc CFLAGS="-O0 -g --coverage" \
		LDFLAGS="--coverage" _test 2>&1 | tee build-cov/test.log
	@! grep -q 'Error [0-9]* (ignored)' build-cov/test.log || \
		echo "coverage: note: a step of make test failed (build-cov/test.log); the figures count what ran"
	python3 scripts/coverage.py --min $(COVERAGE_MIN) build-cov core lint fix
