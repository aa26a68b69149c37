#!/usr/bin/env bash
# bench.sh -- the body of `make bench`: the speed figures of the foundation issue,
# each with its goal, measured in a scratch copy of the tree (a fresh git clone's
# files) so your build/ and your exercises are left as they are.
#
#   reader's loop   touch the chapter 1 stub, then `make check CH=01` (median of 7)
#   make test       from clean (one run; its slowest phase shows in build/test-run/)
#   book            after editing one chapter: book/bench.sh's one line, when it exists
#   slides          one deck after editing its chapter: book/slides/bench.sh's line
#   web             the web edition: make web from clean and after editing one chapter,
#                   each chapter page's first render in headless chromium and its weight
#                   (book/web/bench.sh)
#   calculator      a 100,000-row sweep against a plain Python loop
#                   (../shared/tools/peer-sweep.py), side by side, median of 5 each:
#                   chalk writing the same CSV as the loop (checked byte for byte),
#                   and chalk's own full CSV
#
#   class           make grade-all over a generated class (tests/grade/bench-class.sh, CLASS=10)
#   BENCH=loop,test,book,slides,web,sweep,class   only these figures
#   SHARED_TOOLS=DIR             where peer-sweep.py is (default: the checkout's
#                                ../shared/tools)
# Figures depend on the machine and on what else runs on it: the load average is
# printed first.
# shellcheck disable=SC2086 # $runs, $c and $p are split into their numbers on purpose
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
want() { case ",${BENCH:-loop,test,book,slides,web,sweep,class}," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
top=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
tools=${SHARED_TOOLS:-$top/../shared/tools}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard
else
    find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||'
fi | grep -v '/\.backup/' | tar -cf - -T - | tar -xf - -C "$scratch"
cd "$scratch" || exit 2
git init -q && git add -A && git -c user.name=bench -c user.email=bench@localhost commit -qm bench

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# seconds COMMAND...: how long it took (its output thrown away); its status kept
seconds() {
    local t0=$EPOCHREALTIME rc
    "$@" >/dev/null 2>&1
    rc=$?
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
    return $rc
}

echo "bench: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (other work slows every figure)"

if want loop; then
    make -s check CH=01 >/dev/null 2>&1 # builds the objects and the mistake table once
    runs=$(for _ in 1 2 3 4 5 6 7; do
        touch exercises/01-batching/batching.c
        seconds make -s check CH=01
    done)
    echo "reader's loop (touch the stub; make check CH=01): median $(printf '%s\n' "$runs" | median) s of 7" \
        "($(printf '%s ' $runs | sed 's/ $//')); goal < 0.3 s"
    # and with nothing changed (tests/loop/bench.sh: the median of 9 runs)
    [ ! -x tests/loop/bench.sh ] || tests/loop/bench.sh 2>&1 | tail -1
fi

# grading a class: make grade-all over generated submissions (tests/grade/bench-class.sh)
if want class; then
    if [ -x tests/grade/bench-class.sh ]; then
        CLASS=${CLASS:-10} tests/grade/bench-class.sh 2>&1 | tail -3
    else
        echo "grading a class: skipped (no tests/grade/bench-class.sh in this tree)"
    fi
fi

if want test; then
    make -s clean >/dev/null
    t0=$EPOCHREALTIME
    make -s test >"$scratch/test.log" 2>&1 </dev/null
    rc=$?
    t=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc = 0 ]; then verdict="green: $(tail -1 "$scratch/test.log")"; else verdict="RED: $(grep 'passed, ' "$scratch/test.log" | tail -1)"; fi
    echo "make test from clean: $t s ($verdict); goal < 180 s with six chapters"
    slowest=$(sed -n 's/^==== \([0-9]*\)\. .* (\([0-9.]*\) s)$/\2 s, phase \1/p' "$scratch/test.log" | sort -rn | head -1)
    [ -z "$slowest" ] || echo "  (its slowest phase: $slowest)"
    [ $rc = 0 ] || grep -E '^FAIL|FAILURE|[1-9][0-9]* failed' "$scratch/test.log" | head -10 | sed 's/^/  /'
fi

if want book; then
    if [ -x book/bench.sh ]; then
        line=$(book/bench.sh 2>&1 | tail -1)
        case $line in *goal*) echo "$line" ;; *) echo "book after editing one chapter: $line; goal < 15 s" ;; esac
    else
        echo "book after editing one chapter: skipped (no book/bench.sh in this tree)"
    fi
fi

if want slides; then
    if [ -x book/slides/bench.sh ]; then
        book/slides/bench.sh 2>&1 | tail -1
    else
        echo "one deck after editing its chapter: skipped (no book/slides/bench.sh in this tree)"
    fi
fi

if want web; then
    if [ -x book/web/bench.sh ]; then
        book/web/bench.sh 2>&1
    else
        echo "web: skipped (no book/web/bench.sh in this tree)"
    fi
fi

if want sweep; then
    if [ ! -f "$tools/peer-sweep.py" ]; then
        echo "calculator sweep: skipped ($tools/peer-sweep.py not found; SHARED_TOOLS=DIR says where)"
    elif ! make -s build/chalk >/dev/null 2>&1; then
        echo "calculator sweep: skipped (build/chalk does not build)"
    else
        # chalk's full CSV (40 columns, every number to 17 digits), and the same CSV the
        # Python loop writes (its inputs, its 8 columns, 6 digits: checked byte for byte)
        full=(build/chalk decode --model llama3-70b --hw h100-sxm --context 8192 --batch 1:1e6:100000 --csv)
        same=(build/chalk decode --params-total 70.55e9 --kv-bytes-per-token 327680 --flops-per-s 989e12
            --hbm-bytes-per-s 3.35e12 --usd-per-chip-hour 4.25 --context 8192 --batch 1:1e6:100000 --csv
            --columns batch,compute_s,weights_s,kv_s,step_s,bound,tokens_per_s,usd_per_mtok --digits 6)
        "${same[@]}" >"$scratch/chalk.csv" 2>&1
        python3 "$tools/peer-sweep.py" >"$scratch/python.csv" 2>&1
        if cmp -s "$scratch/chalk.csv" "$scratch/python.csv"; then identical="byte-identical"; else identical="NOT identical"; fi
        c="" s="" p=""
        for _ in 1 2 3 4 5; do
            c="$c $(seconds "${full[@]}")"
            s="$s $(seconds "${same[@]}")"
            p="$p $(seconds python3 "$tools/peer-sweep.py")"
        done
        cm=$(printf '%s\n' $c | median) sm=$(printf '%s\n' $s | median) pm=$(printf '%s\n' $p | median)
        ratio() { awk -v c="$1" -v p="$pm" 'BEGIN { printf "%.1f", (c > 0 ? p / c : 0) }'; }
        echo "calculator sweep, 100,000 rows (median of 5): the Python loop $pm s; chalk writing the" \
            "same CSV ($identical) $sm s, $(ratio "$sm")x as fast (goal >= 5x); chalk's full CSV" \
            "(40 columns, 17 digits) $cm s, $(ratio "$cm")x"
    fi
fi
