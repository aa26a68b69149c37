#!/usr/bin/env bash
# rules.sh -- the grader's source and object rules, in one place: make grade
# (tests/grade/grade.sh sources this file) and make check (which runs it as a
# command, through tests/loop/loop.mk) apply the same rules, so a file make check
# accepts is never scored zero by make grade for a rule. The rules are the
# grader's (tests/grade/ owns what they say); they live here because the handout
# ships tests/loop/ and not tests/grade/.
#
# Sourced: defines RULES_CFLAGS (how the grader compiles a student's file) and
#   rules_allow_list LIB.o...      the allow-list of what an object may call
#   rules_includes DEP FILE CON    the first file a .d lists that may not be included
#   srccheck FILE.i FILE.c         the first source rule a preprocessed file breaks
#   objcheck FILE.o FNS ALLOW      the first object rule an object breaks
#   rules_contract_fns CHAPTER     the contract's function names (its headers)
# each rule's message ending with its fix.
#
# As a command (make check's use; the files under build/rules/):
#   tests/loop/rules.sh allow OUT LIB.o...        writes the allow-list
#   tests/loop/rules.sh fns CHAPTER OUT           writes the contract's names
#   tests/loop/rules.sh check CHAPTER FILE.c OUT  writes "ok" or "refused: WHY"
#     (FILE.c checked as the grader checks it: copied alone beside a flat copy of
#     the contract, preprocessed, compiled with RULES_CFLAGS, its object read)
#   CC   the compiler (cc)

RULES_CFLAGS=(-std=c11 -O1 -w -pipe -fno-diagnostics-show-caret -fdiagnostics-color=never)

# The allow-list, one name a line: lib/'s functions (the objects given), libm,
# libgcc's arithmetic helpers, and what the compiler emits for itself, memory,
# printing and a few pure C library functions.
rules_allow_list() {
    local cc=${CC:-cc} lm lg
    lm=$($cc -print-file-name=libm.so.6)
    lg=$($cc -print-libgcc-file-name)
    {
        nm -P "$@" | awk '$2 == "T" { print $1 }'
        nm -D -P --defined-only "$lm" 2>/dev/null | awk '$2 ~ /^[TWi]$/ { sub(/@.*/, "", $1); print $1 }'
        # libgcc's arithmetic helpers (__muldc3, __popcountdi2...): named with a digit
        nm -P --defined-only "$lg" 2>/dev/null | awk '$2 == "T" && $1 ~ /^__.*[0-9]$/ && $1 !~ /^__gcc_/ { print $1 }'
        # what the compiler emits for itself, memory, printing, pure C library helpers
        printf '%s\n' memcpy memset memmove memcmp __stack_chk_fail \
            malloc calloc realloc free abort __assert_fail \
            printf puts putchar fputs fputc putc fprintf vprintf vfprintf sprintf \
            snprintf vsnprintf fflush fwrite stdout stderr __printf_chk __fprintf_chk \
            __sprintf_chk __snprintf_chk __vfprintf_chk __vprintf_chk __vsnprintf_chk \
            __memcpy_chk __memset_chk __memmove_chk \
            abs labs llabs qsort bsearch strlen strcmp strncmp strchr strrchr memchr
    } | sort -u
}

# The first dependency in make-style file $1 (the preprocessor's -MD output for
# student file $2, compiled with -I$3, the flat copy of the contract) that is
# neither $2, a system header, nor one of the contract's own headers.
rules_includes() {
    local dep f=$2 con=$3
    sed -e 's/\\$//' -e '1s/^[^:]*://' "$1" | tr ' ' '\n' | grep . |
        while IFS= read -r dep; do
            case $dep in
            *..*) echo "$dep" ;;
            "$f" | /usr/include/* | /usr/lib/gcc/*/include/*) ;;
            "$con"/*) [ -f "$con/${dep##*/}" ] && [ "$dep" = "$con/${dep##*/}" ] || echo "$dep" ;;
            *) echo "$dep" ;;
            esac
        done | head -1
}

# Source check of preprocessed file $1 whose own lines are marked as file $2: prints
# the first rule broken (inline assembly, an attribute that places code or runs it
# at load time), nothing when there is none.
srccheck() {
    awk -v src="$2" '
        /^# [0-9]+ "/ { f = $3; gsub(/^"|"$/, "", f); mine = (f == src); next }
        /^#/ || !mine { next }
        {
            s = $0
            gsub(/"([^"\\]|\\.)*"/, "\"\"", s); gsub(/\047([^\047\\]|\\.)*\047/, "0", s)
            while (s != "") {
                if (match(s, /^[A-Za-z_][A-Za-z0-9_]*/)) {
                    id = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
                    if (id ~ /^(asm|__asm|__asm__)$/) { print "inline assembly (" id ") is not allowed: write it in C"; exit }
                    if (id ~ /^__attribute(__)?$/) { attr = 1; depth = 0; continue }
                    bare = id; gsub(/^__|__$/, "", bare)
                    if (attr && depth > 0 && bare ~ /^(section|constructor|destructor|ifunc|alias|weakref|symver|naked|noplt)$/) {
                        print "the attribute " id " is not allowed (it places code or runs it outside the tests): remove it"; exit
                    }
                } else {
                    c = substr(s, 1, 1); s = substr(s, 2)
                    if (c == "(" && attr) depth++
                    else if (c == ")" && attr) { depth--; if (depth <= 0) attr = 0 }
                }
            }
        }
    ' "$1"
}

# The object rules, one copy for make check and the grader (tests/grade/grade.sh,
# which runs binutils in its jail and hands their output to these filters).
# rules_why_sections: readelf -SW's section lines (without "[ n]") on stdin; prints
# every section rule broken, joined by "; ", nothing when there is none.
rules_why_sections() {
    awk '
        function say(m) { why = why (why == "" ? "" : "; ") m }
        { name = $1; flags = "" }
        name == "NULL" || name == "" { next }
        name ~ /^\.(init_array|fini_array|preinit_array|ctors|dtors|init|fini)(\.|$)/ {
            say("a constructor or destructor (" name "): code that would run before or after the tests (remove it)"); next
        }
        name == ".note.GNU-stack" { stack = 1; if ($0 ~ / [A-Z]*X[A-Z]* +[0-9]+ +[0-9]+ +[0-9]+ *$/) say("an executable stack (remove what asks for it: a nested function whose address is taken)"); next }
        name ~ /^\.rela?\./ { name = substr(name, index(substr(name, 2), ".") + 1) }
        name !~ /^\.(text|data|rodata|bss)(\..*)?$/ &&
        name !~ /^\.(comment|note\.GNU-stack|note\.gnu\.property|eh_frame|symtab|strtab|shstrtab|group)$/ {
            if (!(name in seen)) say("a section " name " that plain C functions do not need (remove the attribute or pragma that makes it)")
            seen[name] = 1
        }
        END {
            if (!stack) say("no .note.GNU-stack section (the object would ask for an executable stack)")
            if (why != "") print why
        }
    '
}

# rules_why_symbols FNS ALLOW: nm -P's lines on stdin (the contract's function names
# in file FNS, the allow-list in file ALLOW); prints every symbol rule broken, joined
# by "; ".
rules_why_symbols() {
    awk -v fns="$1" -v allow="$2" '
        function say(m) { why = why (why == "" ? "" : "; ") m }
        BEGIN {
            while ((getline l < fns) > 0) contract[l] = 1
            while ((getline l < allow) > 0) ok[l] = 1
        }
        $2 == "i" { say("an indirect function (ifunc) " $1 ": code that would run when the program loads (remove it)"); next }
        $2 ~ /^[Uwv]$/ {
            if (!($1 in ok) && !($1 in contract)) calls = calls (calls == "" ? "" : ", ") $1
            next
        }
        $2 ~ /^[A-Z]$/ || $2 == "u" {
            if ($2 == "T" && ($1 in contract)) next
            if ($2 ~ /^[TW]$/) say("a global function " $1 " that is not one of the contract'"'"'s functions (make it static)")
            else say("a global variable " $1 " (make it static, or a local variable)")
        }
        END {
            if (calls != "") say("calls to " calls ": not on the allow-list (math, lib/, memory, printing): compute without them")
            if (why != "") print why
        }
    '
}

# Object check of $1 (the chapter's contract function names in file $2, the
# allow-list in file $3): prints every rule broken, joined by "; ", nothing when
# there is none.
objcheck() {
    local o=$1 fns=$2 allow=$3 why="" w
    w=$(readelf -SW "$o" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] //p' | rules_why_sections)
    [ -z "$w" ] || why=$w
    w=$(nm -P "$o" 2>/dev/null | rules_why_symbols "$fns" "$allow")
    [ -z "$w" ] || why=${why:+$why; }$w
    # shellcheck disable=SC2016 # $0x80 is the instruction's operand, not a variable
    if objdump -d --no-show-raw-insn "$o" 2>/dev/null | grep -qE '[[:space:]](syscall|sysenter|int[[:space:]]+\$0x80)([[:space:]]|$)'; then
        why=${why:+$why; }"a system call instruction (remove it)"
    fi
    [ -z "$why" ] || echo "$why"
}

# The function names chapter $1's contract (exercises/$1/*.h) declares, one a line,
# from the compiler (gcc -aux-info), as tests/grade/wrap.sh reads them.
rules_contract_fns() {
    local ch=$1 tmp h
    tmp=$(mktemp -d) || return 1
    for h in exercises/"$ch"/*.h; do echo "#include \"$(basename "$h")\""; done >"$tmp/all.c"
    ${CC:-cc} -std=c11 -Ilib -Iexercises/"$ch" -aux-info "$tmp/aux" -fsyntax-only "$tmp/all.c" &&
        grep -F "/* exercises/$ch/" "$tmp/aux" | grep -F '*/ extern ' | sed 's/[[:space:]]*(.*//; s/.*[^A-Za-z0-9_]//' | sort -u
    rm -rf "$tmp"
}

# make check's use: chapter $1's file $2 checked as the grader checks it; writes
# "ok" or "refused: WHY" to $3 (build/rules/CH/FILE.txt; the contract's names and
# the allow-list beside it, in build/rules/).
rules_check_file() {
    local ch=$1 f=$2 out=$3 dir b why="" cc=${CC:-cc}
    b=$(basename "$f" .c)
    dir=build/rules/$ch/$b
    rm -rf "$dir" && mkdir -p "$dir/src" "$dir/contract" || return 2
    cp "$f" "$dir/src/" && cp exercises/"$ch"/*.h lib/*.h "$dir/contract/" || return 2
    local src=$PWD/$dir/src/$b.c con=$PWD/$dir/contract
    if ! $cc "${RULES_CFLAGS[@]}" -I"$con" -E -MD -MF "$dir/$b.d" -MT "$b.o" "$src" -o "$dir/$b.i" >"$dir/log" 2>&1; then
        why="it does not compile as the grader compiles it (alone, beside the contract's headers):"$'\n'"$(grep -F "$src:" "$dir/log" | sed "s|$src|exercises/$ch/$b.c|g" | head -5)"
        grep -q 'fatal error: .*No such file' "$dir/log" &&
            why="$why"$'\n'"(only system headers and the chapter's own headers may be included: remove the #include and write what you need in this file)"
    else
        why=$(rules_includes "$dir/$b.d" "$src" "$con")
        if [ -n "$why" ]; then
            why="it includes ${why//$PWD\/$dir\/src\//} (only system headers and the chapter's own headers may be included): remove the #include and write what you need in this file"
        else
            # every rule the file breaks, in one run: the source rule, then the object's
            local src_why obj_why
            src_why=$(srccheck "$dir/$b.i" "$src")
            if ! $cc "${RULES_CFLAGS[@]}" -fpreprocessed -x cpp-output -c "$dir/$b.i" -o "$dir/$b.o" >"$dir/log" 2>&1; then
                why="it does not compile as the grader compiles it:"$'\n'"$(grep -F "$src:" "$dir/log" | sed "s|$src|exercises/$ch/$b.c|g" | head -5)"
                why=${src_why:+$src_why; }$why
            else
                obj_why=$(objcheck "$dir/$b.o" build/rules/"$ch"/fns build/rules/allow.syms)
                why=${src_why:+it has $src_why}
                [ -z "$obj_why" ] || why=${why:+$why; }"it has $obj_why"
            fi
        fi
    fi
    if [ -z "$why" ]; then echo ok >"$out"; else printf 'refused: %s\n' "$why" >"$out"; fi
}

# Run as a command (not when sourced).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    cd "$(dirname "$0")/../.." || exit 2
    case ${1:-} in
    allow)
        out=$2
        shift 2
        mkdir -p "$(dirname "$out")" && rules_allow_list "$@" >"$out.tmp" && mv "$out.tmp" "$out"
        ;;
    fns)
        mkdir -p "$(dirname "$3")" && rules_contract_fns "$2" >"$3.tmp" && [ -s "$3.tmp" ] && mv "$3.tmp" "$3"
        ;;
    check)
        mkdir -p "$(dirname "$4")" && rules_check_file "$2" "$3" "$4"
        ;;
    *)
        echo "usage: tests/loop/rules.sh allow OUT LIB.o... | fns CHAPTER OUT | check CHAPTER FILE.c OUT" >&2
        exit 2
        ;;
    esac
fi
