# Chalk -- the one entry point. `make help` lists every target.
#
# Each chapter NN-topic has a contract exercises/NN-topic/topic.h, your stub
# exercises/NN-topic/topic.c, a reference solutions/NN-topic/topic.c and tests
# tests/NN-topic/test_*.c (one or more files: one binary; tests/test_util.h's registry).
# The same tests are built three ways, under build/:
#   build/ex/NN-topic/test     against your exercises/ (make check)
#   build/sol/NN-topic/test    against solutions/      (make test)
#   build/asan/NN-topic/test   solutions/ under AddressSanitizer + UBSan (make test)

# Compiler flags, one a line, the chapter list and the test binaries' rules
# (build/ex, build/sol, build/asan, from cached objects under build/obj/) are shared
# with the handout's Makefile: tests/loop/loop.mk, read first.
include tests/loop/loop.mk
# The mistake catalogues' builds (tests/loop/mistakes.mk), for the goals that use them.
ifneq ($(filter test test-binaries mistakes build/mistakes/%,$(MAKECMDGOALS)),)
include tests/loop/mistakes.mk
endif

# The calculator: the files of solutions/chalk/ (solutions/chalk/README.md) and each
# chapter's reference. A chapter's commands are solutions/chalk/NN-topic.c (NN-topic a
# chapter of solutions/); main.c learns their names from -DCHALK_CHAPTERS.
CHALK_CHAPTER_SRC := $(sort $(filter $(patsubst solutions/%,solutions/chalk/%.c,\
	$(wildcard solutions/[0-9][0-9]-*)),$(wildcard solutions/chalk/[0-9][0-9]-*.c)))
CHALK_CHAPTER_NAMES := $(subst -,_,$(basename $(notdir $(CHALK_CHAPTER_SRC))))
CHALK_SRC = $(wildcard solutions/chalk/*.c) $(wildcard solutions/[0-9][0-9]-*/*.c)
CHALK_H = $(wildcard solutions/chalk/*.h) $(wildcard exercises/[0-9][0-9]-*/*.h)
CHALK_INC = -Ilib -Isolutions/chalk $(addprefix -I,$(wildcard exercises/[0-9][0-9]-*))
# A command table's row names the fields it sets; the rest are zero.
CHALK_CFLAGS = -Wno-missing-field-initializers \
	-DCHALK_CHAPTERS='$(foreach c,$(CHALK_CHAPTER_NAMES),X($(c)))'
# build/chalk optimised; sqrt and llrint inline when they need not set errno (the
# results are the same; make bench's sweep is about 3% faster). No contraction into FMA.
CHALK_FAST = -O2 -fno-math-errno -ffp-contract=off
CHALK_LIBS = -lcjson -lm
# pow, exp, log, log10, log1p, expm1, tanh and lgamma are musl's, vendored (MIT), in
# build/chalk and in the web edition's calculator alike, so the two print the same
# bytes (glibc's differ in the last bit on a CPU with FMA; book/web/libm/README.md).
CHALK_LIBM = $(wildcard book/web/libm/*.c)
CHALK_LIBM_H = $(wildcard book/web/libm/*.h)

# What a reader types reaches the scripts through the environment (make puts a
# variable given on its command line there), never through a command line this
# Makefile writes: CH='01 02', EX="x'; touch pwned" or a value with a newline in it is
# text to them, and runs nothing. (No `export`: it would hand every child an empty CH.)
# "no chapter matches CH=...", for the goals that take CH (printf, not echo: the value
# is text, never shell).
NO_CHAPTER = printf 'no chapter matches CH=%s; chapters: %s\n' "$$CH" '$(CHAPTERS)' >&2; exit 2

.PHONY: all chalk test check hint bench format help clean deps book
.PHONY: progress watch solution reset submission handout grade grade-all gradescope
.PHONY: flashcards problems web slides expected
.SECONDARY:

# Build everything: the calculator and the book.
all: chalk book

# The calculator, build/chalk: every chapter's reference math behind one command.
# A machine without the compiler or cJSON's header gets them installed, or is told
# what to install (tests/deps.sh c), rather than a compiler error.
chalk:
	@tests/deps.sh c
	@$(MAKE) -s --no-print-directory build/chalk
build/chalk: $(CHALK_SRC) $(CHALK_H) $(LIB_SRC) $(LIB_H) $(CHALK_LIBM) $(CHALK_LIBM_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CHALK_CFLAGS) $(CHALK_FAST) $(CHALK_INC) -o $@ $(CHALK_SRC) $(LIB_SRC) $(CHALK_LIBM) $(CHALK_LIBS)
build/asan/chalk: $(CHALK_SRC) $(CHALK_H) $(LIB_SRC) $(LIB_H) $(CHALK_LIBM) $(CHALK_LIBM_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CHALK_CFLAGS) $(SANITIZE) $(CHALK_INC) -o $@ $(CHALK_SRC) $(LIB_SRC) $(CHALK_LIBM) $(CHALK_LIBS)

EDITION ?= student
BOOK_PDF = build/chalk$(if $(filter instructor,$(EDITION)),-instructor).pdf
BOOK_MD = book/preface.md $(sort $(wildcard chapters/[0-9][0-9]-*.md)) book/appendix.md book/bibliography.md
BOOK_INPUTS = $(BOOK_MD) $(wildcard book/filters/*.lua book/notation/*.tsv) book/template.tex \
	book/metadata.yaml book/references.bib book/chalk.csl book/index.ist book/build.sh Makefile build/chalk \
	$(wildcard solutions/[0-9][0-9]-*/*.c exercises/[0-9][0-9]-*/*.[ch]) \
	$(wildcard exercises/[0-9][0-9]-*/exercises.txt)
# The book, build/chalk.pdf (EDITION=instructor: build/chalk-instructor.pdf, with solutions).
# Installs pandoc, TeX Live, gnuplot if missing, then rebuilds only when an input
# changed (book/build.sh does the work).
book:
	@case "$${EDITION-student}" in student|instructor) ;; \
	*) printf 'make book: EDITION must be student or instructor, not "%s"\n' "$$EDITION" >&2; exit 2;; esac
	@tests/deps.sh book
	@before=$$(stat -c '%.9Y %s' $(BOOK_PDF) 2>/dev/null); \
	$(MAKE) -s --no-print-directory $(BOOK_PDF) && \
	if [ "$$before" = "$$(stat -c '%.9Y %s' $(BOOK_PDF) 2>/dev/null)" ]; then \
		echo "book: $(BOOK_PDF) is already up to date (nothing it is built from changed)"; fi
build/chalk.pdf build/chalk-instructor.pdf: $(BOOK_INPUTS)
	@book/build.sh $(if $(findstring instructor,$@),instructor,student) $@ $(BOOK_MD)

# Lecture slides: build/slides-NN.pdf, one deck per chapter from what the chapter
# marks for slides (book/slides/README.md): make slides CH=01, or every chapter.
slides:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/deps.sh book
	@$(MAKE) -s --no-print-directory build/chalk
	@for c in $(PICK); do book/slides/build.sh $${c%%-*} build/slides-$${c%%-*}.pdf || exit 1; done

WEB_DIR = build/web$(if $(filter instructor,$(EDITION)),-instructor)
# The web edition: build/web/, a static site of the book (EDITION=instructor:
# build/web-instructor/), from the same sources and filters as the PDF (book/build.sh
# --web; book/web/README.md): one page per chapter, equations typeset by KaTeX at
# build time, figures as SVG, no request outside the site. Open build/web/index.html
# or publish the directory on any static host. Installs what it needs (Debian's
# dvisvgm and nodejs, KaTeX from the npm registry) and converts only what changed.
web:
	@case '$(EDITION)' in student|instructor) ;; \
	*) echo "make web: EDITION must be student or instructor, not '$(EDITION)'" >&2; exit 2;; esac
	@tests/deps.sh book web
	@$(MAKE) -s --no-print-directory build/chalk build/web-wasm/chalk.js
	@book/build.sh --web $(EDITION) $(WEB_DIR) $(BOOK_MD)
	@cp build/web-wasm/chalk.js $(WEB_DIR)/assets/chalk-wasm.js
# The calculator in the page: the same sources as build/chalk, as WebAssembly
# (book/web/wasm.sh; assets/chalk-web.js loads it).
build/web-wasm/chalk.js: $(CHALK_SRC) $(CHALK_H) $(LIB_SRC) $(LIB_H) $(CHALK_LIBM) $(CHALK_LIBM_H) book/web/wasm.sh book/web/cjson/cJSON.c
	@echo "web: the calculator as WebAssembly (emcc, about a minute)"
	@book/web/wasm.sh $@ $(CHALK_CFLAGS) $(CHALK_INC) -- $(CHALK_SRC) $(LIB_SRC) $(CHALK_LIBM)

CHAPTER_MD = $(sort $(wildcard chapters/[0-9][0-9]-*.md))
# The chapters' flashcards for Anki: build/flashcards.tsv (import it as is).
# Every ::: card of the chapters, live numbers resolved, one note per line, one deck
# per chapter (book/filters/flashcards.lua explains the header lines and the GUIDs).
flashcards:
	@tests/deps.sh book
	@$(MAKE) -s --no-print-directory build/flashcards.tsv
build/flashcards.tsv: $(CHAPTER_MD) book/filters/flashcards.lua book/filters/chalk.lua \
		book/filters/util.lua build/chalk
	@CHALK_CACHE=build/cache/chalk pandoc $(CHAPTER_MD) --lua-filter book/filters/chalk.lua \
		--lua-filter book/filters/flashcards.lua -M flashcards-out=$@ -t native -o /dev/null \
		2>build/flashcards.err || { sed -e '/^stack traceback:/,$$d' -e '/^Error running filter/d' \
		build/flashcards.err >&2; exit 1; }
	@cat build/flashcards.err >&2

# Your practice problems: make problems SEED=alice (PDFs and a key; grade with build/chalk check-answers).
# Drawn from the chapters' templates with SEED: build/problems-SEED.pdf,
# build/answers-SEED.pdf (the worked key) and build/answers-SEED.json, which
# build/chalk check-answers grades against. The same seed gives the same bytes.
problems:
	@$(if $(SEED),,echo "usage: make problems SEED=NAME   (e.g. make problems SEED=alice)" >&2; exit 2)
	@tests/deps.sh book
	@$(MAKE) -s --no-print-directory build/chalk
	@book/problems.sh "$$SEED" $(CHAPTER_MD)

# Test binaries of the library and of the calculator.
build/%/lib/test: tests/lib/test_lib.c tests/test_util.h $(LIB_SRC) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(if $(filter asan,$*),$(SANITIZE)) -Ilib -o $@ $< $(LIB_SRC) $(LDLIBS)
# Further library tests, tests/lib/test_NAME.c: each its own binary build/VARIANT/lib/test_NAME.
LIB_TESTS := $(filter-out test_lib,$(basename $(notdir $(wildcard tests/lib/test_*.c))))
define lib_test_rules
build/$(1)/lib/$(2): tests/lib/$(2).c tests/test_util.h $(LIB_SRC) $(LIB_H)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $(3) -Ilib -o $$@ $$< $$(LIB_SRC) $$(LDLIBS)
endef
$(foreach t,$(LIB_TESTS),$(eval $(call lib_test_rules,sol,$(t),)))
$(foreach t,$(LIB_TESTS),$(eval $(call lib_test_rules,asan,$(t),$(SANITIZE))))
# The calculator's tests: every tests/chalk/test_*.c in one binary, run as one group
# by tests/chalk/main.c (harness.h says how a file adds its tests).
CHALK_TEST_SRC := $(sort $(wildcard tests/chalk/test_*.c))
CHALK_TEST_GROUPS = $(patsubst test_%,%,$(basename $(notdir $(CHALK_TEST_SRC))))
build/chalk-test: $(CHALK_TEST_SRC) tests/chalk/main.c tests/chalk/harness.c tests/chalk/harness.h \
		tests/test_util.h solutions/chalk/number.c solutions/chalk/chalk.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ilib -Isolutions/chalk -DCHALK_TEST_GROUPS='$(foreach g,$(CHALK_TEST_GROUPS),X($(g)))' \
		-o $@ $(CHALK_TEST_SRC) tests/chalk/main.c tests/chalk/harness.c solutions/chalk/number.c \
		$(LDLIBS) -lcjson

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Install what is missing, then run every test (tests/run.sh's phases; ends with N passed, N failed).
# Solutions pass, stubs compile and fail, every catalogued mistake is caught,
# solutions pass under ASan+UBSan, the calculator passes its tests, and the rest.
# The binaries and the mistakes build side by side (JOBS, default: every core), then
# the phases run side by side, each one's output shown whole and in order.
test: deps
	@$(MAKE) -s --no-print-directory -j$(JOBS) test-binaries
	@tests/run.sh $(CHAPTERS)
.PHONY: test-binaries mistakes
test-binaries: build/chalk build/asan/chalk build/chalk-test build/sol/lib/test build/asan/lib/test \
	$(foreach t,$(LIB_TESTS),build/sol/lib/$(t) build/asan/lib/$(t)) \
	$(foreach c,$(CHAPTERS),build/sol/$(c)/test build/ex/$(c)/test build/asan/$(c)/test) \
	$(MISTAKE_TABLES)
# Build every catalogued mistake: build/mistakes/NN-topic.tsv (make check names them).
mistakes: $(MISTAKE_TABLES)

# Install every package the tests, the book and the grader need (apt-get).
deps:
	@tests/deps.sh test book watch grade

.PHONY: fresh-check
# The README's set-up lines on a fresh Debian 12 root (debootstrap; needs root or sudo).
# Each line timed, make test's summary at the end. CI runs it.
fresh-check:
	@tests/fresh-check.sh

# Your exercises against the tests: make check CH=01 (one chapter) or make check.
check:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/check.sh $(PICK)

# ---- the reader's loop (scripts in tests/loop/; see README "Studying a chapter") ----

# Every chapter's exercises: done/total, stars earned, percent.
progress:
	@tests/loop/progress.sh
# Re-run make check whenever a file under exercises/ changes: make watch CH=01.
watch:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/loop/watch.sh $(PICK)
# One more hint for the first failing exercise: make hint CH=01, or EX=step_time (neither: the chapter you edited last).
hint:
	@tests/loop/hint.sh
# An exercise's reference, once your version passes it: make solution EX=step_time (FORCE=1 overrides).
solution:
	@tests/loop/solution.sh
# Put the stub back: make reset EX=step_time (its functions) or CH=01 (the chapter).
# Your version is backed up in exercises/NN-topic/.backup/ first; a deleted stub
# comes back too.
reset:
	@tests/loop/reset.sh
# What you hand in: build/submission.tar.gz with one chapter's .c files (CH=01), or
# by default those of the chapters you changed (tests/loop/submission.sh).
submission:
	@tests/loop/submission.sh

# ---- teaching a course (scripts in tests/grade/; see README "Teaching with Chalk") ----

# Write a chapter's public expected values from their closed forms: make expected CH=05
# (tests/NN-topic/derive/expected.c prints tests/NN-topic/expected.h; make test checks it).
expected:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/derive/expected.sh write $(PICK)

# The student handout: build/chalk-handout.tar.gz (no solutions, no hidden tests).
handout:
	@tests/grade/handout.sh
# Grade SUBMISSION=dir-or-tarball with the hidden tests, sandboxed: build/grade/results.json.
# One student's exercises/, in a sandbox (bubblewrap; installed if missing), [CH=01];
# the results in Gradescope's format.
grade:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/deps.sh grade
	@tests/grade/grade.sh "$$SUBMISSION" $(PICK)
# Grade every submission in DIR into a CSV gradebook: make grade-all DIR=submissions/.
grade-all:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/deps.sh grade
	@tests/grade/grade-all.sh "$$DIR" $(PICK)
# The autograder zip for one chapter's Gradescope assignment: make gradescope CH=01.
gradescope:
	@tests/grade/gradescope/zip.sh "$$CH"
.PHONY: gradescope-check
# Every chapter's autograder zip run as Gradescope runs it, in a fresh Debian 12 root
# (root or sudo): setup.sh as the image build runs it, then the reference, the stub
# and a half-done upload (.c files and make submission's tarball) through
# run_autograder, under bwrap and in a container that refuses namespaces; each
# results.json checked against Gradescope's format and the expected scores.
# CH=01 checks one chapter. CI runs it (.ci/run); make test does not.
gradescope-check:
	@$(if $(PICK),,$(NO_CHAPTER))
	@tests/grade/gradescope/check.sh $(PICK)

# The speed figures with their goals: reader's loop, make test, book, calculator sweep.
# Measured in a scratch copy (tests/bench.sh).
bench:
	@tests/bench.sh

# Reformat the C sources with the checked-in .clang-format.
format:
	clang-format -i lib/*.[ch] solutions/*.c solutions/*/*.c exercises/*/*.[ch] tests/*.h tests/*/*.c

# List the targets: the first comment line above each one, in every makefile read.
help:
	@awk -f tests/help.awk $(MAKEFILE_LIST)
	@tests/loop/knobs.sh

# Remove generated files: build/ only.
clean:
	rm -rf build
