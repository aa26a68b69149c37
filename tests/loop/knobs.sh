#!/usr/bin/env sh
# knobs.sh -- the end of `make help` (the course's Makefile and the handout's): every
# setting the reader's loop takes, one a line. The README's table says the same, and
# tests/loop/test_loop.sh proves that every setting the loop's scripts read is in both.
# A handout (no solutions/ beside it) has no make solution: its lines leave it out.
cd "$(dirname "$0")/../.." || exit 2
if [ -d solutions ]; then sol=", solution" force="make solution before your version passes; "
else sol="" force=""; fi
cat <<K

Settings, after the target (make check CH=01 VERBOSE=1):
  CH=01               one chapter (check, watch, hint$sol, reset, submission)
  EX=step_time        one exercise (hint$sol, reset)
  VERBOSE=1           make check explains every failing test, not only each exercise's first
  NO_HINT=1           make check leaves out the line on how to ask for a hint
  CHALK_TIMEOUT=N     seconds a test run may take before make check calls it hung (2)
  CHALK_SANITIZE=0    make check without AddressSanitizer and UBSan (a compiler without them)
  FORCE=1             ${force}make submission of a file the grader would score zero
  CHALK_WATCH_POLL=1  make watch polls once a second even when inotifywait is there
  CHALK_WATCH_RUNS=N  make watch stops after N reports (its tests use it)
K
