/*
 * derive.h -- for the derivations of expected values, tests/NN-topic/derive/expected.c.
 *
 * A chapter's public tests ship in the student handout. Where deriving a formula is
 * the exercise (two and three stars), a public test that wrote its expected value as
 * the closed form would hand the derivation to any reader who opens the test. So the
 * closed forms live in tests/NN-topic/derive/expected.c (the instructor's copy only),
 * each with its source named, and its output, tests/NN-topic/expected.h, holds the
 * numbers the public tests compare with: `make expected` writes it, and `make test`
 * (tests/checks/run.sh, check "expected") fails when the two disagree.
 *
 * A derivation uses only the C library and this header (never lib/, solutions/ or
 * exercises/: an expected value must not come from the code it checks).
 *
 *   int main(void)
 *   {
 *       derive_begin("05-long-context");
 *       derive_real("E_SPEC_TOKENS_A08_Q4", 1 + .8 + .64 + .512 + .4096,
 *                   "tokens a step keeps, a = 0.8, q = 4 (Leviathan et al. 2023, eq. 1)");
 *       derive_int("E_SPLIT_BEST_CUT", 12, "...");
 *       return derive_end();
 *   }
 */
#ifndef CHALK_DERIVE_H
#define CHALK_DERIVE_H

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int derive_failed; /* set by any entry that could not be written */

/* A name is an upper-case C identifier starting E_ (the public tests' convention). */
static inline int derive_name_ok(const char *name)
{
    if (strncmp(name, "E_", 2) != 0) return 0;
    for (const char *p = name; *p; p++)
        if (!(isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_')) return 0;
    return 1;
}

static inline void derive_comment(const char *source)
{
    if (strstr(source, "*/")) {
        fprintf(stderr, "derive: a source may not contain */: %s\n", source);
        derive_failed = 1;
    }
    printf("/* %s */\n", source);
}

static inline void derive_begin(const char *chapter)
{
    printf("/*\n * expected.h -- the expected values of chapter %s's public tests, each\n", chapter);
    printf(" * with its source. Generated from their derivations (closed forms, papers), which\n");
    printf(" * only the instructor's copy of Chalk holds: the derivation is the exercise.\n */\n");
    printf("#ifndef CHALK_EXPECTED_H\n#define CHALK_EXPECTED_H\n");
}

/* value, printed with the fewest digits that read back as the same double */
static inline void derive_real(const char *name, double value, const char *source)
{
    char buf[64];
    if (!derive_name_ok(name) || !isfinite(value)) {
        fprintf(stderr, "derive: %s: a name is E_ and upper case, a value finite\n", name);
        derive_failed = 1;
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, value);
        if (strtod(buf, NULL) == value) break;
    }
    /* a whole number still reads as a double in C */
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    printf("\n");
    derive_comment(source);
    printf("#define %s %s\n", name, buf);
}

static inline void derive_int(const char *name, long long value, const char *source)
{
    if (!derive_name_ok(name)) {
        fprintf(stderr, "derive: %s: a name is E_ and upper case\n", name);
        derive_failed = 1;
        return;
    }
    printf("\n");
    derive_comment(source);
    printf("#define %s %lld%s\n", name, value, llabs(value) > 2147483647LL ? "LL" : "");
}

static inline int derive_end(void)
{
    printf("\n#endif\n");
    return derive_failed ? 1 : 0;
}

#endif
