#!/usr/bin/env bash
# deps.sh -- install the Debian packages a make target needs, and say so.
#
#   tests/deps.sh c       C compiler, C library headers, make, cJSON (building build/chalk)
#   tests/deps.sh test    c + cmocka, libseccomp (make check, make test: the grader's
#                         call filter)
#   tests/deps.sh check   c + cmocka (a handout's make deps: make check and
#                         make check-answers, no grader)
#   tests/deps.sh book    c + pandoc, TeX Live, gnuplot, poppler (make book: the book
#                         runs build/chalk, so it needs the compiler too)
#   tests/deps.sh web     dvisvgm, node, npm, chromium, emscripten, node-acorn (make web:
#                         diagrams as SVG, KaTeX at build time, the calculator as
#                         WebAssembly; the browser test drives chromium headless)
#   tests/deps.sh grade   bubblewrap, jq, binutils (make grade: the sandbox, results.json)
#   tests/deps.sh watch   inotify-tools (make watch polls without them)
#   tests/deps.sh fresh   debootstrap (tests/fresh-check.sh)
#   tests/deps.sh gradescope  c + debootstrap, zip, unzip, libseccomp-dev
#                         (tests/grade/gradescope/check.sh)
#   tests/deps.sh test book watch    several at once: one apt-get run
#
# Each need is a command or a file and the package that provides it. A file, not a
# command, is checked where a command is not enough: `cc` can exist without the C
# library's headers (gcc only recommends libc6-dev, and we install without
# recommends), so the headers are checked by a file of their own. Only what is
# missing is installed, with apt-get (through sudo when not root); nothing else on
# the machine is changed. An install that was cut off half-way is finished first
# (dpkg --configure -a), so running the same command again repairs it.
set -euo pipefail

need_c=(
    "cmd:cc gcc"
    "file:/usr/include/stdio.h libc6-dev"
    "cmd:make make"
    "file:/usr/include/cjson/cJSON.h libcjson-dev"
)
need_test=(
    "file:/usr/include/cmocka.h libcmocka-dev"
    "file:/usr/include/seccomp.h libseccomp-dev"
)
need_grade=(
    "cmd:bwrap bubblewrap"
    "cmd:jq jq"
    "cmd:objcopy binutils"
)
need_web=(
    "cmd:dvisvgm dvisvgm"
    "cmd:node nodejs"
    "cmd:npm npm"
    "cmd:chromium chromium"
    "cmd:emcc emscripten"
    "file:/usr/share/nodejs/acorn/package.json node-acorn"
)
need_watch=(
    "cmd:inotifywait inotify-tools"
)
need_fresh=(
    "cmd:debootstrap debootstrap"
)
need_gradescope=(
    "cmd:zip zip"
    "cmd:unzip unzip"
    "file:/usr/include/seccomp.h libseccomp-dev"
)
need_book=(
    "cmd:pandoc pandoc"
    "cmd:pdflatex texlive-latex-base"
    "file:/usr/share/texlive/texmf-dist/tex/latex/koma-script/scrbook.cls texlive-latex-recommended"
    "file:/usr/share/texlive/texmf-dist/tex/latex/tcolorbox/tcolorbox.sty texlive-latex-extra"
    "file:/usr/share/texlive/texmf-dist/fonts/type1/urw/palatino/uplr8a.pfb texlive-fonts-recommended"
    "file:/usr/share/texmf/tex/latex/lm/lmodern.sty lmodern"
    "file:/usr/share/texlive/texmf-dist/tex/latex/pgfplots/pgfplots.sty texlive-pictures"
    "cmd:gnuplot gnuplot-nox"
    "file:/usr/share/fonts/opentype/urw-base35/P052-Roman.otf fonts-urw-base35"
    "cmd:pdftoppm poppler-utils"
)

[ $# -gt 0 ] || {
    echo "usage: tests/deps.sh c|test|book|web|grade|watch|fresh|gradescope|all ..." >&2
    exit 2
}
needs=()
for group in "$@"; do
    case $group in
    c) needs+=("${need_c[@]}") ;;
    test) needs+=("${need_c[@]}" "${need_test[@]}") ;;
    check) needs+=("${need_c[@]}" "${need_test[0]}") ;;
    book) needs+=("${need_c[@]}" "${need_book[@]}") ;;
    grade) needs+=("${need_c[@]}" "${need_test[@]}" "${need_grade[@]}") ;;
    web) needs+=("${need_web[@]}") ;;
    watch) needs+=("${need_watch[@]}") ;;
    fresh) needs+=("${need_fresh[@]}") ;;
    gradescope) needs+=("${need_c[@]}" "${need_fresh[@]}" "${need_gradescope[@]}") ;;
    all) needs+=("${need_c[@]}" "${need_test[@]}" "${need_book[@]}" "${need_grade[@]}" "${need_watch[@]}" "${need_web[@]}") ;;
    *)
        echo "usage: tests/deps.sh c|test|check|book|web|grade|watch|fresh|gradescope|all ... (not '$group')" >&2
        exit 2
        ;;
    esac
done

missing=()
for need in "${needs[@]}"; do
    what=${need%% *} pkg=${need##* }
    case " ${missing[*]-} " in *" $pkg "*) continue ;; esac
    case $what in
    cmd:*) command -v "${what#cmd:}" >/dev/null 2>&1 || missing+=("$pkg") ;;
    file:*) [ -e "${what#file:}" ] || missing+=("$pkg") ;;
    esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "chalk: missing packages: ${missing[*]}; install them as root:" >&2
    echo "  apt-get update && apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
echo "chalk: installing ${missing[*]} (apt-get${sudo:+, with sudo}) for: $*"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# an earlier install that was interrupted leaves dpkg half-configured: finish it first
if [ -n "$("${sudo[@]}" dpkg --audit 2>/dev/null)" ]; then
    echo "chalk: finishing an interrupted install first (dpkg --configure -a)"
    "${sudo[@]}" dpkg --configure -a >"$log" 2>&1 || {
        tail -n 15 "$log" >&2
        echo "chalk: dpkg --configure -a failed (its last lines are above)" >&2
        exit 1
    }
fi
if ! { "${sudo[@]}" apt-get update -qq &&
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 15 "$log" >&2
    echo "chalk: apt-get could not install ${missing[*]} (its last lines are above); install them as root:" >&2
    echo "  apt-get update && apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
echo "chalk: installed ${missing[*]}"
