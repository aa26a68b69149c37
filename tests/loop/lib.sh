# shellcheck shell=bash disable=SC2034 # (the colours are for the scripts that source it)
# lib.sh -- shared by the reader's-loop scripts (check, progress, hint, solution,
# reset, watch) and the grader. Source it; it defines functions only.
#
# Files it reads:  exercises/NN-topic/exercises.txt  (ids, stars, titles, functions)
#                  tests/NN-topic/hints.txt           (the hints, for make hint; hints.b64 in a handout)
#                  build/ex/NN-topic/test             (built by make from exercises/)
# Files it writes: build/loop/NN-topic.{raw,tsv,build} (the last run, parsed)
#
# A parsed run (NN-topic.tsv) has one line per test: name <TAB> status <TAB> detail,
# status ok | fail | crash, and detail the failure's lines joined by \036.

LOOP_DIR=build/loop
CHALK_TIMEOUT=${CHALK_TIMEOUT:-2} # seconds per test binary run (a loop costs this)

# All chapters with tests, in order (as the Makefile lists them).
loop_chapters() {
    local d
    for d in tests/[0-9][0-9]-*/; do
        [ -d "$d" ] && [ -d "exercises/$(basename "$d")" ] && basename "$d"
    done
}

# The chapters named by a CH value: 01, 01-batching, several ("01 02"), or empty for
# all. Fails (printing nothing) when a word of it names no chapter. The value is
# only compared, never run.
loop_pick() {
    local ch=${1:-} c word found picked=""
    if [ -z "$ch" ]; then
        loop_chapters
        return 0
    fi
    local IFS=$' \t\n'
    for word in $ch; do
        found=0
        for c in $(loop_chapters); do
            if [ "${c#"$word"}" != "$c" ]; then
                found=1
                case " $picked " in *" $c "*) ;; *) picked="$picked $c" ;; esac
            fi
        done
        [ $found = 1 ] || return 1
    done
    [ -n "$picked" ] || return 1
    printf '%s\n' $picked
}

# exercises.txt as TSV: id, stars, title, section, functions (space-separated).
loop_exercises() {
    [ -f "exercises/$1/exercises.txt" ] || return 0
    awk '
        function val(s) { sub(/^[^:]*:[ \t]*/, "", s); sub(/[ \t]+$/, "", s); return s }
        function emit() { if (id != "") print id "\t" stars "\t" title "\t" section "\t" funcs }
        /^exercise:/ { emit(); id = val($0); stars = 1; title = ""; section = ""; funcs = "" }
        /^stars:/ { stars = val($0) + 0 }
        /^title:/ { title = val($0) }
        /^section:/ { section = val($0) }
        /^functions:/ { funcs = val($0) }
        END { emit() }
    ' "exercises/$1/exercises.txt"
}

# Chapter $1's hints on stdout: tests/NN-topic/hints.txt, or in a handout
# tests/NN-topic/hints.b64 (the same, base64-encoded, so that its files show no
# hint); nothing when it has none.
loop_hints_text() {
    if [ -f "tests/$1/hints.txt" ]; then cat "tests/$1/hints.txt"
    elif [ -f "tests/$1/hints.b64" ]; then loop_b64_decode "tests/$1/hints.b64"; fi
}

# File $1 base64-decoded on stdout (GNU coreutils' -d, else the BSD/macOS -D).
loop_b64_decode() {
    base64 -d "$1" 2>/dev/null || base64 -D -i "$1"
}

# The hints of one exercise, as "general<TAB>text" or "TEST_NAME<TAB>text" lines.
loop_hints() {
    awk -v want="$2" '
        function val(s) { sub(/^[^:]*:[ \t]*/, "", s); return s }
        /^exercise:/ { id = val($0); sub(/[ \t]+$/, "", id); next }
        id != want { next }
        /^hint:/ { print "general\t" val($0) }
        /^hint@[A-Za-z0-9_]+:/ { t = $0; sub(/^hint@/, "", t); sub(/:.*/, "", t); print t "\t" val($0) }
    ' < <(loop_hints_text "$1")
}

# The chapter whose exercises.txt declares exercise $1 (empty when none does).
loop_chapter_of() {
    local c
    for c in $(loop_chapters); do
        if loop_exercises "$c" | cut -f1 | grep -x -- "$1" >/dev/null; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

# Turns cmocka's output (stdin) into the TSV described above. A test that started
# and never finished (the process died or was killed) gets status "cut"; given the
# run's exit code and time limit (loop_parse RC LIMIT), status "crash" and the
# reason instead (as loop_cut_reason does), and the exit status 3 when the run did
# not report every test (it was cut, or ended without cmocka's summary).
loop_parse() {
    local why=""
    [ $# -lt 2 ] || why=$(loop_cut_why "$1" "$2")
    awk -v why="$why" '
        function add(s) { det = (det == "" ? s : det "\036" s) }
        function emit(st) {
            if (cur == "") return
            if (st == "cut") { cut = 1; if (why != "") { st = "crash"; det = (det == "" ? why : det "\036" why) } }
            print cur "\t" st "\t" det; cur = ""; det = ""
        }
        /^\[ RUN      \] / { emit("cut"); cur = substr($0, 14); next }
        /^\[       OK \] / { if (cur != "") emit("ok"); next }
        /^\[  FAILED  \] / { if (cur != "") emit("fail"); next }
        /^\[  SKIPPED \] / { if (cur != "") emit("fail"); next }
        /^\[==========\] [0-9]+ test\(s\) run\./ { summary = 1; next }
        /^\[  PASSED  \]/ || /^\[==========\]/ { next }
        {
            s = $0
            gsub(/\[  ERROR   \] --- /, "", s)
            gsub(/\[   LINE   \] --- /, "", s)
            if (cur != "" && s != "") add(s)
        }
        END { emit("cut"); if (why != "" && (cut || !summary)) exit 3 }
    '
}

# Why a run with exit code $1 under a limit of $2 seconds stopped early.
loop_cut_why() {
    case $1 in
    124 | 137) echo "did not finish within $2 s: an endless loop? (on a busy machine, CHALK_TIMEOUT=N gives a run N s)" ;;
    134) echo "aborted (signal 6): a failed assert() or a call to abort()" ;;
    86) echo "stopped by AddressSanitizer or UBSan: a memory error or undefined behaviour (its report is above)" ;;
    *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "stopped (exit $1) before finishing: exit() called?"; fi ;;
    esac
}

# Runs test binary $1 (its environment: CHALK_VALUES=1, the sanitizers' options
# unless set: no leak check, exit code 86 on a report; and what is exported) under
# a limit of $2 seconds, its output capped, and prints its exit code then its output.
loop_run_capped() {
    local raw rc
    raw=$(
        CHALK_VALUES=1 ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:exitcode=86} \
            UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86} timeout -k 1 "$2" "$1" 2>&1 | head -c 1000000
        exit "${PIPESTATUS[0]}"
    )
    rc=$?
    printf '%s\n%s\n' "$rc" "$raw"
}

# Runs one test binary whole (under a time limit); when that run did not report
# every test (one crashed or hung), re-runs each test it did not report in its own
# process, so one bad function costs its own tests only. Writes the TSV to FILE.
# Usage: loop_run_binary BINARY TIMEOUT FILE
loop_run_binary() {
    local bin=$1 limit=$2 file=$3 out name
    out=$(loop_run_capped "$bin" "$limit")
    printf '%s\n' "${out#*$'\n'}" | loop_parse "${out%%$'\n'*}" "$limit" >"$file" && return 0
    CHALK_LIST=1 "$bin" 2>/dev/null | awk -F'\t' -v done="$file" '
        BEGIN { while ((getline l < done) > 0) { split(l, f, "\t"); seen[f[1]] = 1 } }
        !($0 in seen)' | while IFS= read -r name; do
        out=$(CHALK_ONLY=$name loop_run_capped "$bin" "$limit")
        printf '%s\n' "${out#*$'\n'}" | loop_parse "${out%%$'\n'*}" "$limit" >>"$file"
    done
}

# Explains a "cut" status from the exit code of the run that was cut.
loop_cut_reason() {
    local why
    why=$(loop_cut_why "$1" "$2")
    awk -F'\t' -v OFS='\t' -v why="$why" '$2 == "cut" { $2 = "crash"; $3 = ($3 == "" ? why : $3 "\036" why) } { print }'
}

# The key of make check's objects (tests/loop/loop.mk): checksan, or check when
# CHALK_SANITIZE=0.
loop_check_key() { if [ "${CHALK_SANITIZE:-1}" = 0 ]; then echo check; else echo checksan; fi; }

# The compiler's messages (warnings, errors) about chapter $1's file $2 (a path
# under exercises/) from make check's last compile of it; empty when none.
loop_compiler_log() {
    local log
    log=build/obj/$(loop_check_key)/$1/ex/$(basename "$2" .c).o.log
    [ -f "$log" ] && cat "$log"
}

# Builds and runs chapter $1's tests against exercises/. Writes build/loop/$1.tsv,
# and the grader's rules on each file in build/rules/$1/FILE.txt. Returns 0 when it
# ran (whatever the results), 2 when the chapter does not compile even with each
# function that does not compile put back to the stub (the compiler's messages are
# in build/loop/$1.build). When functions were put back, build/loop/$1.broken lists
# them (function <TAB> the compiler's first error about it) and their exercises'
# tests fail, saying so. With $2 = mistakes, also brings build/mistakes/$1.tsv up to
# date (when there are solutions to build it from).
loop_run_chapter() {
    local ch=$1 goals=("build/ex/$1/test") f
    if [ "${2:-}" = mistakes ] && [ -d "solutions/$ch" ] && [ -f "tests/$ch/mistakes.txt" ]; then
        goals+=("build/mistakes/$ch.tsv")
        [ -f "build/mistakes/$ch.tsv" ] || echo "(building the values of chapter $ch's catalogued mistakes: once, a few seconds)"
    fi
    for f in exercises/"$ch"/*.c; do
        [ -f "$f" ] && goals+=("build/rules/$ch/$(basename "$f" .c).txt")
    done
    [ -d "$LOOP_DIR" ] || mkdir -p "$LOOP_DIR"
    rm -f "$LOOP_DIR/$ch.broken"
    if ! make -s -k -j2 --no-print-directory "${goals[@]}" >"$LOOP_DIR/$ch.build" 2>&1; then
        if make -s -q --no-print-directory "build/ex/$ch/test" 2>/dev/null; then
            : # only another goal failed (the mistakes' table): the tests still run
        elif ! loop_run_fixed "$ch"; then
            rm -f "$LOOP_DIR/$ch.tsv" "$LOOP_DIR/$ch.broken"
            return 2
        else
            return 0
        fi
    fi
    loop_run_binary "build/ex/$ch/test" "$CHALK_TIMEOUT" "$LOOP_DIR/$ch.tsv"
    return 0
}

# make check when chapter $1 does not compile: every function of the reader's files
# holding a compiler error is put back to the stub (in a copy, build/fix/$1/src/),
# the tests run against that copy, and the exercises of those functions fail with
# the compiler's error, so the other exercises still get their results. Returns 1
# when that cannot be done: an error outside any function, in a function the stub
# does not have (a helper of yours), or a copy that still does not compile.
loop_run_fixed() {
    local ch=$1 f b log fns fn line msg stub dir=build/fix/$1
    rm -rf "$dir" && mkdir -p "$dir/src" || return 1
    : >"$LOOP_DIR/$ch.broken"
    for f in exercises/"$ch"/*.c; do
        b=$(basename "$f")
        log=build/obj/$(loop_check_key)/$ch/ex/${b%.c}.o.log
        if [ -f "build/obj/$(loop_check_key)/$ch/ex/${b%.c}.o" ] || [ ! -f "$log" ]; then
            cp "$f" "$dir/src/$b"
            continue
        fi
        # the function around each error (FILE:LINE:COL: error: or fatal error:)
        fns=$(grep -E "^$f:[0-9]+:[0-9]+: (fatal )?error: " "$log" | while IFS=: read -r _ line _ _ msg; do
            fn=$(loop_c_functions "$f" | awk -F'\t' -v l="$line" '$4 <= l && l <= $3 { print $1; exit }')
            [ -n "$fn" ] || fn="-"
            printf '%s\t%s:%s:%s\n' "$fn" "$f" "$line" "$msg"
        done | awk -F'\t' '!seen[$1]++')
        [ -n "$fns" ] || return 1
        printf '%s\n' "$fns" | cut -f1 | grep -qx -- - && return 1
        stub=$(mktemp) || return 1
        if ! loop_pristine "$ch" "$b" >"$stub"; then
            rm -f "$stub"
            return 1
        fi
        for fn in $(printf '%s\n' "$fns" | cut -f1); do # a function the stub lacks cannot be put back
            loop_c_functions "$stub" | cut -f1 | grep -qxF -- "$fn" || {
                rm -f "$stub"
                return 1
            }
        done
        loop_splice "$f" "$stub" "$(printf '%s\n' "$fns" | cut -f1 | tr '\n' ' ')" >"$dir/src/$b" 2>/dev/null || {
            rm -f "$stub"
            return 1
        }
        rm -f "$stub"
        printf '%s\n' "$fns" >>"$LOOP_DIR/$ch.broken"
    done
    [ -s "$LOOP_DIR/$ch.broken" ] || return 1
    make -s --no-print-directory "$dir/test" >"$LOOP_DIR/$ch.fix.build" 2>&1 || return 1
    loop_run_binary "$dir/test" "$CHALK_TIMEOUT" "$LOOP_DIR/$ch.tsv.fix"
    # the tests of an exercise with a function put back fail, with the compiler's word
    loop_exercises "$ch" | awk -F'\t' -v OFS='\t' -v broken="$LOOP_DIR/$ch.broken" '
        BEGIN { while ((getline l < broken) > 0) { split(l, b, "\t"); err[b[1]] = b[2] } }
        FILENAME == "-" {
            n = split($5, fn, " ")
            for (i = 1; i <= n; i++) if (fn[i] in err) { bad[$1] = "does not compile: " fn[i] " (" err[fn[i]] ")"; break }
            next
        }
        { ex = $1; sub(/: .*/, "", ex); if (ex in bad) { $2 = "fail"; $3 = bad[ex] } print }
    ' - "$LOOP_DIR/$ch.tsv.fix" >"$LOOP_DIR/$ch.tsv"
    rm -f "$LOOP_DIR/$ch.tsv.fix"
    return 0
}

# Per exercise of chapter $1, from build/loop/$1.tsv (absent: nothing compiled):
# id, stars, passed, total, title, section, first failing test name, its detail.
loop_summary() {
    local ch=$1 tsv=$LOOP_DIR/$1.tsv
    [ -f "$tsv" ] || tsv=/dev/null
    loop_exercises "$ch" | awk -F'\t' -v OFS='\t' -v tsv="$tsv" '
        BEGIN {
            while ((getline line < tsv) > 0) {
                split(line, f, "\t")
                ex = f[1]; sub(/: .*/, "", ex)
                total[ex]++
                if (f[2] == "ok") ok[ex]++
                else if (!(ex in first)) { first[ex] = f[1]; detail[ex] = f[3] }
            }
        }
        { print $1, $2, ok[$1] + 0, total[$1] + 0, $3, $4, first[$1], detail[$1] }
    '
}

# Puts a failure detail (the \036-joined lines from loop_parse) in plain words:
# what was computed, what was expected, the units, and where the test is.
loop_explain() {
    awk -f tests/loop/explain.awk -v mode=explain -v detail="$1"
}

# For each test of a parsed run (stdin) that failed at an assertion: its name,
# where (FILE:LINE) and the value computed there (see explain.awk).
loop_values() {
    awk -f tests/loop/explain.awk -v mode=values
}

# Stars as text: ★ per star earned or possible.
loop_stars() {
    local n=$1 s=""
    while [ "$n" -gt 0 ]; do s="$s★"; n=$((n - 1)); done
    printf '%s' "$s"
}

# Where hint state lives: build/loop/hints (make clean forgets which hints you saw).
LOOP_HINTS=$LOOP_DIR/hints-seen

# The hints of exercise $2 in chapter $1 in the order they are given, for a first
# failing test $3: that test's own hint first, then the general ones. Each line:
# key <TAB> text, key "TEST_NAME" or "general:N".
loop_hint_order() {
    local ch=$1 ex=$2 test=${3:-}
    test=${test#*: }
    loop_hints "$ch" "$ex" | awk -F'\t' -v t="$test" '
        $1 == t { print $1 "\t" $2 }
        $1 == "general" { g[++n] = $2 }
        END { for (i = 1; i <= n; i++) print "general:" i "\t" g[i] }
    '
}

# Reveals (records as seen) and prints the next unseen hint of an exercise; with
# $4 = "again", prints the last one seen instead (revealing the first if none was).
# Prints: number <TAB> total <TAB> text. Returns 1 when the exercise has no hints,
# 3 when every hint was seen already. (One awk: make check calls it every time.)
loop_hint_next() {
    local ch=$1 ex=$2 test=${3:-} mode=${4:-next} out rc
    [ -d "$LOOP_DIR" ] || mkdir -p "$LOOP_DIR"
    [ -f "$LOOP_HINTS" ] || : >"$LOOP_HINTS"
    out=$(awk -v ch="$ch" -v want="$ex" -v t="${test#*: }" -v mode="$mode" -v seenf="$LOOP_HINTS" '
        function val(s) { sub(/^[^:]*:[ \t]*/, "", s); return s }
        BEGIN { while ((getline l < seenf) > 0) seen[l] = 1 }
        /^exercise:/ { id = val($0); sub(/[ \t]+$/, "", id); next }
        id != want { next }
        /^hint:/ { g[++ng] = val($0) }
        /^hint@[A-Za-z0-9_]+:/ { k = $0; sub(/^hint@/, "", k); sub(/:.*/, "", k); if (k == t) own = val($0) }
        END {
            n = 0
            if (own != "") { key[++n] = t; text[n] = own }
            for (i = 1; i <= ng; i++) { key[++n] = "general:" i; text[n] = g[i] }
            if (n == 0) exit 1
            pre = ch " " want " "
            for (i = 1; i <= n; i++) if ((pre key[i]) in seen) { nseen++; last = i }
            # again: the last hint seen, unless the test has its own hint not seen yet
            if (mode == "again" && last && !(own != "" && !((pre t) in seen))) { print nseen "\t" n "\t" text[last]; exit 0 }
            for (i = 1; i <= n; i++) if (!((pre key[i]) in seen)) { print pre key[i]; print nseen + 1 "\t" n "\t" text[i]; exit 0 }
            exit 3
        }' < <(loop_hints_text "$ch"))
    rc=$?
    [ $rc = 0 ] || return $rc
    if [ "${out%%$'\n'*}" != "$out" ]; then # a hint revealed: record it
        echo "${out%%$'\n'*}" >>"$LOOP_HINTS"
        out=${out#*$'\n'}
    fi
    printf '%s\n' "$out"
}

loop_seen_count() { grep -c "^$1 $2 " "$LOOP_HINTS" || true; }

# Colour only on a terminal.
if [ -t 1 ]; then
    C_OK=$'\033[32m' C_BAD=$'\033[31m' C_DIM=$'\033[2m' C_BOLD=$'\033[1m' C_OFF=$'\033[0m'
else
    C_OK='' C_BAD='' C_DIM='' C_BOLD='' C_OFF=''
fi

# Every top-level function definition in C file $1, with the comment right above
# it, as records: name <TAB> first line <TAB> last line <TAB> comment's first line
# <TAB> 1 when it is static.
# A rough parser, enough for the workbook's own style: a definition starts at
# column 0 with an identifier and a "(", and ends where its braces close.
loop_c_functions() {
    awk '
        function count(s, ch,   n, i) { n = 0; for (i = 1; i <= length(s); i++) if (substr(s, i, 1) == ch) n++; return n }
        {
            line = $0
            code = line
            gsub(/"([^"\\]|\\.)*"/, "\"\"", code)      # strings
            gsub(/\/\*.*\*\//, "", code)                # one-line comments
            sub(/\/\/.*/, "", code)
        }
        incomment { if (line ~ /\*\//) incomment = 0; next }
        state == 0 {
            if (line ~ /^\/\*/ || line ~ /^\/\//) {
                if (line ~ /(end)?region:/) { next }
                if (cstart == 0) cstart = NR
                if (line ~ /^\/\*/ && line !~ /\*\//) incomment = 1
                next
            }
            if (line ~ /^[A-Za-z_]/ && code ~ /\(/ && line !~ /^(typedef|struct|enum|union)[ \t]/) {
                name = code; sub(/\(.*/, "", name); sub(/[ \t]+$/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
                start = NR; depth = 0; opened = 0; state = 1; isstatic = (line ~ /^static[ \t]/)
            } else { cstart = 0; next }
        }
        state == 1 {
            depth += count(code, "{") - count(code, "}")
            if (count(code, "{") > 0) opened = 1
            if (!opened && code ~ /;[ \t]*$/) { state = 0; cstart = 0; next }   # a prototype
            if (opened && depth <= 0) {
                print name "\t" start "\t" NR "\t" (cstart ? cstart : start) "\t" isstatic
                state = 0; cstart = 0
            }
        }
    ' "$1"
}

# Prints the definitions of the functions named in $2 (space-separated) from C
# file $1, with the static helpers they call (and those helpers' helpers), in
# file order, each with its comment. Prints nothing when none is there. Only
# static helpers are pulled in: another exercise's functions stay hidden.
loop_c_extract() {
    local file=$1 names=$2
    loop_c_functions "$file" | awk -F'\t' -v file="$file" -v names="$names" '
        { n++; nm[n] = $1; from[n] = $4; to[n] = $3; st[n] = $5 }
        END {
            while ((getline l < file) > 0) src[++lines] = l
            split(names, w, " "); for (i in w) want[w[i]] = 1
            for (round = 0; round < 5; round++)
                for (i = 1; i <= n; i++) {
                    if (!(nm[i] in want)) continue
                    for (j = 1; j <= n; j++) {
                        if ((nm[j] in want) || !st[j]) continue   # helpers only, not other exercises
                        for (k = from[i]; k <= to[i]; k++)
                            if (src[k] ~ ("(^|[^A-Za-z0-9_])" nm[j] "[ \t]*\\(")) { want[nm[j]] = 1; break }
                    }
                }
            first = 1
            for (i = 1; i <= n; i++) if (nm[i] in want) {
                if (!first) print ""
                first = 0
                for (k = from[i]; k <= to[i]; k++) if (src[k] !~ /^\/\* (end)?region: .*\*\/$/) print src[k]
            }
        }
    '
}

# The stub as handed out, of exercises/$1/$2, written to stdout: the pristine copy
# a handout carries (tests/stubs/), else git's copy in the upstream branch (a
# reader's clone: their own commits do not count), else in HEAD.
# The stub files of chapter $1 as the pristine copy has them (tests/stubs/, else
# git's upstream or HEAD), one name a line: what make reset restores, deleted or not.
loop_pristine_files() {
    local ch=$1 ref f
    if [ -d "tests/stubs/$ch" ]; then
        for f in "tests/stubs/$ch"/*.c; do [ -f "$f" ] && basename "$f"; done
        return 0
    fi
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 1
    for ref in '@{upstream}' HEAD; do
        git rev-parse -q --verify "$ref" >/dev/null 2>&1 || continue
        git ls-tree --name-only "$ref" "exercises/$ch/" 2>/dev/null | sed -n 's|.*/||; /\.c$/p'
        return 0
    done
    return 1
}

# The chapters with a .c file that differs from its stub as handed out (or has no
# pristine copy), one a line, most recently edited first: the chapters a reader works on.
loop_changed_chapters() {
    local c f m tmp newest
    tmp=$(mktemp) || return 1
    for c in $(loop_chapters); do
        newest=""
        for f in exercises/"$c"/*.c; do
            [ -f "$f" ] || continue
            if ! loop_pristine "$c" "$(basename "$f")" >"$tmp" 2>/dev/null || ! cmp -s "$tmp" "$f"; then
                m=$(stat -c %Y "$f")
                if [ -z "$newest" ] || [ "$m" -gt "$newest" ]; then newest=$m; fi
            fi
        done
        [ -z "$newest" ] || printf '%s\t%s\n' "$newest" "$c"
    done | sort -k1,1nr -k2,2 | cut -f2
    rm -f "$tmp"
}

loop_pristine() {
    local ch=$1 file=$2 ref
    if [ -f "tests/stubs/$ch/$file" ]; then
        cat "tests/stubs/$ch/$file"
        return 0
    fi
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 1
    for ref in '@{upstream}' HEAD; do
        git rev-parse -q --verify "$ref" >/dev/null 2>&1 || continue
        git show "$ref:exercises/$ch/$file" 2>/dev/null && return 0
    done
    return 1
}

# Copies a reader's file to exercises/CH/.backup/FILE.YYYYmmdd-HHMMSS (a new name
# every time) and prints the backup's path. Backups live beside the exercises, not
# in build/, so make clean never removes them.
loop_backup() {
    local path=$1 dir stamp dest i=1
    dir=$(dirname "$path")/.backup
    mkdir -p "$dir"
    stamp=$(date +%Y%m%d-%H%M%S)
    dest=$dir/$(basename "$path").$stamp
    while [ -e "$dest" ]; do
        i=$((i + 1))
        dest=$dir/$(basename "$path").$stamp-$i
    done
    cp -p "$path" "$dest" && echo "$dest"
}

# Prints C file $1 with each function named in $3 (space-separated) replaced,
# header to closing brace, by its definition in C file $2. Functions $2 does not
# define are left alone. Returns 3, naming the function on stderr, when $2
# defines one that $1 does not.
loop_splice() {
    local target=$1 source=$2 fn s m plan
    plan=$(mktemp)
    for fn in $3; do
        s=$(loop_c_functions "$source" | awk -F'\t' -v f="$fn" '$1 == f { print $2, $3 }')
        [ -n "$s" ] || continue
        m=$(loop_c_functions "$target" | awk -F'\t' -v f="$fn" '$1 == f { print $2, $3 }')
        if [ -z "$m" ]; then
            echo "$fn" >&2
            rm -f "$plan"
            return 3
        fi
        echo "$m $s" >>"$plan"
    done
    awk -v plan="$plan" -v src="$source" '
        BEGIN {
            while ((getline l < src) > 0) s[++n] = l
            while ((getline l < plan) > 0) { split(l, p, " "); to[p[1]] = p[2]; from_s[p[1]] = p[3]; to_s[p[1]] = p[4] }
        }
        FNR in to { for (i = from_s[FNR]; i <= to_s[FNR]; i++) print s[i]; skip = to[FNR]; next }
        FNR <= skip { next }
        { print }
    ' "$target"
    rm -f "$plan"
}
