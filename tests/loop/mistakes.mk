# mistakes.mk -- every catalogued mistake (tests/NN-topic/mistakes.txt) built and run
# against its chapter's public tests; the Makefile includes it after loop.mk, only
# when a goal needs it (make test, make check, build/mistakes/...).
#
#   build/mistakes/NN-topic/ID/result   one mistake: caught or not, and what it
#                                       computes in each public test it fails
#   build/mistakes/NN-topic.tsv         the table make check reads; a handout ships
#                                       it as tests/NN-topic/mistakes.b64 (base64)
#   build/mistakes/NN-topic.status      each mistake's verdict, for make test
# Each mistake is its own target, so make -j builds them side by side, and one
# rebuilds only when its block, the reference, the tests or the library change.
# tests/loop/mistakes.sh does the work and documents the catalogue's format.

MISTAKE_CHAPTERS := $(patsubst tests/%/mistakes.txt,%,$(wildcard tests/[0-9][0-9]-*/mistakes.txt))
MISTAKE_CHAPTERS := $(filter $(patsubst solutions/%,%,$(wildcard solutions/[0-9][0-9]-*)),$(MISTAKE_CHAPTERS))
# chapter/id for every mistake: line (one grep for all chapters)
MISTAKE_IDS := $(if $(MISTAKE_CHAPTERS),$(shell grep -H '^mistake:' $(MISTAKE_CHAPTERS:%=tests/%/mistakes.txt) | \
	sed 's|^tests/\([^/]*\)/mistakes.txt:mistake:[[:space:]]*|\1/|; s/[[:space:]]*$$//'))
mistake_ids = $(sort $(patsubst $(1)/%,%,$(filter $(1)/%,$(MISTAKE_IDS))))
MISTAKE_ENV = CC='$(CC)' CFLAGS='$(FLAGS_plain)' LDLIBS='$(LDLIBS)'
# what every mistake of a chapter is linked with, and what it is built from
mistake_objs = $(call test_objs,plain,$(1)) $(call lib_objs,plain)
mistake_deps = $(call mistake_objs,$(1)) $(wildcard solutions/$(1)/*.c exercises/$(1)/*.h) \
	tests/loop/mistakes.sh tests/loop/explain.awk tests/loop/lib.sh

define mistake_chapter
build/mistakes/$(1)/blocks/.split: tests/$(1)/mistakes.txt tests/loop/mistakes.sh
	@tests/loop/mistakes.sh split $(1)
build/mistakes/$(1)/blocks/%.block: build/mistakes/$(1)/blocks/.split ;
build/mistakes/$(1)/%/result: build/mistakes/$(1)/blocks/%.block $(call mistake_deps,$(1))
	@$(MISTAKE_ENV) tests/loop/mistakes.sh build $(1) $$* $(call mistake_objs,$(1))
build/mistakes/$(1)/stub/result: $(call mistake_objs,$(1)) $(wildcard exercises/$(1)/*.h) tests/loop/mistakes.sh
	@$(MISTAKE_ENV) tests/loop/mistakes.sh stub $(1) $(call mistake_objs,$(1))
build/mistakes/$(1).tsv: $(foreach m,$(call mistake_ids,$(1)),build/mistakes/$(1)/$(m)/result) \
		build/mistakes/$(1)/stub/result build/mistakes/$(1)/blocks/.split
	@tests/loop/mistakes.sh table $(1) $(call mistake_ids,$(1))
build/mistakes/$(1).status: build/mistakes/$(1).tsv ;
endef
$(foreach c,$(MISTAKE_CHAPTERS),$(eval $(call mistake_chapter,$(c))))

MISTAKE_TABLES = $(MISTAKE_CHAPTERS:%=build/mistakes/%.tsv)
