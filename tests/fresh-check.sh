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

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        exec sudo --preserve-env=KEEP,XDG_CACHE_HOME "$0" "$@"
    fi
    echo "fresh-check: needs root (debootstrap, chroot, mount), and there is no sudo" >&2
    exit 2
fi
tests/deps.sh fresh

suite=bookworm
placeholder='<address of this repository>'

# The README's lines: the fenced block right after the marker comment.
mapfile -t lines < <(awk '/^<!-- fresh-check -->/ { armed = 1; next }
    armed && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' README.md)
[ ${#lines[@]} -gt 0 ] || {
    echo "fresh-check: README.md has no fenced block after '<!-- fresh-check -->'" >&2
    exit 2
}

# The Debian mirror this machine uses (deb.debian.org when none is configured).
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }
         /^deb / { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' |
    grep -v -e security -e '^cdrom:' | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

cache_dir=${XDG_CACHE_HOME:-$HOME/.cache}/chalk/fresh
key=$(printf '%s %s %s' "$suite" "$mirror" "$(dpkg-query -W -f '${Version}' debootstrap)" |
    sha256sum | cut -c1-12)
cache="$cache_dir/$suite-minbase-$key.tar"

mkdir -p build/fresh
log="$top/build/fresh/log"
: >"$log"
work=$(mktemp -d /var/tmp/chalk-fresh.XXXXXX)
root="$work/root"
mounts=()
cleanup() {
    local m
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        m=${mounts[i]}
        umount -l "$m" 2>/dev/null || true
    done
    if [ "${KEEP:-0}" = 1 ]; then
        rm -rf build/fresh/root
        mv "$root" build/fresh/root 2>/dev/null && echo "fresh-check: kept the root in build/fresh/root"
    fi
    # never cross into a mount point that could not be unmounted
    rm -rf --one-file-system "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }

t0=$(now)
if [ -f "$cache" ] && [ -n "$(find "$cache" -mtime -7 2>/dev/null)" ]; then
    mkdir -p "$root"
    tar -xf "$cache" -C "$root"
    echo "fresh-check: minimal Debian 12 root from the cache ($(took "$t0") s; $cache)"
else
    echo "fresh-check: debootstrap --variant=minbase $suite from $mirror"
    if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" >>"$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "fresh-check: debootstrap failed (the log is $log)" >&2
        exit 1
    fi
    mkdir -p "$cache_dir"
    rm -f "$cache_dir/$suite-minbase-"*.tar
    tar -cf "$cache.tmp" -C "$root" . && mv "$cache.tmp" "$cache"
    echo "fresh-check: minimal Debian 12 root built in $(took "$t0") s (cached in $cache)"
fi

# What the machine's own network set-up needs: its apt sources and settings, its
# resolver and hosts. Nothing else of the machine goes in.
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && cp "$f" "$root$f"
done
for f in /etc/apt/apt.conf.d/*; do
    [ -f "$f" ] && grep -q 'Acquire::' "$f" && cp "$f" "$root$f"
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp /etc/hosts "$root/etc/hosts" 2>/dev/null || true

# The project: HEAD of this repository, committed work only.
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    echo "fresh-check: note: uncommitted changes are not checked; this checks HEAD $(git rev-parse --short HEAD)"
fi
mkdir -p "$root/src"
git clone -q --bare --no-local "$top" "$root/src/chalk.git"

mount -t proc proc "$root/proc" && mounts+=("$root/proc")
mount -t sysfs sysfs "$root/sys" 2>/dev/null && mounts+=("$root/sys")
mount -t devpts devpts "$root/dev/pts" 2>/dev/null && mounts+=("$root/dev/pts")
mkdir -p "$root/dev/shm"
mount -t tmpfs tmpfs "$root/dev/shm" 2>/dev/null && mounts+=("$root/dev/shm")

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
