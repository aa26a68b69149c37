# help.awk -- the body of `make help`: every goal a makefile declares .PHONY, with
# the first line of the comment just above its rule, in the order they appear.
#
#   awk -f tests/help.awk Makefile tests/loop/loop.mk ...   (make passes $(MAKEFILE_LIST))
#
# A goal without a comment is left out: the comment is its documentation, and this
# list is made from it, so the two cannot disagree.

# .PHONY: a b c -- goals a reader may type
/^\.PHONY:/ {
    for (i = 2; i <= NF; i++)
        phony[$i] = 1
}

# a comment block: remember its first line
/^#/ {
    if (!in_comment) {
        first = $0
        sub(/^#[ \t]*/, "", first)
    }
    in_comment = 1
    next
}

# a rule right after a comment: "goal: ..." (not a variable assignment)
/^[A-Za-z0-9_.-]+:/ && !/^[A-Za-z0-9_.-]+[ \t]*:=/ && in_comment {
    goal = $1
    sub(/:.*/, "", goal)
    if (!(goal in seen)) {
        seen[goal] = 1
        order[++n] = goal
        text[goal] = first
    }
}

{ in_comment = 0 }

END {
    for (i = 1; i <= n; i++)
        if (order[i] in phony)
            printf "make %-13s %s\n", order[i], text[order[i]]
}
