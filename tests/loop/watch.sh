#!/usr/bin/env bash
# watch.sh -- the body of `make watch [CH=01]`: runs make check's report, then again
# every time a file under exercises/ changes (saved, created, moved or deleted).
# Stop it with Ctrl-C.
#
# It waits with inotifywait (Debian package inotify-tools: make deps installs it,
# make watch never does); without it, it polls the files' times and sizes once a
# second, and says so.
#   CHALK_WATCH_POLL=1   poll even when inotifywait is there
#   CHALK_WATCH_RUNS=N   stop after N reports (the tests use it)
# Usage: tests/loop/watch.sh CHAPTER...
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

if [ "${CHALK_WATCH_POLL:-0}" != 1 ] && command -v inotifywait >/dev/null 2>&1; then
    how=inotify
else
    how=poll
    if [ "${CHALK_WATCH_POLL:-0}" != 1 ]; then
        echo "watch: no inotifywait (make deps installs inotify-tools): polling exercises/ once a second"
    else
        echo "watch: polling exercises/ once a second"
    fi
fi

# A fingerprint of every file under exercises/ but the backups.
fingerprint() {
    find exercises -path '*/.backup' -prune -o -type f -printf '%p %T@ %s\n' 2>/dev/null | sort | cksum
}

wait_for_change() {
    if [ $how = inotify ]; then
        inotifywait -qq -r -e close_write -e moved_to -e create -e delete \
            --exclude '(/\.backup/|\.swp$|\.swx$|~$|/4913$)' exercises/
        sleep 0.1 # let an editor finish writing
    else
        local before
        before=$(fingerprint)
        while [ "$(fingerprint)" = "$before" ]; do sleep 1; done
    fi
}

runs=0
while :; do
    [ -t 1 ] && printf '\033[H\033[2J'
    tests/check.sh "$@"
    runs=$((runs + 1))
    [ -n "${CHALK_WATCH_RUNS:-}" ] && [ "$runs" -ge "$CHALK_WATCH_RUNS" ] && exit 0
    printf '\n[%s] watching exercises/ for changes (%s); Ctrl-C stops\n' "$(date +%H:%M:%S)" "$how"
    wait_for_change
done
