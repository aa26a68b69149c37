#!/usr/bin/env bash
# setup.sh -- Gradescope's image setup for Chalk (runs once, as root, when the
# autograder image is built). Zip this file and run_autograder with the whole
# course tree (solutions/ and tests/NN-topic/hidden/ included) under a directory
# named chalk/ as Gradescope's autograder source:
#     zip -r autograder.zip setup.sh run_autograder chalk
# (copy setup.sh and run_autograder from tests/grade/gradescope/ to the zip's top).
set -euo pipefail
/autograder/source/chalk/tests/deps.sh test
