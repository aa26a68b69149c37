#!/usr/bin/env bash
# check.sh -- the body of `make check`: runs your exercises against the tests.
# Usage: tests/check.sh CHAPTER...
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for ch in "$@"; do
    "build/ex/$ch/test" || status=1
done
exit $status
