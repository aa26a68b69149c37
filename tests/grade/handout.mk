# Chalk (student handout) -- the one entry point. `make help` lists every target.
#
# Each chapter NN-topic has a contract exercises/NN-topic/topic.h, your exercise
# exercises/NN-topic/topic.c and its tests tests/NN-topic/test_topic.c. make check
# builds build/ex/NN-topic/test from them and reports per exercise.
# (This is the handout's Makefile: the course's own Makefile also has the
# reference solutions, the calculator and the book build, which a handout leaves out.)

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
LDLIBS = -lcmocka -lm

CHAPTERS := $(sort $(notdir $(wildcard tests/[0-9][0-9]-*)))
LIB_SRC := $(wildcard lib/*.c)
LIB_H := $(wildcard lib/*.h)
# The chapter named by CH=01 (or every chapter when CH is empty).
CH ?=
PICK := $(if $(CH),$(filter $(CH)%,$(CHAPTERS)),$(CHAPTERS))

# One test binary per chapter, against your exercises/ (tests/loop/runner.h lets
# make check re-run one test at a time after a crash or a hang).
define chapter_rules
build/ex/$(1)/test: $(wildcard tests/$(1)/*.c exercises/$(1)/*.c exercises/$(1)/*.h) \
		tests/test_util.h tests/loop/runner.h $(LIB_SRC) $(LIB_H)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -include tests/loop/runner.h -Ilib -Iexercises/$(1) -o $$@ \
		$(wildcard tests/$(1)/*.c exercises/$(1)/*.c) $$(LIB_SRC) $$(LDLIBS)
endef
$(foreach c,$(CHAPTERS),$(eval $(call chapter_rules,$(c))))

.PHONY: check progress watch hint solution reset book deps help clean
.SECONDARY:

# Your exercises against the tests: make check CH=01 (one chapter) or make check.
check: deps
	@$(if $(PICK),,echo "no chapter matches CH=$(CH); chapters: $(CHAPTERS)" >&2; exit 2)
	@tests/check.sh $(PICK)
# Every chapter's exercises: done/total, stars earned, percent.
progress: deps
	@tests/loop/progress.sh
# Re-run make check whenever a file under exercises/ changes: make watch CH=01.
watch: deps
	@$(if $(PICK),,echo "no chapter matches CH=$(CH); chapters: $(CHAPTERS)" >&2; exit 2)
	@tests/loop/watch.sh $(PICK)
# One more hint for the first failing exercise: make hint CH=01, or EX=step_time.
hint: deps
	@CH='$(CH)' EX='$(EX)' tests/loop/hint.sh
# The reference solutions are not in a handout: this says so.
solution:
	@CH='$(CH)' EX='$(EX)' FORCE='$(FORCE)' tests/loop/solution.sh
# Put the stub back (your version is backed up in exercises/NN-topic/.backup/):
# make reset EX=step_time (its functions only) or make reset CH=01 (whole chapter).
reset:
	@CH='$(CH)' EX='$(EX)' tests/loop/reset.sh
# The book is prebuilt: its numbers come from the reference solutions.
book:
	@if [ -f chalk.pdf ]; then echo "The book is chalk.pdf in this directory (student edition)."; \
	else echo "book: this handout carries no chalk.pdf; ask your instructor for it" >&2; exit 1; fi
# Install the compiler, make and cmocka if missing (apt-get; says what it installs).
deps:
	@tests/deps.sh test

# List the targets.
help:
	@echo "make check      check your exercises: make check CH=01 for one chapter"
	@echo "make progress   every chapter: exercises done, stars earned, percent"
	@echo "make watch      re-run make check on every save under exercises/ (CH=01)"
	@echo "make hint       one more hint for the first failing exercise (CH=01 or EX=step_time)"
	@echo "make reset      the stub back for EX=step_time or CH=01; yours goes to exercises/*/.backup/"
	@echo "make book       where the book is (chalk.pdf)"
	@echo "make deps       install what make check needs (gcc, make, cmocka)"
	@echo "make clean      remove build/ (nothing you wrote is touched)"

# Remove generated files: build/ only (your exercises and their .backup/ stay).
clean:
	rm -rf build
