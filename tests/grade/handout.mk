# Chalk (student handout) -- the one entry point. `make help` lists every target.
#
# Each chapter NN-topic has a contract exercises/NN-topic/topic.h, your exercise
# exercises/NN-topic/topic.c and its tests tests/NN-topic/test_*.c (one or more files,
# one binary). make check builds build/ex/NN-topic/test from them and reports per exercise.
# (This is the handout's Makefile: the course's own Makefile also has the
# reference solutions, the calculator and the book build, which a handout leaves out.)

# How the tests are compiled: the course's own rules (tests/loop/loop.mk), so the
# handout's make check builds alike: cached objects, one file recompiled per edit.
include tests/loop/loop.mk
# cmocka wherever it is installed: pkg-config's flags, else the plain -lcmocka (make
# check then proves it with a test compile before building anything).
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(or $(shell pkg-config --libs cmocka 2>/dev/null),-lcmocka)
CFLAGS += $(CMOCKA_CFLAGS)
LDLIBS = $(CMOCKA_LIBS) -lm

# What a student types reaches the scripts through the environment (make puts a
# variable given on its command line there), never through a command line this
# Makefile writes: a quote or a newline in CH= or EX= runs nothing.
NO_CHAPTER = printf 'no chapter matches CH=%s; chapters: %s\n' "$$CH" '$(CHAPTERS)' >&2; exit 2

.PHONY: check progress watch hint solution reset book deps help clean tools submission
.PHONY: test chalk problems flashcards check-answers
.SECONDARY:

# Your exercises against the tests: make check CH=01 (one chapter) or make check.
check: tools
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/check.sh $(PICK)
# The handout's tests are make check's.
test: check
# Every chapter's exercises: done/total, stars earned, percent.
progress: tools
	@tests/loop/progress.sh
# Re-run make check whenever a file under exercises/ changes: make watch CH=01.
# Without inotifywait (make deps installs it) it polls once a second; it never
# installs anything itself.
watch: tools
	@$(if $(PICK),,$(NO_CHAPTER))
	@$(if $(shell command -v inotifywait),,echo "watch: no inotifywait: polling (make deps installs inotify-tools)"; CHALK_WATCH_POLL=1) \
		tests/loop/watch.sh $(PICK)

# A C compiler and cmocka, found by a test compile; missing, says how to get them
# and stops (nothing is installed without make deps).
CMOCKA_PROBE = '\#include <stdarg.h>\n\#include <stddef.h>\n\#include <setjmp.h>\n\#include <stdint.h>\n\#include <cmocka.h>\nint main(void) { return 0; }\n'
tools:
	@printf $(CMOCKA_PROBE) | $(CC) $(CMOCKA_CFLAGS) -x c - -o /dev/null $(CMOCKA_LIBS) >/dev/null 2>&1 || { \
		echo "make check needs a C compiler and cmocka, and a test compile with them failed" >&2; \
		echo "($(CC) $(CMOCKA_CFLAGS) ... $(CMOCKA_LIBS)). Install them: make deps (Debian/Ubuntu:" >&2; \
		echo "apt-get, with sudo), brew install cmocka (macOS), or your system's cmocka package." >&2; \
		exit 2; }

# Your exercises to hand in: build/submission.tar.gz holds one chapter's .c files
# (CH=01), by default those of the chapters you changed, and nothing else (upload it,
# or the .c files themselves, as your instructor says).
submission:
	@CH='$(CH)' tests/loop/submission.sh
# One more hint for the first failing exercise: make hint CH=01, or EX=step_time (neither: the chapter you edited last).
hint: tools
	@tests/loop/hint.sh
# The reference solutions are not in a handout: this says so.
solution:
	@tests/loop/solution.sh
# Put the stub back (your version is backed up in exercises/NN-topic/.backup/):
# make reset EX=step_time (its functions only) or make reset CH=01 (whole chapter).
reset:
	@tests/loop/reset.sh
# What the full course has and a handout does not, and what you have instead.
chalk:
	@echo "The calculator (build/chalk) runs the reference solutions, which a handout leaves out;"
	@echo "every number in chalk.pdf is its output. Your own functions are your calculator."
	@echo "Its framework without the chapters is in tools/chalk/: make check-answers builds it to"
	@echo "grade your answers to a practice set (make problems says how)."
problems:
	@echo "Problem sets drawn by the course's calculator are in practice/: problems-SEED.pdf (the questions)"
	@echo "and answers-SEED.json (their key). Write your answers to a file, one 'id value' per line in the"
	@echo "unit asked (e.g. ch1-latency-floor 9.1), then grade them:"
	@echo "  make check-answers KEY=practice/answers-practice-1.json ANSWERS=my-answers.txt"
	@echo "The book's own problems have their final answers in chalk.pdf, Appendix C."
	@echo "More sets: this handout cannot draw them$(if $(SEED), (not even SEED=$(SEED))). A set's key is computed by the"
	@echo "calculator's chapter commands, which are the reference solutions compiled: shipping them would"
	@echo "hand you every exercise's answer. Ask your instructor: make problems SEED=yourname in the full"
	@echo "course writes problems-yourname.pdf and answers-yourname.json; put both in practice/ and grade"
	@echo "your answers with make check-answers as above."
# Grade an answers file against a practice set's key with the course's own checker:
# the calculator built from tools/chalk/, its framework without the chapters (list,
# show and check-answers; it computes no answer). Needs cJSON (make deps).
CHECKER = build/chalk-check
$(CHECKER): $(wildcard tools/chalk/*.c tools/chalk/*.h) $(LIB_SRC) $(LIB_H)
	@mkdir -p $(@D)
	@printf '#include <cjson/cJSON.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 || { \
		echo "make check-answers needs cJSON's header (libcjson-dev): make deps installs it" >&2; exit 2; }
	$(CC) $(CFLAGS) -Wno-missing-field-initializers -Ilib -Itools/chalk -o $@ $(wildcard tools/chalk/*.c) $(LIB_SRC) -lcjson -lm
check-answers:
	@$(if $(and $(KEY),$(ANSWERS)),,echo "usage: make check-answers KEY=practice/answers-SEED.json ANSWERS=your-answers.txt" >&2; exit 2)
	@$(MAKE) -s --no-print-directory $(CHECKER)
	@$(CHECKER) check-answers '$(KEY)' '$(ANSWERS)'
flashcards:
	@if [ -f flashcards.tsv ]; then echo "The review cards are flashcards.tsv: import it into Anki as it is."; \
	else echo "The review cards are at the end of each chapter in chalk.pdf; your instructor has the Anki file."; fi
# The book is prebuilt: its numbers come from the reference solutions.
book:
	@if [ -f chalk.pdf ]; then echo "The book is chalk.pdf in this directory (student edition)."; \
	else echo "book: this handout carries no chalk.pdf; ask your instructor for it" >&2; exit 1; fi
# Install the compiler, make, cmocka and inotify-tools if missing (apt-get; says what
# it installs). The only target that installs anything (make hint, check, watch and
# progress only look, and say what is missing).
deps:
	@tests/deps.sh check watch

# List the targets.
help:
	@echo "make check      check your exercises: make check CH=01 for one chapter"
	@echo "make progress   every chapter: exercises done, stars earned, percent"
	@echo "make watch      re-run make check on every save under exercises/ (CH=01)"
	@echo "make hint       one more hint for the first failing exercise (CH=01 or EX=step_time)"
	@echo "make reset      the stub back for EX=step_time or CH=01; yours goes to exercises/*/.backup/"
	@echo "make submission build/submission.tar.gz: one chapter's .c files to hand in (CH=01; default: the chapters you changed)"
	@echo "make book       where the book is (chalk.pdf)"
	@echo "make problems   the practice problem sets in practice/, and how to check them"
	@echo "make check-answers KEY=practice/answers-SEED.json ANSWERS=FILE   grade your answers to a set"
	@echo "make deps       install what make check needs (gcc, make, cmocka, cJSON, inotify-tools)"
	@echo "make clean      remove build/ (nothing you wrote is touched)"
	@tests/loop/knobs.sh

# Remove generated files: build/ only (your exercises and their .backup/ stay).
clean:
	rm -rf build
