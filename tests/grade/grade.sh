#!/usr/bin/env bash
# grade.sh -- the body of `make grade SUBMISSION=path`: grades a student's exercises
# against the instructor's tests, the hidden ones (tests/NN-topic/hidden/) included.
#
#   tests/grade/grade.sh SUBMISSION [CHAPTER...]     (default: every chapter)
#
# SUBMISSION is a directory or a tarball holding the student's exercises/ (or the
# exercises/ directory itself, its NN-topic/ directories, or just the .c files,
# as a Gradescope upload of batching.c gives). Only the .c files the
# handout's exercises/NN-topic/ has are taken; headers and tests are always the
# instructor's. Each chapter is compiled once; then every test runs in its own
# process under a time limit (TIMEOUT seconds, default 2) and a memory limit
# (MEM_MB, default 512), in a scratch directory with its output capped (64 KB), so
# a crash, an endless loop or a huge allocation costs that test only. Points per test: tests/NN-topic/points.txt, else the exercise's
# stars.
#
# Writes OUT (default build/grade/results.json) in Gradescope's autograder format,
# prints one summary line, exits 0. A bad SUBMISSION: one line on stderr, exit 2.
#   ALLOW_MISSING=1      a chapter missing from the submission scores 0 (grade-all)
#   HIDDEN_VISIBILITY=v  Gradescope visibility of hidden tests (after_published)
#   SCORES=file          also write "chapter<TAB>score<TAB>max" lines there
#
# Not a sandbox: student code runs as you. Grade untrusted code in a container
# (Gradescope runs each submission in one).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh

SUB=${1:-}
[ $# -gt 0 ] && shift
OUT=${OUT:-build/grade/results.json}
TIMEOUT=${TIMEOUT:-2}
MEM_MB=${MEM_MB:-512}
HIDDEN_VISIBILITY=${HIDDEN_VISIBILITY:-after_published}
GRADE_CFLAGS="-std=c11 -O1 -g -w"
die() {
    echo "grade: $*" >&2
    exit 2
}
t_start=$(date +%s.%N)

[ -n "$SUB" ] || die "say what to grade: make grade SUBMISSION=path (a directory or tarball of exercises/)"
[ -e "$SUB" ] || die "no such file or directory: $SUB"
[ $# -gt 0 ] || set -- $(loop_chapters)
for ch in "$@"; do [ -d "tests/$ch" ] || die "no chapter $ch"; done

work=$(mktemp -d "${TMPDIR:-/tmp}/chalk-grade.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -d "$SUB" ]; then
    src=$SUB
elif [ -f "$SUB" ]; then
    mkdir -p "$work/unpacked"
    tar -xf "$SUB" -C "$work/unpacked" 2>/dev/null || die "$SUB is neither a directory nor a tarball (tar cannot read it)"
    src=$work/unpacked
else
    die "$SUB is neither a directory nor a tarball"
fi

# The directory holding NN-topic/ for the most chapters: the submission itself, its
# exercises/, or one level down (a tarball with a top directory).
root="" best=0
for cand in "$src" "$src/exercises" "$src"/*/ "$src"/*/exercises; do
    [ -d "$cand" ] || continue
    n=0
    for ch in "$@"; do [ -d "$cand/$ch" ] && n=$((n + 1)); done
    if [ $n -gt $best ]; then root=${cand%/} best=$n; fi
done
# Or the .c files themselves, side by side (a Gradescope upload of batching.c).
if [ -z "$root" ]; then
    for ch in "$@"; do
        for stub in "exercises/$ch"/*.c; do
            f=$(basename "$stub")
            if [ -f "$src/$f" ]; then
                mkdir -p "$work/flat/$ch"
                cp "$src/$f" "$work/flat/$ch/$f"
                root=$work/flat
            fi
        done
    done
fi
[ -n "$root" ] || die "$SUB holds no exercises/NN-topic/ directory (nor the files) of chapters: $*"
for ch in "$@"; do
    for stub in "exercises/$ch"/*.c; do
        f=$(basename "$stub")
        if [ ! -f "$root/$ch/$f" ] && [ "${ALLOW_MISSING:-0}" != 1 ]; then
            die "$SUB lacks exercises/$ch/$f"
        fi
    done
done

# JSON string, escaped.
json() {
    printf '%s' "$1" | awk 'BEGIN { ORS = "" } {
        gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); gsub(/\r/, "")
        gsub(/[\001-\037]/, "")
        if (NR > 1) print "\\n"
        print
    } END { }' | sed 's/^/"/; s/$/"/'
}

# Points of a test: the first matching rule of tests/CH/points.txt, else stars.
points_of() {
    local ch=$1 key=$2 ex=$3 pat pts line
    if [ -f "tests/$ch/points.txt" ]; then
        while IFS= read -r line; do
            line=${line%%#*}
            [ -n "${line// /}" ] || continue
            pts=${line##* }
            pat=${line% *}
            pat=${pat%"${pat##*[! ]}"}
            # shellcheck disable=SC2053
            if [[ $key == $pat ]]; then
                echo "$pts"
                return
            fi
        done < <(sed 's/[ \t]*$//' "tests/$ch/points.txt")
    fi
    loop_exercises "$ch" | awk -F'\t' -v ex="$ex" '$1 == ex { s = $2 } END { print (s == "" ? 1 : s) }'
}

# Builds tests (files $3...) of chapter $1 against the .c files in dir $2 into $work.
build() {
    local out=$1 srcdir=$2
    shift 2
    timeout 120 ${CC:-cc} $GRADE_CFLAGS -include tests/loop/runner.h -Ilib -Iexercises/"$ch" \
        -o "$out" "$@" "$srcdir"/*.c lib/*.c -lcmocka -lm >"$out.log" 2>&1
}

tests_json="" total=0 max=0 n_pass=0 n_all=0 summary=""
[ -z "${SCORES:-}" ] || : >"$SCORES"
for ch in "$@"; do
    mkdir -p "$work/$ch/ref" "$work/$ch/sub"
    cp "solutions/$ch"/*.c "$work/$ch/ref/"
    missing=0
    for stub in "exercises/$ch"/*.c; do
        f=$(basename "$stub")
        if [ -f "$root/$ch/$f" ]; then cp "$root/$ch/$f" "$work/$ch/sub/$f"; else missing=1; fi
    done
    ch_score=0 ch_max=0
    for kind in public hidden; do
        if [ $kind = public ]; then
            files=(tests/"$ch"/*.c)
        else
            files=(tests/"$ch"/hidden/*.c)
        fi
        [ -f "${files[0]}" ] || continue
        # the names come from the instructor's build, never from the student's
        build "$work/$ch/ref.$kind" "$work/$ch/ref" "${files[@]}" ||
            die "the reference does not build with tests/$ch ($kind): $(head -3 "$work/$ch/ref.$kind.log" | tr '\n' ' ')"
        names=$(CHALK_LIST=1 "$work/$ch/ref.$kind")
        built=0 why=""
        if [ $missing = 1 ]; then
            why="not submitted: the submission has no exercises/$ch/ files"
        elif build "$work/$ch/sub.$kind" "$work/$ch/sub" "${files[@]}"; then
            built=1
        else
            why="does not compile:"$'\n'$(grep -v '^make' "$work/$ch/sub.$kind.log" | head -20)
        fi
        while IFS= read -r name; do
            [ -n "$name" ] || continue
            ex=${name%%: *}
            key=$name
            [ $kind = hidden ] && key="hidden/$name"
            pts=$(points_of "$ch" "$key" "$ex")
            score=0 status=failed output=$why
            if [ $built = 1 ]; then
                # in a scratch directory, with memory, core, file size and output capped
                mkdir -p "$work/run"
                raw=$(
                    cd "$work/run" || exit 99
                    ulimit -v $((MEM_MB * 1024)) 2>/dev/null
                    ulimit -c 0 2>/dev/null
                    ulimit -f 20480 2>/dev/null
                    CHALK_ONLY=$name timeout -k 1 "$TIMEOUT" "$work/$ch/sub.$kind" 2>&1 | head -c 65536
                    exit "${PIPESTATUS[0]}"
                )
                rc=$?
                if [ $rc = 0 ] && printf '%s\n' "$raw" | grep -xF "[       OK ] $name" >/dev/null; then
                    score=$pts status=passed output="passed"
                    n_pass=$((n_pass + 1))
                else
                    detail=$(printf '%s\n' "$raw" | loop_parse | loop_cut_reason "$rc" "$TIMEOUT" | head -1 | cut -f3)
                    [ -n "$detail" ] || detail="exit $rc: $(printf '%s' "$raw" | tail -3)"
                    output=$(loop_explain "$detail")
                fi
            fi
            n_all=$((n_all + 1))
            ch_score=$(awk -v a="$ch_score" -v b="$score" 'BEGIN { print a + b }')
            ch_max=$(awk -v a="$ch_max" -v b="$pts" 'BEGIN { print a + b }')
            vis=visible
            [ $kind = hidden ] && vis=$HIDDEN_VISIBILITY
            entry=$(printf '    {"name": %s, "score": %s, "max_score": %s, "status": "%s", "visibility": "%s", "tags": [%s, %s], "output": %s}' \
                "$(json "$ch $key")" "$score" "$pts" "$status" "$vis" "$(json "$ch")" "$(json "$ex")" "$(json "$output")")
            tests_json="${tests_json:+$tests_json,
}$entry"
        done <<<"$names"
    done
    total=$(awk -v a="$total" -v b="$ch_score" 'BEGIN { print a + b }')
    max=$(awk -v a="$max" -v b="$ch_max" 'BEGIN { print a + b }')
    summary="${summary:+$summary, }$ch $ch_score/$ch_max"
    [ -z "${SCORES:-}" ] || printf '%s\t%s\t%s\n' "$ch" "$ch_score" "$ch_max" >>"$SCORES"
done

elapsed=$(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
line="$total/$max points ($summary); $n_pass of $n_all tests passed, hidden tests included"
mkdir -p "$(dirname "$OUT")"
{
    printf '{\n  "score": %s,\n  "execution_time": %s,\n' "$total" "$elapsed"
    printf '  "output": %s,\n  "visibility": "visible",\n  "stdout_visibility": "hidden",\n' "$(json "Chalk: $line")"
    printf '  "extra_data": {"max_score": %s},\n' "$max"
    printf '  "tests": [\n%s\n  ]\n}\n' "$tests_json"
} >"$OUT"
echo "grade: $SUB: $line; $OUT"
