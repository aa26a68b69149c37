#!/usr/bin/env bash
# run.sh -- tests of make flashcards, make problems and chalk check-answers.
#
# Prints "ok - ..." or "FAIL - ..." per check and ends with "practice: N passed,
# N failed" (tests/run.sh adds both to the totals). Needs build/chalk, pandoc and
# pdflatex (tests/deps.sh book). Expected values come from the spec (Anki's
# header lines, book/problems.md), from chalk run again, or from closed forms;
# never from the output under test. Everything the tests write goes to a scratch
# directory, removed at the end: the problem sets and keys of the test seeds are
# made there (OUT=scratch make problems), never in the reader's build/. Only
# `make flashcards` writes its real output, build/flashcards.tsv.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

T=tests/practice
W=$(mktemp -d "${TMPDIR:-/tmp}/chalk-practice.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
touch "$W/start"
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "FAIL - $1"; failed=$((failed + 1)); }
check() { # check NAME COMMAND...: passes when the command succeeds
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
cards() { # cards OUT CHALK FILE...: runs the flashcards extractor
    local out=$1 exe=$2
    shift 2
    CHALK=$exe pandoc "$@" -L book/filters/chalk.lua -L book/filters/flashcards.lua \
        -M flashcards-out="$out" -t native -o /dev/null
}
quiet() { "$@" >/dev/null 2>&1; }
rows() { grep -v '^#' "$1"; }
field() { rows "$1" | cut -f"$2"; }

# ---- flashcards ------------------------------------------------------------------

make -s --no-print-directory flashcards >"$W/make.out" 2>&1
check "make flashcards writes build/flashcards.tsv" test -s build/flashcards.tsv
tsv=build/flashcards.tsv
printf '%s\n' '#separator:tab' '#html:true' '#notetype:Basic' \
    '#guid column:1' '#tags column:4' '#deck column:5' '#if matches:update current' \
    >"$W/header.want"
grep '^#' "$tsv" >"$W/header.got"
check "flashcards: the Anki header lines, in order" cmp -s "$W/header.want" "$W/header.got"
n=$(rows "$tsv" | wc -l)
check "flashcards: chapter 1 has at least 15 cards ($n)" test "$n" -ge 15
check "flashcards: every row has 5 tab-separated fields" \
    test "$(rows "$tsv" | awk -F'\t' 'NF != 5' | wc -l)" -eq 0
check "flashcards: every field is filled" \
    test "$(rows "$tsv" | awk -F'\t' '$1 == "" || $2 == "" || $3 == "" || $5 == ""' | wc -l)" -eq 0
check "flashcards: GUIDs are unique" test -z "$(field "$tsv" 1 | sort | uniq -d)"
check "flashcards: GUIDs are chalk-<card id>" \
    test "$(field "$tsv" 1 | grep -cv '^chalk-[A-Za-z0-9._-]*$')" -eq 0
check "flashcards: chapter 1's cards go to deck Chalk::01 Batching" \
    test "$(rows "$tsv" | awk -F'\t' '$1 ~ /^chalk-ch1-/' | cut -f5 | sort -u)" = "Chalk::01 Batching"
check "flashcards: no live number left unresolved" test "$(grep -c '{\.chalk' "$tsv")" -eq 0
# deck names as the book names the chapter: its number, its short= or its title up to
# the colon (book/filters/flashcards.lua), never its file's slug ("02 Moe")
check "flashcards: chapter 2's cards go to deck Chalk::02 MoE (its header's short=)" \
    test "$(rows "$tsv" | awk -F'\t' '$1 ~ /^chalk-ch2-/' | cut -f5 | sort -u)" = "Chalk::02 MoE"
check "flashcards: chapter 6's cards go to deck Chalk::06 RevNets" \
    test "$(rows "$tsv" | awk -F'\t' '$1 ~ /^chalk-ch6-/' | cut -f5 | sort -u)" = "Chalk::06 RevNets"
cp "$tsv" "$W/first.tsv"
rm -f "$tsv"
make -s --no-print-directory flashcards >/dev/null 2>&1
check "flashcards: a rebuild gives the same GUIDs" cmp -s <(field "$W/first.tsv" 1) <(field "$tsv" 1)
ids_md=$(grep -o '{\.card id=[^ }]*' chapters/*.md | sed 's/.*id=/chalk-/' | sort)
check "flashcards: one row per ::: card of the chapters" test "$ids_md" = "$(field "$tsv" 1 | sort)"

cards "$W/fx.tsv" "$T/chalk-stub.sh" "$T/cards.md" 2>/dev/null
fx() { grep "^chalk-$1	" "$W/fx.tsv"; }
check "flashcards: inline math becomes \\( \\)" grep -qF '\(x^2\)' <(fx fx-math | cut -f2)
check "flashcards: display math becomes \\[ \\]" grep -qF '\[ x^2 = 9 \]' <(fx fx-math | cut -f3)
check "flashcards: < inside math is HTML-escaped" grep -qF '\(a &lt; b\)' <(fx fx-math | cut -f2)
check "flashcards: no \$ math delimiters left" test "$(rows "$W/fx.tsv" | grep -c '\$')" -eq 0
# 0.0123 s from the stub, printed in ms with 3 digits (book/README.md "Live numbers").
check "flashcards: a live number is resolved through chalk.lua" grep -qF '12.3' <(fx fx-math | cut -f3)
check "flashcards: a tab in the text is &#9;, rows stay 5 fields" \
    test "$(rows "$W/fx.tsv" | awk -F'\t' 'NF != 5' | wc -l)" -eq 0
check "flashcards: a code block's lines are joined with <br>" grep -qF 'line one<br>' <(fx fx-code | cut -f3)
check "flashcards: a front starting with a quote cannot open a quoted field" \
    test "$(fx fx-code | cut -f2 | cut -c1)" != '"'
check "flashcards: tags are the card's plus the chapter's" \
    test "$(fx fx-math | cut -f4)" = "math derive chalk::cards"
cards "$W/decks.tsv" "$T/chalk-stub.sh" "$T/07-short.md" "$T/08-colon.md" 2>/dev/null
check "flashcards: a chapter's deck is its number and its header's short= (Chalk::07 Short)" \
    test "$(grep '^chalk-fx-short-deck' "$W/decks.tsv" | cut -f5)" = "Chalk::07 Short"
check "flashcards: without short=, its title up to the first colon (Chalk::08 Colon title)" \
    test "$(grep '^chalk-fx-colon-deck' "$W/decks.tsv" | cut -f5)" = "Chalk::08 Colon title"
cards "$W/fx-edited.tsv" "$T/chalk-stub.sh" "$T/cards-edited.md" 2>/dev/null
check "flashcards: an edited card keeps its GUID (and Anki its history)" \
    test "$(grep -c '^chalk-fx-math	<p>Edited' "$W/fx-edited.tsv")" -eq 1
if cards "$W/dup.tsv" "$T/chalk-stub.sh" "$T/cards.md" "$T/cards-dup.md" 2>"$W/dup.err"; then
    bad "flashcards: a duplicate id stops the build"
else
    check "flashcards: a duplicate id stops the build, naming it and both chapters" \
        grep -q 'card id "fx-math" is used twice (cards and cards-dup)' "$W/dup.err"
fi
check "flashcards: a failed build leaves no file" test ! -e "$W/dup.tsv"
if cards "$W/noid.tsv" "$T/chalk-stub.sh" "$T/cards-noid.md" 2>"$W/noid.err"; then
    bad "flashcards: a card without id stops the build"
else
    check "flashcards: a card without id stops the build" grep -q 'has no id=' "$W/noid.err"
fi

# ---- problems --------------------------------------------------------------------

key=$W/answers-test-a.json
# jv ID FIELD: a field of one problem in a key (one problem per line, book/problems.md).
jv() { sed -n "s/^  \"$1\": {.*\"$2\": \\(\"[^\"]*\"\\|[^,}]*\\).*/\\1/p" "${3:-$key}" | tr -d '"'; }
# cj COMMAND KEY: a number from chalk COMMAND --json.
cj() {
    local -a args
    read -ra args <<<"$1"
    build/chalk "${args[@]}" --json | sed -n "s/^  \"$2\": \\([^,]*\\),\\?$/\\1/p"
}
# close A B [TOL]: relative difference at most TOL (default 1e-9).
close() { awk -v a="$1" -v b="$2" -v t="${3:-1e-9}" \
    'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= t * m) }'; }

if OUT=$W make -s --no-print-directory problems >/dev/null 2>"$W/noseed.err"; then
    bad "problems: make problems without SEED is an error"
else
    check "problems: make problems without SEED prints a usage line" grep -q '^usage: make problems SEED=' "$W/noseed.err"
fi
OUT=$W make -s --no-print-directory problems SEED=test-a >"$W/a1.out" 2>&1
check "problems: make problems SEED=test-a writes the two PDFs and the key" \
    test -s "$W/problems-test-a.pdf" -a -s "$W/answers-test-a.pdf" -a -s "$key"
for f in problems-test-a.pdf answers-test-a.pdf answers-test-a.json; do cp "$W/$f" "$W/first-$f"; done
OUT=$W make -s --no-print-directory problems SEED=test-a >/dev/null 2>&1
for f in problems-test-a.pdf answers-test-a.pdf answers-test-a.json; do
    check "problems: the same seed gives a byte-identical $f" cmp -s "$W/$f" "$W/first-$f"
done
OUT=$W make -s --no-print-directory problems SEED=test-b >/dev/null 2>&1
check "problems: the test seeds write nothing to the reader's build/" \
    test -z "$(find build -maxdepth 2 -newer "$W/start" -name '*test-[ab]*' 2>/dev/null)"
values() { sed -n 's/^  "\([^"]*\)": {"value": \([^,]*\),.*/\1 \2/p' "$1"; }
check "problems: another seed gives other numbers" \
    test "$(values "$key")" != "$(values "$W/answers-test-b.json")"
check "problems: both keys hold the same problems" \
    test "$(values "$key" | cut -d' ' -f1)" = "$(values "$W/answers-test-b.json" | cut -d' ' -f1)"
np=$(values "$key" | wc -l)
check "problems: chapter 1 has at least 6 templates ($np)" test "$np" -ge 6
stars=$(sed -n 's/.*"stars": \([0-9]*\),.*/\1/p' "$key" | sort -u | tr -d '\n')
check "problems: templates at all three star levels ($stars)" test "$stars" = 123
pdftotext "$W/problems-test-a.pdf" "$W/q.txt" && pdftotext "$W/answers-test-a.pdf" "$W/a.txt"
check "problems: the problem set names its seed" grep -q 'seed test-a' "$W/q.txt"
check "problems: the problem set holds no answers" test "$(grep -c 'Answer:' "$W/q.txt")" -eq 0
check "problems: the key holds an answer per problem" test "$(grep -c 'Answer:' "$W/a.txt")" -eq "$np"

# Every value of the key is chalk's, for the command it records.
bad_values=0
while read -r id _; do
    cmd=$(jv "$id" command) k=$(jv "$id" key) v=$(jv "$id" value) s=$(jv "$id" scale)
    read -ra args <<<"$cmd"
    # a word (a JSON string: "value": "...") or a number, by the key's own JSON type
    if grep -q "^  \"$id\": {\"value\": \"" "$key"; then
        got=$(build/chalk "${args[@]}" --json | sed -n "s/^  \"$k\": \"\\(.*\\)\",\\?$/\\1/p")
        [ "$got" = "$v" ] || bad_values=$((bad_values + 1))
    else
        got=$(cj "$cmd" "$k")
        close "$v" "$(awk -v g="$got" -v s="$s" 'BEGIN { printf "%.17g", g * s }')" || bad_values=$((bad_values + 1))
    fi
done < <(values "$key")
check "problems: every key value is what chalk computes for its command" test "$bad_values" -eq 0

# The latency floor from its drawn parameters, two ways: a fresh chalk command and
# the closed form 2 bytes x params_total / (chips x HBM bandwidth) (chapter 1, bf16).
model=$(sed -n 's/^  "ch1-latency-floor": .*"params": {"model": "\([^"]*\)".*/\1/p' "$key")
hw=$(sed -n 's/^  "ch1-latency-floor": .*"hw": "\([^"]*\)".*/\1/p' "$key")
v=$(jv ch1-latency-floor value)
fresh=$(cj "decode --model $model --hw $hw --batch 1 --context 0" latency_floor_s)
check "problems: ch1-latency-floor ($model on $hw) equals a fresh chalk decode" \
    close "$v" "$(awk -v x="$fresh" 'BEGIN { printf "%.17g", x * 1000 }')"
p=$(cj "show model $model" params_total) bw=$(cj "show hw $hw" hbm_bytes_per_s)
chips=$(cj "show hw $hw" scaleup_domain_chips)
check "problems: ch1-latency-floor equals 2 N / (n W) in ms" \
    close "$v" "$(awk -v p="$p" -v c="$chips" -v w="$bw" 'BEGIN { printf "%.17g", 2 * p / (c * w) * 1000 }')" 1e-12

if OUT=$W book/problems.sh fx "$T/problems-bad.md" >/dev/null 2>"$W/typo.err"; then
    bad "problems: an unknown placeholder stops the build"
else
    check "problems: an unknown placeholder stops the build, naming it" grep -q 'fx-typo: unknown placeholder {hwx}' "$W/typo.err"
fi
# bad_template NAME EXPECTED-MESSAGE BODY: a template that must stop the build.
bad_template() {
    # shellcheck disable=SC2016 # the backticks are markdown
    printf '# Fixture\n\n## Practice problems\n\n```{.problem id=fx stars=1}\n%s\n```\n' "$3" >"$W/$1.md"
    if OUT=$W book/problems.sh fx "$W/$1.md" >/dev/null 2>"$W/$1.err"; then
        bad "problems: $1 stops the build"
    else
        check "problems: $1 stops the build: $2" grep -qF "$2" "$W/$1.err"
    fi
}
bad_template "a reversed range" "fx: var b: range \"9..2\" has LO > HI" \
    "$(printf 'vars:\n  b: 9..2\nquestion: q {b}\nanswer: departures --hw h100-sxm -> step_s')"
bad_template "a missing answer" "problem fx: needs answer:" "question: q"
bad_template "an unknown key" 'unknown key "answr"' \
    "$(printf 'question: q\nanswr: departures --hw h100-sxm -> step_s')"
bad_template "an answer chalk never gives" "no draw in 100 gave an answer" \
    "$(printf 'question: q\nanswer: departures --hw no-such-chip -> step_s')"
bad_template "require naming no variable" 'require "answer != {nosuch}": no variable {nosuch}' \
    "$(printf 'vars:\n  b: 2..9 int\nquestion: q {b}\nanswer: bubble --stages {b} --microbatches 8 -> bubble_fraction\nrequire:\n  - answer != {nosuch}')"
bad_template "require with an operator it lacks" 'the operators are < <= > >= == !=' \
    "$(printf 'vars:\n  b: 2..9 int\nquestion: q {b}\nanswer: bubble --stages {b} --microbatches 8 -> bubble_fraction\nrequire:\n  - answer => 2')"
bad_template "require on a key the answer's JSON lacks" "the answer's JSON has no key \"no_such_key\"" \
    "$(printf 'vars:\n  b: 2..9 int\nquestion: q {b}\nanswer: bubble --stages {b} --microbatches 8 -> bubble_fraction\nrequire:\n  - no_such_key < 2')"
bad_template "require as a list item without its dash" 'require: lists conditions as "  - CONDITION"' \
    "$(printf 'vars:\n  b: 2..9 int\nquestion: q {b}\nanswer: bubble --stages {b} --microbatches 8 -> bubble_fraction\nrequire:\n  answer < 2')"
bad_template "degenerate-ok without its reason" 'degenerate-ok: REASON' \
    "$(printf 'vars:\n  b: 2..9 int\nquestion: q {b}\nanswer: bubble --stages {b} --microbatches 8 -> bubble_fraction\ndegenerate-ok:')"

# require: every draw of five seeds meets all three conditions (book/problems.md,
# "The regime"), read back from the key: the answer, two drawn variables, and a
# second key of the same command, recomputed with chalk.
regime_bad=0
for seed in r1 r2 r3 r4 r5; do
    if ! OUT=$W book/problems.sh "$seed" "$T/problems-regime.md" >/dev/null 2>"$W/regime.err"; then
        regime_bad=$((regime_bad + 1))
        continue
    fi
    rk=$W/answers-$seed.json
    v=$(jv fx-regime value "$rk")
    s_=$(sed -n 's/.*"stages": \([0-9]*\).*/\1/p' "$rk") m_=$(sed -n 's/.*"microbatches": \([0-9]*\).*/\1/p' "$rk")
    over=$(cj "bubble --stages $s_ --microbatches $m_" bubble_over_ideal)
    awk -v v="$v" -v s="$s_" -v m="$m_" -v o="$over" 'BEGIN { exit !(v < 0.2 && m >= 2 * s && o < 0.25) }' ||
        regime_bad=$((regime_bad + 1))
done
check "problems: require's conditions hold in every draw (answer, {var}s, another key; 5 seeds)" test "$regime_bad" -eq 0
# The answers appendix (::: {.problem-answers}): each problem's final answer as the
# book's seed draws it, the same number the key of seed "book" holds.
printf '# Answers {#sec:answers .appendix}\n\n::: {.problem-answers chapters="%s"}\nIntro.\n:::\n' \
    "$T/problems-regime.md" >"$W/answers.md"
OUT=$W book/problems.sh book "$T/problems-regime.md" >/dev/null 2>&1
want=$(jv fx-regime shown "$W/answers-book.json")
pandoc "$W/answers.md" -L book/filters/problems.lua -t plain -o "$W/answers.txt" 2>"$W/answers.err"
check "problems: the answers appendix prints each problem's answer as seed book draws it ($want)" \
    grep -q "^ *1\.1 .*fx-regime.* $want (±2%)" "$W/answers.txt"
OUT=$W book/problems.sh "../x" >/dev/null 2>"$W/seed.err"
rc=$?
check "problems: a bad seed is refused with one line, exit 2" \
    test "$rc" -eq 2 -a "$(grep -c '^problems: bad seed' "$W/seed.err")" -eq 1

# ---- check-answers ----------------------------------------------------------------

values "$key" | tr -d '"' >"$W/right.txt"
build/chalk check-answers "$key" "$W/right.txt" >"$W/right.out" 2>&1
rc=$?
check "check-answers: the key's own values score full, exit 0" \
    test "$rc" -eq 0 -a "$(tail -1 "$W/right.out")" = "score: $np/$np (100%)"
{
    echo '{'
    values "$key" | sed 's/^\([^ ]*\) \(.*\)$/  "\1": \2,/' | sed '$ s/,$//'
    echo '}'
} >"$W/right.json"
check "check-answers: the same answers as JSON score full" quiet build/chalk check-answers "$key" "$W/right.json"
want=$(jv ch1-latency-floor value) tol=$(jv ch1-latency-floor tolerance)
inside=$(awk -v v="$want" -v t="$tol" 'BEGIN { printf "%.6g", v * (1 + t / 2) }')
outside=$(awk -v v="$want" -v t="$tol" 'BEGIN { printf "%.6g", v * (1 + 2 * t) }')
sed "s/^ch1-latency-floor .*/ch1-latency-floor $inside/" "$W/right.txt" >"$W/inside.txt"
check "check-answers: an answer within the tolerance is right" \
    quiet build/chalk check-answers "$key" "$W/inside.txt"
sed "s/^ch1-latency-floor .*/ch1-latency-floor $outside/" "$W/right.txt" >"$W/off.txt"
build/chalk check-answers "$key" "$W/off.txt" >"$W/off.out" 2>&1
rc=$?
check "check-answers: an answer off by twice the tolerance is reported, exit 1" \
    test "$rc" -eq 1 -a "$(tail -1 "$W/off.out")" = "score: $((np - 1))/$np ($(awk -v a=$((np - 1)) -v b="$np" 'BEGIN { printf "%.0f", 100 * a / b }')%)"
check "check-answers: the off line names the id, expected, got and unit" \
    grep -q "^ch1-latency-floor .*off .*expected [0-9.,]* ms, got $outside ms" "$W/off.out"
grep -v '^ch1-drain ' "$W/right.txt" >"$W/missing.txt"
check "check-answers: a missing answer is reported" \
    sh -c "build/chalk check-answers $key $W/missing.txt | grep '^ch1-drain .*missing' >/dev/null"
printf 'ch1-latency-floor\n' >"$W/malformed.txt"
build/chalk check-answers "$key" "$W/malformed.txt" >"$W/mal.out" 2>"$W/mal.err"
rc=$?
check "check-answers: a malformed answers file: one line on stderr, exit 2" \
    test "$rc" -eq 2 -a "$(wc -l <"$W/mal.err")" -eq 1 -a ! -s "$W/mal.out"
printf '{"ch1-drain": }\n' >"$W/malformed.json"
build/chalk check-answers "$key" "$W/malformed.json" >/dev/null 2>"$W/malj.err"
rc=$?
check "check-answers: malformed JSON: one line naming the file, exit 2" \
    test "$rc" -eq 2 -a "$(wc -l <"$W/malj.err")" -eq 1 -a "$(grep -c "malformed.json:1: malformed JSON" "$W/malj.err")" -eq 1
build/chalk check-answers "$W/right.txt" "$W/right.txt" >/dev/null 2>&1
check "check-answers: a key that is not a key is refused, exit 2" test $? -eq 2

# A TeX command's argument is text, even where a variable has that name: with a
# variable {hop}, $t_\text{hop}$ stays as written (the book's ch3-decode-hops drew
# t_\text1.5 before), and {hop} outside it is the drawn number.
printf '%s\n' '# Fixture' '' '## Practice problems' '' '```{.problem id=fx-texarg stars=1}' 'vars:' \
    '  hop: 1.5 | 2.5' 'question: |' '  With $t_\text{hop}$ = {hop} ms, what is $2\,t_\text{hop}$?' \
    'answer: bubble --stages 4 --microbatches 8 -> bubble_fraction' '```' >"$W/texarg.md"
CHALK_CACHE=$W/cache pandoc "$W/texarg.md" -L book/filters/chalk.lua -L book/filters/problems.lua \
    -M problems=questions -M problems-seed=fx -t latex -o "$W/texarg.tex" 2>"$W/texarg.err"
texarg=$(cat "$W/texarg.tex" 2>/dev/null)
has_f() { printf '%s\n' "$1" | grep -qF -- "$2"; }
check "problems: \\text{hop} stays a TeX argument where a variable is named hop, and {hop} is drawn" \
    eval 'has_f "$texarg" '"'"'t_\text{hop}\) = '"'"' && grep -qE " = [12][.]5 ms" <<<"$texarg" && ! grep -qE "text[12]" <<<"$texarg"'

# ---- the handout's checker: the calculator without its chapters ------------------------
# tests/practice/checker.sh copies the framework; built as the handout builds it (the
# course's CFLAGS, lib/, cJSON), it grades exactly as build/chalk does and computes no
# chapter's answer.
tests/practice/checker.sh "$W/tools" >/dev/null 2>"$W/checker.err"
check "checker: its sources hold no chapter of the calculator" \
    test -s "$W/tools/main.c" -a -z "$(find "$W/tools" -name '[0-9][0-9]-*')"
cflags=$(sed -n 's/^CFLAGS [+:]*= *//p' tests/loop/loop.mk | tr '\n' ' ')
# shellcheck disable=SC2086 # the flags are words
# (the command tables fill their rows positionally and leave the last fields zero:
# -Wno-missing-field-initializers, as the Makefile and the handout build it)
if cc $cflags -Wno-missing-field-initializers -Ilib -I"$W/tools" -o "$W/chalk-check" "$W"/tools/*.c lib/*.c -lcjson -lm 2>"$W/checker-cc.err"; then
    ok "checker: builds warning-free with the course's CFLAGS, from tools/ and lib/ alone"
    same=0
    for f in right.txt inside.txt off.txt missing.txt malformed.txt right.json malformed.json; do
        a=$(build/chalk check-answers "$key" "$W/$f" 2>&1; echo "exit $?")
        b=$("$W/chalk-check" check-answers "$key" "$W/$f" 2>&1; echo "exit $?")
        [ "$a" = "$b" ] || { same=1; echo "# checker and chalk differ on $f"; }
    done
    check "checker: grades every answers file as build/chalk check-answers does (output and exit)" test "$same" -eq 0
    "$W/chalk-check" decode --model llama3-8b --hw h100-sxm --batch 1 --context 0 >/dev/null 2>&1
    check "checker: has no chapter command (decode is unknown to it)" test $? -eq 2
else
    bad "checker: builds warning-free with the course's CFLAGS: $(head -3 "$W/checker-cc.err")"
fi

echo "practice: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
