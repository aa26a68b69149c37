#!/usr/bin/env bash
# deps.sh -- install the Debian packages a make target needs, and say so.
#
#   tests/deps.sh test    compiler, make, cmocka (make test, make check)
#   tests/deps.sh book    pandoc, TeX Live, gnuplot, poppler (make book)
#   tests/deps.sh watch   inotify-tools (make watch; it polls without them)
#
# Each need is a command or a file and the package that provides it. Only what is
# missing is installed, with apt-get (through sudo when not root). Nothing else on
# the machine is changed.
set -euo pipefail

need_test=(
    "cmd:cc gcc"
    "cmd:make make"
    "file:/usr/include/cmocka.h libcmocka-dev"
)
need_watch=(
    "cmd:inotifywait inotify-tools"
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

case "${1:-}" in
test) needs=("${need_test[@]}") ;;
book) needs=("${need_book[@]}") ;;
watch) needs=("${need_watch[@]}") ;;
all) needs=("${need_test[@]}" "${need_book[@]}" "${need_watch[@]}") ;;
*)
    echo "usage: tests/deps.sh test|book|watch|all" >&2
    exit 2
    ;;
esac

missing=()
for need in "${needs[@]}"; do
    what=${need%% *} pkg=${need##* }
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
    echo "  apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "chalk: installing ${missing[*]} (apt-get${sudo:+, with sudo}) for make $1"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "chalk: installed ${missing[*]}"
