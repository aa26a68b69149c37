# loop.mk -- how the chapters' tests are compiled, included by the course's
# Makefile and by the handout's (tests/grade/handout.mk), so both build alike.
#
# Each test binary is linked from cached objects: after you edit your exercise,
# make check recompiles that one file and relinks (tens of milliseconds), not the
# tests and the library as well.
#
#   build/ex/NN-topic/test      the tests against your exercises/      (make check),
#                               under AddressSanitizer + UBSan (CHALK_SANITIZE=0: not)
#   build/sol/NN-topic/test     against solutions/ (when there is one) (make test)
#   build/asan/NN-topic/test    solutions/ under AddressSanitizer + UBSan
#
#   build/obj/FLAGS/lib/*.o              lib/
#   build/obj/FLAGS/NN-topic/tests/*.o   tests/NN-topic/*.c, with tests/loop/runner.h
#   build/obj/FLAGS/NN-topic/ex/*.o      exercises/NN-topic/*.c
#   build/obj/FLAGS/NN-topic/sol/*.o     solutions/NN-topic/*.c
#   build/obj/check[san]/NN-topic/ex/*.o exercises/NN-topic/*.c as make check builds
#                                        them: every warning shown (in FILE.o.log),
#                                        none fatal, as the grader (-w) takes them
#   build/rules/NN-topic/FILE.txt        the grader's source and object rules on
#                                        exercises/NN-topic/FILE.c (tests/loop/rules.sh)
# FLAGS is plain ($(CFLAGS)) or asan ($(CFLAGS) $(SANITIZE)). runner.h is
# force-included into every test file: CHALK_LIST, CHALK_ONLY and CHALK_VALUES (see
# it) change nothing unless set.

# (including this file leaves make's default goal as it was)
loop_default_goal := $(.DEFAULT_GOAL)

CC ?= cc
CFLAGS = -std=c11
CFLAGS += -O1 -g
CFLAGS += -Wall
CFLAGS += -Wextra
CFLAGS += -Wpedantic
CFLAGS += -Werror
CFLAGS += -Wshadow
CFLAGS += -Wmissing-prototypes
CFLAGS += -Wstrict-prototypes
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS = -lcmocka -lm
FLAGS_plain = $(CFLAGS)
FLAGS_asan = $(CFLAGS) $(SANITIZE)
# make check: your files with the warnings on and none an error (a warning never
# hides your results; the grader compiles with -w), under the sanitizers unless
# CHALK_SANITIZE=0; the tests and lib/ linked with them are the asan (or plain) objects.
CHALK_SANITIZE ?= 1
CHECK_KEY := $(if $(filter 0,$(CHALK_SANITIZE)),check,checksan)
CHECK_WITH := $(if $(filter 0,$(CHALK_SANITIZE)),plain,asan)
FLAGS_check = $(filter-out -Werror,$(CFLAGS)) -fdiagnostics-color=never
FLAGS_checksan = $(FLAGS_check) $(SANITIZE)

CHAPTERS := $(sort $(notdir $(wildcard tests/[0-9][0-9]-*)))
LIB_SRC := $(wildcard lib/*.c)
LIB_H := $(wildcard lib/*.h)
# The chapters named by CH=01 (CH='01 02': both; every chapter when CH is empty),
# or nothing when a word of CH names no chapter (the goals then say so). The value
# is only matched here, never run: the scripts read CH from the environment.
CH ?=
PICK := $(if $(CH),$(if $(strip $(foreach c,$(CH),$(if $(filter $(c)%,$(CHAPTERS)),,x))),,\
	$(sort $(foreach c,$(CH),$(filter $(c)%,$(CHAPTERS))))),$(CHAPTERS))

# objs_of(flags, chapter, subdir, source files): their objects
objs_of = $(patsubst %.c,build/obj/$(1)/$(2)/$(3)/%.o,$(notdir $(4)))
lib_objs = $(patsubst lib/%.c,build/obj/$(1)/lib/%.o,$(LIB_SRC))
test_objs = $(call objs_of,$(1),$(2),tests,$(wildcard tests/$(2)/*.c))
# the tree's sources (exercises or solutions) of a chapter as objects
tree_dir = $(if $(filter ex,$(1)),exercises,solutions)
tree_objs = $(call objs_of,$(1),$(2),$(3),$(wildcard $(call tree_dir,$(3))/$(2)/*.c))

# The library, once per set of flags.
define lib_rules
$(call lib_objs,$(1)): build/obj/$(1)/lib/%.o: lib/%.c $(LIB_H)
	@mkdir -p $$(@D)
	$$(CC) $$(FLAGS_$(1)) -Ilib -c -o $$@ $$<
endef

# test_objects(flags, chapter): the chapter's test files, runner.h force-included
define test_objects
$(call test_objs,$(1),$(2)): build/obj/$(1)/$(2)/tests/%.o: tests/$(2)/%.c \
		$(wildcard exercises/$(2)/*.h tests/$(2)/*.h) tests/test_util.h tests/loop/runner.h $(LIB_H)
	@mkdir -p $$(@D)
	$$(CC) $$(FLAGS_$(1)) -include tests/loop/runner.h -Ilib -Iexercises/$(2) -c -o $$@ $$<
endef

# tree_objects(flags, chapter, ex or sol): the chapter's exercise or reference files
define tree_objects
$(call tree_objs,$(1),$(2),$(3)): build/obj/$(1)/$(2)/$(3)/%.o: $(call tree_dir,$(3))/$(2)/%.c \
		$(wildcard exercises/$(2)/*.h) $(LIB_H)
	@mkdir -p $$(@D)
	$$(CC) $$(FLAGS_$(1)) -Ilib -Iexercises/$(2) -c -o $$@ $$<
endef

# chapter_rules(variant, flags, ex or sol, chapter): build/VARIANT/NN-topic/test and
# the objects it needs (each set of objects defined once, by its first user)
define chapter_rules
build/$(1)/$(4)/test: $(call test_objs,$(2),$(4)) $(call tree_objs,$(2),$(4),$(3)) $(call lib_objs,$(2))
	@mkdir -p $$(@D)
	$$(CC) $$(FLAGS_$(2)) -o $$@ $$^ $$(LDLIBS)
endef
# rules_for(variant, flags, ex or sol): every chapter's binary of that variant
define rules_for
$(foreach c,$(CHAPTERS),$(if $(call tree_objs,$(2),$(c),$(3)),
$(eval $(call chapter_rules,$(1),$(2),$(3),$(c)))
$(eval $(call tree_objects,$(2),$(c),$(3)))))
endef

# ex_rules(chapter): build/ex/NN-topic/test, your files compiled with FLAGS_$(CHECK_KEY)
# (each one's messages kept in OBJ.log, shown by make check every run), linked with
# the $(CHECK_WITH) tests and library; and the grader's rules on each of your files.
# (build/ex/NN-topic/key holds the key, rewritten only when it changes, so that
# switching CHALK_SANITIZE relinks even when the other key's objects are missing.)
define ex_rules
build/ex/$(1)/test: $(call test_objs,$(CHECK_WITH),$(1)) $(call tree_objs,$(CHECK_KEY),$(1),ex) $(call lib_objs,$(CHECK_WITH)) \
		build/ex/$(1)/key
	@mkdir -p $$(@D)
	$$(CC) $$(FLAGS_$(CHECK_KEY)) -o $$@ $$(filter %.o,$$^) $$(LDLIBS)
build/ex/$(1)/key: loop-always
	@mkdir -p $$(@D); [ "$$$$(cat $$@ 2>/dev/null)" = $(CHECK_KEY) ] || echo $(CHECK_KEY) >$$@
$(call tree_objs,$(CHECK_KEY),$(1),ex): build/obj/$(CHECK_KEY)/$(1)/ex/%.o: exercises/$(1)/%.c \
		$(wildcard exercises/$(1)/*.h) $(LIB_H)
	@mkdir -p $$(@D)
	@rm -f $$@; $$(CC) $$(FLAGS_$(CHECK_KEY)) -Ilib -Iexercises/$(1) -c -o $$@ $$< >$$@.log 2>&1; \
		s=$$$$?; cat $$@.log >&2; exit $$$$s
# make check's fallback when a function of yours does not compile: build/fix/$(1)/src/
# holds your files with those functions put back to the stub (tests/loop/lib.sh).
build/fix/$(1)/test: $(call test_objs,$(CHECK_WITH),$(1)) $(call lib_objs,$(CHECK_WITH)) $(wildcard build/fix/$(1)/src/*.c)
	@mkdir -p $$(@D)
	$$(CC) $$(FLAGS_$(CHECK_KEY)) -w -Ilib -Iexercises/$(1) -o $$@ $$(filter %.o,$$^) $$(filter %.c,$$^) $$(LDLIBS)
build/rules/$(1)/fns: $(wildcard exercises/$(1)/*.h) $(LIB_H) tests/loop/rules.sh
	@tests/loop/rules.sh fns $(1) $$@
build/rules/$(1)/%.txt: exercises/$(1)/%.c build/rules/$(1)/fns build/rules/allow.syms $(wildcard exercises/$(1)/*.h) $(LIB_H)
	@tests/loop/rules.sh check $(1) $$< $$@
endef
build/rules/allow.syms: $(call lib_objs,plain) tests/loop/rules.sh
	@tests/loop/rules.sh allow $@ $(call lib_objs,plain)
.PHONY: loop-always
loop-always:
# the rules' verdicts of chapter $(1)'s files
rules_of = $(patsubst exercises/$(1)/%.c,build/rules/$(1)/%.txt,$(wildcard exercises/$(1)/*.c))

$(eval $(call lib_rules,plain))
$(eval $(call lib_rules,asan))
$(foreach c,$(CHAPTERS),$(eval $(call test_objects,plain,$(c))))
$(foreach c,$(CHAPTERS),$(eval $(call test_objects,asan,$(c))))
$(foreach c,$(CHAPTERS),$(eval $(call ex_rules,$(c))))
ifneq ($(wildcard solutions),)
$(call rules_for,sol,plain,sol)
$(call rules_for,asan,asan,sol)
endif

.DEFAULT_GOAL := $(loop_default_goal)
