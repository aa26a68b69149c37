#!/usr/bin/env bash
# fresh-check.sh -- the body of `make fresh-check`: proves that the README's set-up
# lines work on a fresh, minimal Debian 12, with nothing installed by hand.
#
#   1. a minimal Debian 12 root (debootstrap --variant=minbase bookworm), from the
#      mirror in this machine's apt sources, whose sources, proxy settings, hosts and
#      resolver it is given. The bare root is cached (a tarball under
#      ~/.cache/chalk/fresh/, reused for 7 days); nothing the project installs is ever
#      cached: every run starts from the bare root.
#   2. the committed HEAD of this repository, as a bare git repository at
#      /src/chalk.git inside the root (uncommitted changes are not part of the check).
#   3. the lines of the README's fenced block marked `<!-- fresh-check -->`, run in
#      order in one root shell inside the root (`chroot`), each timed, with the README's
#      placeholder for the repository's address replaced by /src/chalk.git.
#
# It prints each line, its time and the lines the project prints about installing,
# and ends with make test's summary line. Exit 0 when every line succeeded and the
# summary says 0 failed. The full log is kept in build/fresh/log.
#
# Needs root (chroot, mount) or sudo. KEEP=1 keeps the root in build/fresh/ for a look.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

. tests/debian-root.sh
debroot_as_root fresh-check "$0" "$@"
tests/deps.sh fresh

placeholder='<address of this repository>'

# The README's lines: the fenced block right after the marker comment.
mapfile -t lines < <(awk '/^<!-- fresh-check -->/ { armed = 1; next }
    armed && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' README.md)
[ ${#lines[@]} -gt 0 ] || {
    echo "fresh-check: README.md has no fenced block after '<!-- fresh-check -->'" >&2
    exit 2
}

mkdir -p build/fresh
log="$top/build/fresh/log"
: >"$log"
work=$(mktemp -d /var/tmp/chalk-fresh.XXXXXX)
trap 'debroot_cleanup build/fresh/root' EXIT

now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }

debroot_make "$work" "$log" || exit 1
root=$DEBROOT
debroot_network

# The project: HEAD of this repository, committed work only.
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    echo "fresh-check: note: uncommitted changes are not checked; this checks HEAD $(git rev-parse --short HEAD)"
fi
mkdir -p "$root/src"
git clone -q --bare --no-local "$top" "$root/src/chalk.git"

debroot_mount

# One root shell runs the README's lines in order, timing each.
{
    echo 'set -e'
    echo 'cd /root'
    for line in "${lines[@]}"; do
        line=${line//$placeholder//src/chalk.git}
        q=$(printf '%q' "$line")
        echo "printf '\$ %s\\n' $q"
        echo "t0=\$(date +%s)"
        echo "$line"
        echo "echo \"fresh-check: took \$((\$(date +%s) - t0)) s: \"$q"
    done
} >"$root/root/readme-lines.sh"

echo "fresh-check: running the README's lines in the root (log: build/fresh/log)"
t0=$(now)
set +e
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash /root/readme-lines.sh >>"$log" 2>&1
rc=$?
set -e
grep -E '^\$ |^fresh-check: took|^chalk: (installing|installed|finishing)|^book: wrote' "$log" |
    sed 's/^fresh-check: took/  took/'
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
if [ $rc -ne 0 ]; then
    echo "---- the last lines of the log:" >&2
    tail -n 25 "$log" >&2
    echo "fresh-check: FAILED: a README line exited $rc after $(took "$t0") s (log: build/fresh/log)" >&2
    exit 1
fi
case $summary in
*" passed, 0 failed") ;;
*)
    echo "fresh-check: FAILED: make test's summary is '${summary:-missing}'" >&2
    exit 1
    ;;
esac
echo "fresh-check: the README's lines took $(took "$t0") s on a fresh Debian 12; make test: $summary"
