# debian-root.sh -- a fresh, minimal Debian 12 root for the checks that need one
# (tests/fresh-check.sh, tests/grade/gradescope/check.sh). Sourced; defines functions
# and sets nothing until they are called. Needs root (debootstrap, chroot, mount).
#
#   debroot_as_root NAME "$0" "$@"  re-runs the script through sudo when not root
#                                   (KEEP and XDG_CACHE_HOME kept), or exits 2
#   debroot_make WORK LOG           DEBROOT=WORK/root (WORK an empty directory, removed
#                                   by debroot_cleanup): the bare root, from the cache
#                                   when it is under 7 days old, else debootstrap
#                                   --variant=minbase bookworm (then cached)
#   debroot_network                 the machine's apt sources and proxy settings, its
#                                   resolver and hosts, its local certificate
#                                   authorities and /etc/npmrc, copied into the root
#   debroot_mount                   /proc, /sys, /dev/pts and a /dev/shm in the root
#   debroot_cleanup [KEEP_DIR]      unmounts, then removes WORK (moved to KEEP_DIR
#                                   instead when KEEP=1 and KEEP_DIR is given)
#
# The cache is a tarball of the bare root under ~/.cache/chalk/fresh/ (XDG_CACHE_HOME),
# keyed by the suite, the mirror and debootstrap's version; nothing a check installs
# is ever cached, so every check starts from the bare root. The mirror is the one in
# this machine's apt sources (deb.debian.org when none is configured).

DEBROOT_SUITE=bookworm
DEBROOT_NAME=${DEBROOT_NAME:-debian-root} # the prefix of what these functions print
DEBROOT="" DEBROOT_WORK="" DEBROOT_MOUNTS=()

debroot_as_root() {
    DEBROOT_NAME=$1
    shift
    [ "$(id -u)" -eq 0 ] && return 0
    if command -v sudo >/dev/null 2>&1; then
        exec sudo --preserve-env=KEEP,XDG_CACHE_HOME "$@"
    fi
    echo "$DEBROOT_NAME: needs root (debootstrap, chroot, mount), and there is no sudo" >&2
    exit 2
}

debroot_now() { date +%s.%N; }
debroot_took() { awk -v a="$1" -v b="$(debroot_now)" 'BEGIN { printf "%.0f", b - a }'; }

# The Debian mirror this machine uses.
debroot_mirror() {
    local m
    m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }
             /^deb / { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' |
        grep -v -e security -e '^cdrom:' | head -n 1 || true)
    echo "${m:-http://deb.debian.org/debian}"
}

# debroot_make WORK LOG: the bare root in WORK/root; debootstrap's output goes to LOG.
# Prints one line saying where the root came from and how long it took.
debroot_make() {
    local work=$1 log=$2 mirror key cache_dir cache t0
    mirror=$(debroot_mirror)
    cache_dir=${XDG_CACHE_HOME:-$HOME/.cache}/chalk/fresh
    key=$(printf '%s %s %s' "$DEBROOT_SUITE" "$mirror" "$(dpkg-query -W -f '${Version}' debootstrap)" |
        sha256sum | cut -c1-12)
    cache="$cache_dir/$DEBROOT_SUITE-minbase-$key.tar"
    DEBROOT_WORK=$work DEBROOT=$work/root
    mkdir -p "$DEBROOT"
    t0=$(debroot_now)
    if [ -f "$cache" ] && [ -n "$(find "$cache" -mtime -7 2>/dev/null)" ]; then
        tar -xf "$cache" -C "$DEBROOT"
        echo "$DEBROOT_NAME: minimal Debian 12 root from the cache ($(debroot_took "$t0") s; $cache)"
    else
        echo "$DEBROOT_NAME: debootstrap --variant=minbase $DEBROOT_SUITE from $mirror"
        if ! debootstrap --variant=minbase "$DEBROOT_SUITE" "$DEBROOT" "$mirror" >>"$log" 2>&1; then
            tail -n 20 "$log" >&2
            echo "$DEBROOT_NAME: debootstrap failed (the log is $log)" >&2
            return 1
        fi
        mkdir -p "$cache_dir"
        rm -f "$cache_dir/$DEBROOT_SUITE-minbase-"*.tar
        tar -cf "$cache.tmp" -C "$DEBROOT" . && mv "$cache.tmp" "$cache"
        echo "$DEBROOT_NAME: minimal Debian 12 root built in $(debroot_took "$t0") s (cached in $cache)"
    fi
}

# What the machine's own network set-up needs: its apt sources and settings, its
# resolver and hosts. Nothing else of the machine goes in.
debroot_network() {
    local f
    rm -f "$DEBROOT/etc/apt/sources.list"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && cp "$f" "$DEBROOT$f"
    done
    for f in /etc/apt/apt.conf.d/*; do
        [ -f "$f" ] && grep -q 'Acquire::' "$f" && cp "$f" "$DEBROOT$f"
    done
    cp /etc/resolv.conf "$DEBROOT/etc/resolv.conf" 2>/dev/null || true
    cp /etc/hosts "$DEBROOT/etc/hosts" 2>/dev/null || true
    # a network whose egress re-signs TLS (a proxy with its own certificate authority):
    # the machine's local authorities, which the root's ca-certificates adds to its
    # bundle when it is installed, and npm's machine-wide settings (/etc/npmrc: e.g.
    # cafile=/etc/ssl/certs/ca-certificates.crt), or the npm registry is refused there
    if [ -d /usr/local/share/ca-certificates ]; then
        mkdir -p "$DEBROOT/usr/local/share/ca-certificates"
        cp -r /usr/local/share/ca-certificates/. "$DEBROOT/usr/local/share/ca-certificates/"
    fi
    [ -f /etc/npmrc ] && cp /etc/npmrc "$DEBROOT/etc/npmrc"
    return 0
}

debroot_mount() {
    mount -t proc proc "$DEBROOT/proc" && DEBROOT_MOUNTS+=("$DEBROOT/proc")
    mount -t sysfs sysfs "$DEBROOT/sys" 2>/dev/null && DEBROOT_MOUNTS+=("$DEBROOT/sys")
    mount -t devpts devpts "$DEBROOT/dev/pts" 2>/dev/null && DEBROOT_MOUNTS+=("$DEBROOT/dev/pts")
    mkdir -p "$DEBROOT/dev/shm"
    mount -t tmpfs tmpfs "$DEBROOT/dev/shm" 2>/dev/null && DEBROOT_MOUNTS+=("$DEBROOT/dev/shm")
}

debroot_cleanup() {
    local keep=${1:-} i
    for ((i = ${#DEBROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -l "${DEBROOT_MOUNTS[i]}" 2>/dev/null || true
    done
    DEBROOT_MOUNTS=()
    [ -n "$DEBROOT_WORK" ] || return 0
    if [ "${KEEP:-0}" = 1 ] && [ -n "$keep" ]; then
        rm -rf "$keep"
        mkdir -p "$(dirname "$keep")"
        mv "$DEBROOT" "$keep" 2>/dev/null && echo "$DEBROOT_NAME: kept the root in $keep"
    fi
    # never cross into a mount point that could not be unmounted
    rm -rf --one-file-system "$DEBROOT_WORK"
}
