# exnums.awk -- no exercise number typed into the book's prose (tests/checks/run.sh).
#
#   awk -f tests/checks/exnums.awk FILE.md...
#
# An exercise's number is its place in exercises.txt, which the exercise box prints
# (book/filters/boxes.lua): "Exercise 2.4" typed into the text goes stale the day an
# exercise is added or moved. Prints "FILE:LINE: message" for each "Exercise N.M"
# (or "Exercises N.M") outside fenced code; name the exercise by its title, or "the
# exercise at the end of this section", instead.
FNR == 1 { fence = "" }
/^[ \t]*(```|~~~)/ {
    m = $0; sub(/^[ \t]*/, "", m); m = substr(m, 1, 3)
    if (fence == "") fence = m
    else if (m == fence) fence = ""
    next
}
fence != "" { next }
{
    s = $0
    while (match(s, /Exercises?[ ~]+[0-9]+\.[0-9]+/)) {
        printf "%s:%d: an exercise number typed by hand (\"%s\"): name the exercise by its title, or \"the exercise at the end of this section\" (the box numbers itself)\n", FILENAME, FNR, substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
    }
}
