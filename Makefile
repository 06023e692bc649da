# w3dlint - lint and repair for chunk-based 3D model files (W3D first).
# Quick start: `make demo`, tests: `make test`.  See README.md.

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
DEPS     = yaml-0.1 libpcre2-8 jansson
TESTDEPS = check
WARN     = -std=c11 -Wall -Wextra -Wshadow -Wvla -Wstrict-prototypes \
           -Wwrite-strings -Wpointer-arith -Wformat=2 -Wundef -Wcast-qual \
           -Wmissing-prototypes -Wno-missing-field-initializers
DEFS     = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
PKG_CFLAGS := $(shell pkg-config --cflags $(DEPS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(DEPS) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags $(TESTDEPS) 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs $(TESTDEPS) 2>/dev/null)
ALL_CFLAGS = $(WARN) $(DEFS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP
LDLIBS_ALL = $(PKG_LIBS) -lm -lpthread

CORE_SRC  := $(wildcard core/*.c core/w3d/*.c)
LINT_SRC  := $(filter-out lint/main_%.c,$(wildcard lint/*.c))
FIX_SRC   := $(filter-out fix/main_%.c,$(wildcard fix/*.c))
RULES     := $(sort $(wildcard rules/*.yaml))
LIB_OBJ   := $(CORE_SRC:%.c=$(BUILD)/%.o) $(LINT_SRC:%.c=$(BUILD)/%.o) \
             $(FIX_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/rules_blob.o
TEST_SRC  := $(wildcard tests/*.c)
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/%.o)
PROGS     := $(BUILD)/w3dlint

.PHONY: all test unit sweep demo bench asan install clean deps
all: deps $(PROGS)

# Installs missing Debian packages (libyaml, PCRE2, jansson, Check,
# pkg-config, a compiler) through scripts/setup-deps.sh when pkg-config
# cannot find them.
deps:
	@sh scripts/setup-deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c $< -o $@

$(BUILD)/gen/rules_blob.c: $(RULES) scripts/embed-rules.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-rules.sh $@ $(RULES)

$(BUILD)/gen/rules_blob.o: $(BUILD)/gen/rules_blob.c
	$(CC) -std=c11 $(CFLAGS) -c $< -o $@

$(BUILD)/libw3dlint.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/w3dlint: $(BUILD)/lint/main_w3dlint.o $(BUILD)/libw3dlint.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

# Every tests/check_*.c defines one `Suite *NAME_suite(void)`; the list is
# generated so that adding a test file needs no edit elsewhere.
$(BUILD)/gen/suites.h: $(TEST_SRC)
	@mkdir -p $(dir $@)
	grep -ho '^Suite \*[a-z0-9_]*_suite(void)' $(TEST_SRC) | sed 's/^Suite \*\(.*\)(void)/X(\1)/' | sort > $@.tmp
	mv $@.tmp $@

$(BUILD)/tests/check_main.o: $(BUILD)/gen/suites.h
$(BUILD)/tests/check_main.o: ALL_CFLAGS += -I$(BUILD)/gen

$(BUILD)/unit_tests: $(TEST_OBJ) $(BUILD)/libw3dlint.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS_ALL)

unit: deps $(BUILD)/unit_tests $(BUILD)/w3dlint
	W3DLINT=$(BUILD)/w3dlint $(BUILD)/unit_tests

test: unit

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
