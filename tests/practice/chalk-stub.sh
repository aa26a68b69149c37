#!/bin/sh
# A stand-in for build/chalk in the flashcards tests: one fixed JSON object.
echo '{"step_s": 0.0123}'
