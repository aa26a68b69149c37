# lib.sh -- shared by the reader's-loop scripts (check, progress, hint, solution,
# reset, watch) and the grader. Source it; it defines functions only.
#
# Files it reads:  exercises/NN-topic/exercises.txt  (ids, stars, titles, hints)
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

# The chapters named by a CH value (01, 01-batching, or empty for all).
loop_pick() {
    local ch=${1:-} c found=0
    for c in $(loop_chapters); do
        if [ -z "$ch" ] || [ "${c#"$ch"}" != "$c" ]; then
            echo "$c"
            found=1
        fi
    done
    [ $found = 1 ]
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

# The hints of one exercise, as "general<TAB>text" or "TEST_NAME<TAB>text" lines.
loop_hints() {
    awk -v want="$2" '
        function val(s) { sub(/^[^:]*:[ \t]*/, "", s); return s }
        /^exercise:/ { id = val($0); sub(/[ \t]+$/, "", id); next }
        id != want { next }
        /^hint:/ { print "general\t" val($0) }
        /^hint@[A-Za-z0-9_]+:/ { t = $0; sub(/^hint@/, "", t); sub(/:.*/, "", t); print t "\t" val($0) }
    ' "exercises/$1/exercises.txt"
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
# and never finished (the process died or was killed) gets status "cut".
loop_parse() {
    awk '
        function add(s) { det = (det == "" ? s : det "\036" s) }
        function emit(st) { if (cur != "") print cur "\t" st "\t" det; cur = ""; det = "" }
        /^\[ RUN      \] / { emit("cut"); cur = substr($0, 14); next }
        /^\[       OK \] / { if (cur != "") emit("ok"); next }
        /^\[  FAILED  \] / { if (cur != "") emit("fail"); next }
        /^\[  SKIPPED \] / { if (cur != "") emit("fail"); next }
        /^\[  PASSED  \]/ || /^\[==========\]/ { next }
        {
            s = $0
            gsub(/\[  ERROR   \] --- /, "", s)
            gsub(/\[   LINE   \] --- /, "", s)
            if (cur != "" && s != "") add(s)
        }
        END { emit("cut") }
    '
}

# Runs one test binary whole (under a time limit); then re-runs one by one, each
# in its own process, any test the whole run did not report (it crashed or hung),
# so one bad function costs its own tests only. Writes the TSV to stdout.
# Usage: loop_run_binary BINARY TIMEOUT
loop_run_binary() {
    local bin=$1 limit=$2 raw rc name
    raw=$(
        timeout -k 1 "$limit" "$bin" 2>&1 | head -c 1000000
        exit "${PIPESTATUS[0]}"
    )
    rc=$?
    printf '%s\n' "$raw" | loop_parse | loop_cut_reason "$rc" "$limit" >"$LOOP_TMP.tsv"
    cat "$LOOP_TMP.tsv"
    CHALK_LIST=1 "$bin" 2>/dev/null | while IFS= read -r name; do
        cut -f1 "$LOOP_TMP.tsv" | grep -xF -- "$name" >/dev/null && continue
        raw=$(
            CHALK_ONLY=$name timeout -k 1 "$limit" "$bin" 2>&1 | head -c 1000000
            exit "${PIPESTATUS[0]}"
        )
        rc=$?
        printf '%s\n' "$raw" | loop_parse | loop_cut_reason "$rc" "$limit"
    done
}

# Explains a "cut" status from the exit code of the run that was cut.
loop_cut_reason() {
    local rc=$1 limit=$2 why
    case $rc in
    124 | 137) why="did not finish within $limit s: an endless loop?" ;;
    134) why="aborted (signal 6): a failed assert() or a call to abort()" ;;
    *) if [ "$rc" -gt 128 ]; then why="killed by signal $((rc - 128))"; else why="stopped (exit $rc) before finishing: exit() called?"; fi ;;
    esac
    awk -F'\t' -v OFS='\t' -v why="$why" '$2 == "cut" { $2 = "crash"; $3 = ($3 == "" ? why : $3 "\036" why) } { print }'
}

# Builds and runs chapter $1's tests against exercises/. Writes build/loop/$1.tsv.
# Returns 0 when it ran (whatever the results), 2 when the chapter does not compile
# (the compiler's messages are in build/loop/$1.build).
loop_run_chapter() {
    local ch=$1
    mkdir -p "$LOOP_DIR"
    LOOP_TMP=$LOOP_DIR/$ch.tmp
    if ! make -s --no-print-directory "build/ex/$ch/test" >"$LOOP_DIR/$ch.build" 2>&1; then
        rm -f "$LOOP_DIR/$ch.tsv"
        return 2
    fi
    loop_run_binary "build/ex/$ch/test" "$CHALK_TIMEOUT" >"$LOOP_DIR/$ch.tsv"
    rm -f "$LOOP_TMP.tsv"
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
    awk -v detail="$1" '
        function hex2dec(s,   i, n, c) {
            if (s !~ /^0x[0-9a-fA-F]+$/) return s
            n = 0
            for (i = 3; i <= length(s); i++) {
                c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
                n = n * 16 + c
            }
            return n
        }
        function statement(file, line,   l, s, n) {
            s = ""; n = 0
            while ((getline l < file) > 0) {
                n++
                if (n >= line) { sub(/^[ \t]+/, "", l); s = s (s == "" ? "" : " ") l; if (l ~ /;[ \t]*$/) break }
                if (n > line + 5) break
            }
            close(file)
            return s
        }
        BEGIN {
            nl = split(detail, L, "\036")
            loc = ""; file = ""; line = 0
            for (i = 1; i <= nl; i++) if (L[i] ~ /: error: Failure!$/) {
                loc = L[i]; sub(/: error: Failure!$/, "", loc)
                file = loc; sub(/:[0-9]+$/, "", file); line = loc; sub(/^.*:/, "", line)
            }
            stmt = (file != "" ? statement(file, line + 0) : "")
            said = 0; raw = ""
            for (i = 1; i <= nl; i++) {
                s = L[i]
                if (s ~ /: error: Failure!$/) continue
                if (s ~ /, expected .* \(within .* relative\)$/) {
                    p = index(s, ", expected ")
                    # the last ", expected " splits computed from expected
                    rest = s; q = 0
                    while ((k = index(rest, ", expected ")) > 0) { q += k; rest = substr(rest, k + 1) }
                    computed = substr(s, 1, q - 1); expected = substr(s, q + 11)
                    sub(/ \(within /, " (to within ", expected); sub(/ relative\)$/, " relative)", expected)
                    gsub(/  +/, " ", expected); sub(/ +$/, "", computed)
                    printf "computed %s\nexpected %s\n", computed, expected
                    said = 1
                } else if (s ~ /^Test failed with exception: /) {
                    sub(/^Test failed with exception: /, "", s)
                    sig = s; sub(/^.*\(/, "", sig); sub(/\)$/, "", sig); sub(/\([0-9]+\)$/, "", s)
                    why = (sig == 11 || sig == 7) ? ": reading or writing through a bad pointer?" : (sig == 8 ? ": an integer division by zero?" : "")
                    printf "crashed: %s (signal %s)%s\n", s, sig, why
                    said = 1
                } else if (s ~ /^[-0-9a-fx.]+ != [-0-9a-fx.]+$/ && stmt ~ /^assert_int_equal\(/) {
                    split(s, v, " != ")
                    args = stmt; sub(/^assert_int_equal\(/, "", args); sub(/\);$/, "", args)
                    # split the two arguments at the comma outside parentheses
                    depth = 0; cut = 0
                    for (j = 1; j <= length(args); j++) {
                        c = substr(args, j, 1)
                        if (c == "(") depth++
                        else if (c == ")") depth--
                        else if (c == "," && depth == 0) { cut = j; break }
                    }
                    got = substr(args, 1, cut - 1); want = substr(args, cut + 1); sub(/^ +/, "", want)
                    printf "computed %s = %s\nexpected %s = %s\n", got, hex2dec(v[1]), want, hex2dec(v[2])
                    said = 1
                } else if (stmt ~ /^assert_true\(/ && !said) {
                    e = stmt; sub(/^assert_true\(/, "", e); sub(/\);$/, "", e)
                    printf "expected true, but it is false: %s\n", e
                    said = 1
                } else if (stmt ~ /^assert_false\(/ && !said) {
                    e = stmt; sub(/^assert_false\(/, "", e); sub(/\);$/, "", e)
                    printf "expected false, but it is true: %s\n", e
                    said = 1
                } else if (raw == "") {
                    raw = s   # the programs own printing: shown only when nothing else says more
                }
            }
            if (!said && stmt != "") { printf "failed: %s\n", stmt; said = 1 }
            if (!said && raw != "") printf "%s\n", raw
            if (loc != "") printf "(the test: %s)\n", loc
        }
    '
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
# Prints: number <TAB> total <TAB> text.
loop_hint_next() {
    local ch=$1 ex=$2 test=${3:-} mode=${4:-next} order line key n=0 total last="" lastn=0
    mkdir -p "$LOOP_DIR"
    touch "$LOOP_HINTS"
    order=$(loop_hint_order "$ch" "$ex" "$test")
    [ -n "$order" ] || return 1
    total=$(printf '%s\n' "$order" | wc -l)
    # with "again": the test's own hint when it is new, else the last hint seen
    if [ "$mode" = again ]; then
        key=$(printf '%s\n' "$order" | head -1 | cut -f1)
        if [ "${key#general:}" = "$key" ] && ! grep -qxF "$ch $ex $key" "$LOOP_HINTS"; then
            mode=next
        else
            while IFS= read -r line; do
                n=$((n + 1))
                grep -qxF "$ch $ex ${line%%$'\t'*}" "$LOOP_HINTS" && { last=$line; lastn=$n; }
            done <<<"$order"
            [ -n "$last" ] || mode=next
        fi
    fi
    if [ "$mode" = next ]; then
        n=0
        while IFS= read -r line; do
            n=$((n + 1))
            key=${line%%$'\t'*}
            if ! grep -qxF "$ch $ex $key" "$LOOP_HINTS"; then
                echo "$ch $ex $key" >>"$LOOP_HINTS"
                printf '%s\t%s\t%s\n' "$(loop_seen_count "$ch" "$ex")" "$total" "${line#*$'\t'}"
                return 0
            fi
        done <<<"$order"
        return 3 # every hint already seen
    fi
    printf '%s\t%s\t%s\n' "$(loop_seen_count "$ch" "$ex")" "$total" "${last#*$'\t'}"
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
