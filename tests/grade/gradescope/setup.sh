#!/usr/bin/env bash
# setup.sh -- Gradescope's image setup for Chalk (runs once, as root, when the
# autograder image is built). tests/grade/gradescope/zip.sh CH=01 makes the
# autograder zip: this file, run_autograder, a file chapter ("01") and the whole
# course tree (solutions/ and tests/NN-topic/hidden/ included) under chalk/.
#
# Gradescope's containers may refuse the namespaces bubblewrap needs: the grader
# then runs the code as a fresh uid (its "user" mode). For that uid the course
# tree is made unreadable here: only root reads solutions/, hidden tests, points.
set -euo pipefail
/autograder/source/chalk/tests/deps.sh test grade
chmod -R go-rwx /autograder/source
chmod 755 /autograder /autograder/source
