# test_grade_boundaries.sh -- sourced by test_grade.sh (its helpers, scratch tree and
# counters): what crosses the grader's boundaries. The call boundary with the object
# checks on and off (bwrap and the user mode), the size table wrap.sh carries buffers
# by, strings in results and buffers, any TMPDIR, and tarballs and links refused
# before unpacking. Not run alone.
section "grading: the call boundary with the object checks on and off, under bwrap and user"
# The attacks from functions that take or return pointers, in the forced user mode
# (the object checks on, as above under bwrap); then all of them with the object
# checks off, a submission per chapter, under bwrap and user (the call boundary and
# the system-call filter alone). Each is named in the report: the rule the object
# check saw, the call that did not return, or the system call the filter refused.
declare -A by_chapter=([06-revnets]="elf-exit-06 execve kill-parent socket open-file mprotect-exec"
    [02-moe]=movabs [03-pipelining]=elf-exit-03 [05-long-context]=elf-exit-05)
declare -A says=([elf-exit-06]="did not return" [elf-exit-03]="did not return"
    [elf-exit-05]="did not return" [movabs]="did not return"
    [socket]="does not allow: socket" [open-file]="does not allow: openat"
    [mprotect-exec]="does not allow: mprotect" [execve]="does not allow: execve"
    [kill-parent]="does not allow: kill")
declare -A rule_of=()
for a in "${attacks[@]}"; do rule_of[${a%%|*}]=${a#*|}; done
runs=()
if [[ " ${modes[*]} " == *" user "* ]]; then # the object checks on: as in the attacks above
    for fx in "${!says[@]}"; do
        GRADE_BUDGET=$ATTACK_BUDGET GRADE_SANDBOX=user grade_bg "user-$fx" "$(submission "user-$fx" "$fx")" "$(fixture_chapter "$fx")"
        runs+=("user-$fx|$fx")
    done
fi
for mode in "${modes[@]}"; do
    for c in "${!by_chapter[@]}"; do
        # shellcheck disable=SC2086
        GRADE_BUDGET=$ATTACK_BUDGET GRADE_SANDBOX=$mode GRADE_TRUST_OBJECT=1 grade_bg "boundary-$mode-$c" \
            "$(submission "boundary-$mode-$c" ${by_chapter[$c]})" "$c"
        runs+=("boundary-$mode-$c|${by_chapter[$c]}")
    done
done
wait
for r in "${runs[@]}"; do
    name=${r%%|*} fxs=${r#*|}
    z=${stub_of[$(fixture_chapter "${fxs%% *}")]}
    s=$(score "$scratch/out/$name.json") secs=$(cat "$scratch/out/$name.secs") rc=$(cat "$scratch/out/$name.rc")
    unnamed=""
    for fx in $fxs; do
        said=${says[$fx]}
        [ "${name%%-*}" != user ] || said=${rule_of[$fx]} # the object checks' words
        grep -qF -- "$said" "$scratch/out/$name.json" || unnamed="$unnamed $fx"
    done
    expect "$name ($fxs): ${s:-no} points (stubs $z), ${secs} s, exit $rc, each named${unnamed:+ but$unnamed}" \
        eval '[ -n "$s" ] && [ "$rc" = 0 ] && awk -v s="$s" -v z="$z" "BEGIN { exit !(s <= z) }" && within "$secs" $ATTACK_BUDGET &&
              [ -z "$unnamed" ] && [ -z "$(leaks "$scratch/out/$name.json")" ]'
done
expect "the graded tree is unchanged by them" test "$(checksum)" = "$before"

section "grading: the size table: wrap.sh refuses a buffer it could not carry"
# A made-up chapter (in the scratch copy) whose contract has one of each: wrap.sh
# must name every function and parameter it cannot carry, and build no wrappers.
wc=exercises/99-wrapcheck
mkdir -p "$wc"
cat >"$wc/wrapcheck.h" <<'C'
#include <stddef.h>
typedef struct wc_pair { double a, b; } wc_pair;
typedef struct wc_holder { double *out; } wc_holder;
typedef struct wc_view { const double *in; int n; } wc_view;
double wc_sum(const double *x, size_t n);    /* read only, no size: a fresh process */
void wc_fill(double *x, size_t n);           /* writable, no size */
void wc_set(wc_pair *p);                     /* one struct: sized by itself */
void wc_hold(const wc_holder *h);            /* writes through a pointer inside */
double wc_view_sum(wc_view v);               /* reads through a pointer inside: fine */
double *wc_ptr(int n);                       /* a pointer result */
const char *wc_name(int k);                  /* a string result, no cap */
void wc_map(double (*f)(double), double *y, int n); /* a function pointer; y writable */
void wc_out(wc_pair *p, int n);              /* n structs, sized below */
double wc_first(const wc_pair *p, int n);    /* read-only structs, no size: one or n? */
C
printf '99-wrapcheck wc_set q out 1\n' >"$scratch/sizes-bad"
out=$(CHALK_BUFFERS=$scratch/sizes-bad tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1)
rc=$?
for want in "wc_fill: x (double *) is a writable buffer with no size" "wc_hold: through h" \
    "wc_ptr returns a pointer (double *)" "wc_name returns a pointer (const char *)" "wc_map: y (double *) is a writable buffer" \
    '"wc_set q" names no pointer parameter' \
    'wc_first: p (const wc_pair *) is a read-only pointer with no size: add a line "99-wrapcheck wc_first p in SIZE" to'; do
    expect "wrap.sh refuses (exit $rc): $want" eval '[ $rc = 2 ] && has "$out" "$want" && [ ! -e "$scratch/wc.c" ]'
done
printf '%s\n' "99-wrapcheck wc_fill x out n" "99-wrapcheck wc_name return string 32" \
    "99-wrapcheck wc_map y out n" "99-wrapcheck wc_out p out n" "99-wrapcheck wc_ptr return string 8" \
    "99-wrapcheck wc_first p in n" >"$scratch/sizes"
out=$(CHALK_BUFFERS=$scratch/sizes tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1)
expect "  and names wc_hold alone once the others have sizes (wc_ptr's double * is no string)" \
    eval 'has "$out" "wc_hold: through h" && has "$out" "wc_ptr returns a pointer" && ! has "$out" wc_fill'
sed -i '/wc_hold\|wc_ptr/d' "$wc/wrapcheck.h" && sed -i '/wc_ptr/d' "$scratch/sizes"
echo "99-wrapcheck wc_set p out wc_sum(0, 1)" >>"$scratch/sizes"
out=$(CHALK_BUFFERS=$scratch/sizes tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1)
expect "  a size that calls a contract function is refused (it would be the student's answer)" \
    eval 'has "$out" "its size calls wc_sum"'
sed -i '$d' "$scratch/sizes" && echo "99-wrapcheck wc_out p out n +" >>"$scratch/sizes" && sed -i '/wc_out p out n$/d' "$scratch/sizes"
out=$(CHALK_BUFFERS=$scratch/sizes tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1)
expect "  a size that is not C is refused" eval 'has "$out" "is not valid C"'
sed -i 's/wc_out p out n +$/wc_out p out n/' "$scratch/sizes"
out=$(CHALK_BUFFERS=$scratch/sizes tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1 <<<"" &&
    echo "99-wrapcheck wc_fill x out 2 * n" >>"$scratch/sizes" &&
    CHALK_BUFFERS=$scratch/sizes tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1)
expect "  two sizes for one parameter are refused" eval 'has "$out" "two lines for wc_fill x"'
sed -i '$d' "$scratch/sizes"
out=$(CHALK_BUFFERS=$scratch/sizes tests/grade/wrap.sh 99-wrapcheck "$scratch/wc.c" 2>&1)
expect "  with every size, the wrappers: wc_fill, wc_set, wc_out, wc_first portable; wc_sum, wc_view_sum, wc_map a fresh process" \
    eval '[ -s "$scratch/wc.c" ] && grep -q "wc_fill: portable" "$scratch/wc.c" && grep -q "wc_set: portable" "$scratch/wc.c" &&
          grep -q "wc_out: portable" "$scratch/wc.c" && grep -q "wc_first: portable" "$scratch/wc.c" &&
          grep -q "wc_sum: a fresh process per call (x has no size" "$scratch/wc.c" &&
          grep -q "wc_view_sum: a fresh process per call (v holds pointers)" "$scratch/wc.c" &&
          grep -q "wc_map: a fresh process per call (f a function pointer)" "$scratch/wc.c"'
rm -rf "$wc" "$scratch/wc.c"

section "grading: strings in results and buffers: string constants only"
# A made-up chapter whose structs hold strings (const char *, as chapter 4's reason)
# and other pointers. wrap.sh carries the first and refuses the second, for every
# function that returns such a type (each its own probe, not one per type); then
# a test binary built as grade.sh builds one: a string constant comes back, a
# string the call built is refused by name, a pointer the test left is kept.
ws=exercises/98-wrapstrings
mkdir -p "$ws"
cat >"$ws/wrapstrings.h" <<'C'
#include <stdbool.h>
typedef struct ws_result { bool exists; const char *reason; double x; } ws_result;
typedef struct ws_named {
    const char *name; struct { const char *unit; } inner; const char *tags[2]; double v;
} ws_named;
typedef struct ws_ptr { bool exists; const double *data; } ws_ptr; /* not a string */
typedef struct ws_wstr { char *reason; } ws_wstr;                 /* a writable string */
typedef struct ws_hold { union { const char *s; double d; } u; } ws_hold; /* in a union */
ws_result ws_a(double x);              /* a result with a string */
ws_result ws_b(int k);                 /* the same type, another function */
void ws_fill(ws_named *out, int k);    /* one struct out, four strings */
void ws_many(ws_result *out, int n);   /* n structs out */
double ws_read(const ws_named *in);    /* a struct in with strings */
ws_ptr ws_p1(int k);
ws_ptr ws_p2(double x);
ws_wstr ws_w(int k);
ws_hold ws_u(int k);
void ws_outp(ws_ptr *out);
C
printf '%s\n' '98-wrapstrings ws_many out out n' '98-wrapstrings ws_read in in 1' >"$scratch/ws-sizes"
out=$(CHALK_BUFFERS=$scratch/ws-sizes tests/grade/wrap.sh 98-wrapstrings "$scratch/ws.c" 2>&1)
rc=$?
for want in "ws_p1 returns ws_ptr, which holds pointers other than strings" \
    "ws_p2 returns ws_ptr, which holds pointers other than strings" \
    "ws_w returns ws_wstr, which holds pointers to writable data" \
    "ws_u returns ws_hold, which holds pointers other than strings" \
    "ws_outp: out (ws_ptr *) points to writable data that holds pointers"; do
    expect "wrap.sh refuses (exit $rc): $want" eval '[ $rc = 2 ] && has "$out" "$want" && [ ! -e "$scratch/ws.c" ]'
done
expect "  and names no function whose only pointers are strings" \
    eval '! printf "%s\n" "$out" | grep -E "ws_(a|b|fill|many|read)\b" >/dev/null'
sed -i '/ws_p1\|ws_p2\|ws_w(\|ws_u(\|ws_outp/d' "$ws/wrapstrings.h"
out=$(CHALK_BUFFERS=$scratch/ws-sizes tests/grade/wrap.sh 98-wrapstrings "$scratch/ws.c" 2>&1 >/dev/null)
ws_wrappers_ok() {
    local d
    [ -s "$scratch/ws.c" ] && [ "$(grep -c "offsetof(__typeof__(ws_result), reason)" "$scratch/ws.c")" = 2 ] &&
        grep -qF "offsetof(__typeof__(*(ws_result *)0), reason)" "$scratch/ws.c" &&
        [ "$(grep -c ": portable" "$scratch/ws.c")" = 5 ] || return 1
    for d in name inner.unit "tags[0]" "tags[1]"; do
        grep -qF "offsetof(__typeof__(*(ws_named *)0), $d)" "$scratch/ws.c" &&
            grep -qF "offsetof(__typeof__(*(const ws_named *)0), $d)" "$scratch/ws.c" || return 1
    done
}
expect "  with those gone, the wrappers: each string named where it is, every function portable${out:+ ($out)}" \
    ws_wrappers_ok
cat >"$scratch/ws-student.c" <<'C'
#include "wrapstrings.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char built[16];
ws_result ws_a(double x) { ws_result r = {false, "a constant", x}; return r; }
ws_result ws_b(int k)
{
    ws_result r = {false, built, k};
    snprintf(built, sizeof built, "built %d", k); /* not a constant */
    return r;
}
void ws_fill(ws_named *out, int k)
{
    out->name = "a name", out->inner.unit = "s", out->tags[0] = "x", out->tags[1] = NULL;
    if (k == 1)
        out->tags[1] = built;
}
void ws_many(ws_result *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i].x = i;
    if (n == 3) {
        char *s = malloc(8);
        strcpy(s, "heap");
        out[1].reason = s;
    }
}
double ws_read(const ws_named *in) { return (double)strlen(in->name) + in->v; }
C
cat >"$scratch/ws-test.c" <<'C'
#include "wrapstrings.h"
#include <stdlib.h>
#include <string.h>
static void constant_result(void **state)
{
    (void)state;
    ws_result r = ws_a(2.0);
    assert_string_equal(r.reason, "a constant");
}
static void built_result(void **state) { (void)state; (void)ws_b(7); }
static void constants_out(void **state)
{
    (void)state;
    ws_named n = {0};
    ws_fill(&n, 0);
    assert_string_equal(n.inner.unit, "s");
    assert_null(n.tags[1]);
}
static void built_out(void **state)
{
    (void)state;
    ws_named n = {0};
    ws_fill(&n, 1);
}
static void heap_in_array(void **state)
{
    (void)state;
    ws_result r[3] = {{0}};
    ws_many(r, 3);
}
static void the_tests_own_pointer_kept(void **state)
{
    (void)state;
    char *mine = strdup("mine");
    ws_result r[2] = {{false, mine, 0}, {false, NULL, 0}};
    ws_many(r, 2);
    assert_ptr_equal(r[0].reason, mine);
    assert_true(r[1].x == 1.0);
}
static void strings_in(void **state)
{
    (void)state;
    ws_named in = {"four", {NULL}, {NULL, NULL}, 0.5};
    assert_true(ws_read(&in) == 4.5);
    char *heap = strdup("three"); /* not a constant: a fresh process reads it in place */
    ws_named h = {heap, {NULL}, {NULL, NULL}, 0.0};
    assert_true(ws_read(&h) == 5.0);
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constant_result), cmocka_unit_test(built_result),
        cmocka_unit_test(constants_out), cmocka_unit_test(built_out),
        cmocka_unit_test(heap_in_array), cmocka_unit_test(the_tests_own_pointer_kept),
        cmocka_unit_test(strings_in),
    };
    return chalk_run_group("ws", tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
C
wsb=$scratch/ws-build
mkdir -p "$wsb"
if CC=cc tests/grade/harness-build.sh "$wsb/harness.o" -std=c11 -O1 -w &&
    cc -std=c11 -O1 -w -Itests/grade -I"$ws" -c "$scratch/ws.c" -o "$wsb/wrap.o" &&
    cc -std=c11 -O1 -w -I"$ws" -c "$scratch/ws-student.c" -o "$wsb/student.o" &&
    printf '%s chalk_student_%s\n' ws_a ws_a ws_b ws_b ws_fill ws_fill ws_many ws_many ws_read ws_read \
        >"$wsb/rename" && objcopy --redefine-syms="$wsb/rename" "$wsb/student.o" &&
    cc -std=c11 -O1 -w -D_GNU_SOURCE -include tests/grade/harness.h -I"$ws" -c "$scratch/ws-test.c" -o "$wsb/test.o" &&
    cc -o "$wsb/test" "$wsb"/test.o "$wsb"/harness.o "$wsb"/wrap.o "$wsb"/student.o -lcmocka -lseccomp -lm; then
    "$wsb/test" 3>"$wsb/verdicts" >/dev/null 2>&1
    v() { jq -r --arg n "$1" 'select(.name == $n) | .status + " " + .detail' "$wsb/verdicts" | tr '\n' ' '; }
    for t in constant_result constants_out the_tests_own_pointer_kept strings_in; do
        expect "  $t: passed" eval '[ "$(v $t | cut -d" " -f1)" = passed ]'
    done
    for tw in "built_result|ws_b: reason must be a string constant" \
        "built_out|ws_fill: out->tags[1] must be a string constant" \
        "heap_in_array|ws_many: out[1].reason must be a string constant"; do
        t=${tw%%|*} w=${tw#*|}
        expect "  $t: failed, \"$w\"" eval '[ "$(v $t | cut -d" " -f1)" = failed ] && has "$(v $t)" "$w"'
    done
else
    fail "the string test binary does not build"
fi
# The harness is three files in one object (harness-build.sh): what they share is
# local to it, so another object of the binary (the student's) can neither call nor
# read it, nor define a name that replaces it.
if [ -f "$wsb/harness.o" ]; then
    g=$(nm -P --defined-only -g "$wsb/harness.o" | awk '{ print $1 }' | sort | paste -sd' ')
    expect "the harness's object defines harness.h's globals and no other ($g)" \
        test "$g" = "chalk_grade_call chalk_grade_run_group"
    cat >"$wsb/probe.c" <<'C'
#include <stddef.h>
extern void *chalk_harness_counts;
size_t chalk_harness_write_all(int fd, const void *p, size_t n);
int main(void) { return chalk_harness_write_all(1, chalk_harness_counts, 1) == 1; }
C
    cc -std=c11 -w -c "$wsb/probe.c" -o "$wsb/probe.o" &&
        ! cc -o "$wsb/probe" "$wsb/probe.o" "$wsb/harness.o" -lcmocka -lseccomp -lm 2>"$wsb/probe.err"
    expect "  an object that reaches for its shared names does not link ($(grep -c 'undefined reference to .chalk_harness_' "$wsb/probe.err") undefined)" \
        eval '[ "$(grep -c "undefined reference to .chalk_harness_\(counts\|write_all\)" "$wsb/probe.err")" -ge 2 ]'
fi
rm -rf "$ws" "$scratch/ws.c" "$wsb"

section "grading: any TMPDIR"
# A TMPDIR closed to other users (as mktemp -d makes one): the sandbox's uid cannot
# pass through it, so the grader puts its scratch where it can and says so; as
# before, the reference scores full marks (the old grader: 0 in every chapter).
mkdir -m 700 "$scratch/closed-tmp"
TMPDIR=$scratch/closed-tmp grade closed-tmp solutions
expect "TMPDIR closed to others ($(grep -o 'scratch in [^,]*, as TMPDIR' "$scratch/out/closed-tmp.log" || echo "its scratch under it")): the reference $(score "$scratch/out/closed-tmp.json") of $full, exit $rc" \
    eval '[ $rc = 0 ] && [ "$(score "$scratch/out/closed-tmp.json")" = "$full" ] &&
          { [ "$(id -u)" != 0 ] || grep -q "scratch in .*, as TMPDIR ($scratch/closed-tmp) is closed to other users" "$scratch/out/closed-tmp.log"; }'
expect "  and leaves nothing there" test -z "$(ls -A "$scratch/closed-tmp")"
mkdir -m 711 "$gradetmp/odd tmp" # open (where the caller's TMPDIR is), a space in its name
TMPDIR="$gradetmp/odd tmp" grade odd-tmp solutions
expect "TMPDIR with a space in its name: the reference $(score "$scratch/out/odd-tmp.json") of $full, exit $rc" \
    eval '[ $rc = 0 ] && [ "$(score "$scratch/out/odd-tmp.json")" = "$full" ]'

section "grading: tarballs and links, refused before unpacking"
# refused NAME WHY-TEXT: exit 2, one line on stderr, a results.json with score 0 and why
refused() {
    local name=$1 why=$2
    expect "$name: refused ($why), exit 2, results.json score 0 with the reason (${secs} s)" \
        test "$rc" = 2 -a "$(score "$scratch/out/$name.json")" = 0 -a "$(wc -l <"$scratch/out/$name.log")" = 1 \
        -a "$(grep -cF -- "$why" "$scratch/out/$name.json")" = 1
}
d=$scratch/sub/link-dir/exercises/$CH
mkdir -p "$d" && ln -s "$tree/$ref" "$d/batching.c"
grade link-dir "$scratch/sub/link-dir"
refused link-dir "is a symbolic link"
mkdir -p "$scratch/sub/link-up/real/$CH" && cp "$ref" "$scratch/sub/link-up/real/$CH/" &&
    ln -s real "$scratch/sub/link-up/exercises"
grade link-up "$scratch/sub/link-up"
refused link-up "is a symbolic link"
(cd "$scratch/sub/link-dir" && tar -cf "$scratch/sub/link.tar" exercises)
grade link-tar "$scratch/sub/link.tar"
refused link-tar "a symbolic link"
mkdir -p "$scratch/sub/hl/exercises/$CH" && cp "$stub" "$scratch/sub/hl/exercises/$CH/batching.c" &&
    ln "$scratch/sub/hl/exercises/$CH/batching.c" "$scratch/sub/hl/exercises/$CH/other.c"
(cd "$scratch/sub/hl" && tar -cf "$scratch/sub/hardlink.tar" exercises)
grade hardlink-tar "$scratch/sub/hardlink.tar"
refused hardlink-tar "a hard link"
truncate -s 3G "$scratch/sub/huge.tar.gz" # sparse: no disk used
grade huge "$scratch/sub/huge.tar.gz"
refused huge "over the limit"
expect "  (the 3 GB tarball was refused by its size, before tar read it: ${secs} s)" \
    grep -qF "the tarball is $((3 << 20)) KiB, over the limit" "$scratch/out/huge.json"
mkdir -p "$scratch/bomb/exercises/$CH" && cp "$stub" "$scratch/bomb/exercises/$CH/" &&
    truncate -s 64M "$scratch/bomb/exercises/$CH/zeros.c"
(cd "$scratch/bomb" && tar -czf "$scratch/sub/bomb.tar.gz" exercises) && rm -rf "$scratch/bomb"
grade bomb "$scratch/sub/bomb.tar.gz"
refused bomb "unpacks to over"
for bad in "" /nonexistent README.md lib; do
    grade "bad" "$bad"
    expect "SUBMISSION='$bad' is refused: one line, exit 2" test $rc = 2 -a "$(wc -l <"$scratch/out/bad.log")" = 1
done
expect "the graded tree is unchanged by all of these" test "$(checksum)" = "$before"
