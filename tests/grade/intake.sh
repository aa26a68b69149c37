# intake.sh -- takes in a submission: finds the student's .c files in a directory or
# a tarball and copies them, as plain files, where the grader compiles them. Nothing
# of the submission is compiled, run or followed here. Sourced by grade.sh (and so
# by grade-all.sh); defines functions only.
#
# A submission is a directory or a tarball holding exercises/ (or that directory
# itself, its NN-topic/ directories, one top directory above it, or the chapter's .c
# files side by side, as a Gradescope upload gives; a directory holding only one
# tarball is that tarball). Only the .c files the handout's exercises/NN-topic/ has
# are taken. Refused, before anything is unpacked: a tarball over GRADE_MAX_TAR_KB
# compressed, or whose listing adds up to more than GRADE_MAX_UNPACKED_KB or
# GRADE_MAX_ENTRIES entries, or holds anything but regular files and directories
# (links, devices, FIFOs), an absolute name or a "..". Refused too: a submitted file
# that is a symbolic link or sits under one, is not a regular file, or is over
# GRADE_MAX_FILE_KB.

GRADE_MAX_TAR_KB=${GRADE_MAX_TAR_KB:-4096}
GRADE_MAX_UNPACKED_KB=${GRADE_MAX_UNPACKED_KB:-32768}
GRADE_MAX_ENTRIES=${GRADE_MAX_ENTRIES:-2000}
GRADE_MAX_FILE_KB=${GRADE_MAX_FILE_KB:-1024}

# A tarball's name (what tar can read; the rest is checked when it is listed).
intake_is_tarball() {
    case $1 in *.tar | *.tar.gz | *.tgz | *.tar.xz | *.txz | *.tar.bz2 | *.tbz2 | *.tar.zst) return 0 ;; esac
    return 1
}

# intake_tar TARBALL DIR: checks the tarball's listing, then unpacks it into DIR.
# On refusal: INTAKE_WHY set, return 1.
intake_tar() {
    local tarball=$1 dir=$2 size listing verdict
    size=$(stat -c %s -- "$tarball") || {
        INTAKE_WHY="cannot read $tarball"
        return 1
    }
    if [ "$size" -gt $((GRADE_MAX_TAR_KB * 1024)) ]; then
        INTAKE_WHY="the tarball is $((size / 1024)) KiB, over the limit of $GRADE_MAX_TAR_KB KiB: hand in the .c files only"
        return 1
    fi
    listing=$(LC_ALL=C timeout 20 tar --numeric-owner --quoting-style=escape -tvf "$tarball" 2>/dev/null) || {
        INTAKE_WHY="not a tarball tar can read (or it took over 20 s to list)"
        return 1
    }
    verdict=$(printf '%s\n' "$listing" | awk -v max_kb="$GRADE_MAX_UNPACKED_KB" -v max_n="$GRADE_MAX_ENTRIES" '
        NF == 0 { next }
        {
            n++
            type = substr($1, 1, 1)
            name = $0
            for (i = 1; i <= 5; i++) sub(/^[^ ]+ +/, "", name)
            if (type != "-" && type != "d") { print "it holds " (type == "l" ? "a symbolic link" : type == "h" ? "a hard link" : "a special file") ", " name ": only plain files are taken"; exit }
            if (name ~ /^\// || name ~ /(^|\/)\.\.(\/|$)/) { print "it holds a file outside its own directory: " name; exit }
            total += $3
            if (total > max_kb * 1024) { print "it unpacks to over " max_kb " KiB: hand in the .c files only"; exit }
            if (n > max_n) { print "it holds over " max_n " files"; exit }
        }
    ')
    if [ -n "$verdict" ]; then
        INTAKE_WHY="tarball refused before unpacking: $verdict"
        return 1
    fi
    mkdir -p "$dir"
    (
        ulimit -f $((GRADE_MAX_UNPACKED_KB * 2)) 2>/dev/null
        LC_ALL=C timeout 20 tar -xf "$tarball" -C "$dir" --no-same-owner --no-same-permissions 2>/dev/null
    ) || {
        INTAKE_WHY="the tarball did not unpack"
        return 1
    }
    # what was unpacked must be what was listed: plain files and directories
    if [ -n "$(find "$dir" ! -type f ! -type d -print -quit)" ]; then
        INTAKE_WHY="the tarball unpacked to something other than plain files and directories"
        return 1
    fi
    chmod -R u+rwX "$dir"
}

# intake_file BASE REL DEST: copies BASE/REL to DEST when REL, and every directory
# on its way below BASE, is plain (no symbolic link), it is a regular file and not
# too big. On refusal: INTAKE_WHY set, return 1.
intake_file() {
    local base=$1 rel=$2 dest=$3 part path=$1 parts
    IFS=/ read -r -a parts <<<"$rel"
    for part in "${parts[@]}"; do
        path=$path/$part
        if [ -L "$path" ]; then
            INTAKE_WHY="${path#"$base"/} is a symbolic link: hand in the file itself"
            return 1
        fi
    done
    if [ ! -f "$path" ]; then
        INTAKE_WHY="${rel} is not a regular file"
        return 1
    fi
    if [ "$(stat -c %s -- "$path")" -gt $((GRADE_MAX_FILE_KB * 1024)) ]; then
        INTAKE_WHY="$rel is over $GRADE_MAX_FILE_KB KiB"
        return 1
    fi
    cat -- "$path" >"$dest" || {
        INTAKE_WHY="cannot read $rel"
        return 1
    }
}

# intake SUBMISSION DEST CHAPTER...: the student's files of each CHAPTER into
# DEST/CHAPTER/ (plain copies). A chapter with none of its files is left out when
# ALLOW_MISSING=1, else refused. Prints nothing; on refusal INTAKE_WHY, return 1.
intake() {
    local sub=$1 dest=$2 src cand rel root="" best=0 n ch stub f found
    shift 2
    INTAKE_WHY=""
    if [ -d "$sub" ] && [ "$(find "$sub" -mindepth 1 -maxdepth 1 | wc -l)" = 1 ] &&
        [ -f "$(find "$sub" -mindepth 1 -maxdepth 1)" ] && intake_is_tarball "$(find "$sub" -mindepth 1 -maxdepth 1)"; then
        sub=$(find "$sub" -mindepth 1 -maxdepth 1) # a Gradescope upload of the tarball
    fi
    if [ -d "$sub" ]; then
        src=$sub
    elif [ -f "$sub" ]; then
        intake_tar "$sub" "$dest/.unpacked" || return 1
        src=$dest/.unpacked
    else
        INTAKE_WHY="neither a directory nor a tarball: $sub"
        return 1
    fi
    # The directory holding NN-topic/ for the most chapters (relative to src).
    for cand in . exercises $(cd "$src" && find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%P\n' 2>/dev/null | head -50); do
        for rel in "$cand" "$cand/exercises"; do
            [ -d "$src/$rel" ] || continue
            n=0
            for ch in "$@"; do [ -d "$src/$rel/$ch" ] && n=$((n + 1)); done
            if [ $n -gt $best ]; then root=$rel best=$n; fi
        done
    done
    found=0
    for ch in "$@"; do
        mkdir -p "$dest/$ch"
        for stub in exercises/"$ch"/*.c; do
            f=$(basename "$stub")
            if [ -n "$root" ] && { [ -e "$src/$root/$ch/$f" ] || [ -L "$src/$root/$ch/$f" ]; }; then
                rel=$root/$ch/$f
            elif [ -e "$src/$f" ] || [ -L "$src/$f" ]; then
                rel=$f # the .c files side by side
            elif [ "${ALLOW_MISSING:-0}" = 1 ]; then
                continue
            else
                INTAKE_WHY="the submission lacks exercises/$ch/$f"
                return 1
            fi
            intake_file "$src" "${rel#./}" "$dest/$ch/$f" || return 1
            found=1
        done
        rmdir "$dest/$ch" 2>/dev/null || true
    done
    [ $found = 1 ] || {
        INTAKE_WHY="no exercises/NN-topic/ files of chapters $* in it"
        return 1
    }
}
