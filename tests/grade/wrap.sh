#!/usr/bin/env bash
# wrap.sh -- writes the C wrappers through which every call from a test into a
# contract function runs in another process (harness.c says how and why), and
# refuses a contract whose buffers it could not carry there and back.
#
#   tests/grade/wrap.sh CHAPTER OUT.c      prints the contract's function names
#
# The prototypes come from the compiler (gcc -aux-info on the contract headers
# exercises/CHAPTER/*.h), what each parameter and result points to from the
# compiler too (the DWARF of a probe that declares one variable of each type, read
# with readelf), and the parameter names from the header's declaration (comments
# stripped by the preprocessor). No C type is parsed here.
#
# For each function F of the contract, OUT.c defines F: it packs the arguments and
# describes every pointer argument's data (where it is, how many bytes, whether the
# function reads it, writes it or only works in it); chalk_grade_call() then runs
# chalk_student_F (the student's F, renamed by objcopy) in another process and
# copies the result and the written buffers back. The sizes come from
# tests/grade/buffers.txt (a C expression over the other parameters, per function
# and parameter; a pointer to one writable struct needs no line). wrap.sh exits 2,
# naming the function and the parameter, when
#   - a pointer to read-only structs has no size there (one struct, or an array
#     of them: the type does not tell, and copying one element of an array would
#     grade wrong instead of refusing);
#   - a writable pointer argument has no size there, or points to data that holds
#     pointers other than strings (a copy back would hand the test pointers the
#     student chose);
#   - a pointer argument reaches writable memory through pointers inside it, or a
#     value argument holds a writable pointer (its writes could not come back);
#   - the result is a pointer (only a string, "string CAP", is copied back) or a
#     value holding pointers other than strings; the function is variadic;
#   - a line of buffers.txt names no such parameter, or its size calls a contract
#     function (a size must never be the student's answer), or does not compile.
# So no contract function can fall back to running in the test's process.
#
# A string here is a pointer to const char inside a struct (chapter 4's `reason`),
# an array, or a buffer's element: wrap.sh finds each one (the DWARF, through
# nested structs and arrays; none in a union) and the wrapper hands the harness its
# offset and designator, each checked by the compiler (offsetof, and a static
# assertion that it is a const char *). The harness accepts such a string in a
# result or a written buffer only when it is NULL or a string constant of the test
# binary, and carries a buffer of strings to the call server only when they all are
# (harness.c says why that is sound).
#
# A function whose every pointer argument has a size and holds no pointers is
# "portable": its calls may go to the test's call server (one process per test,
# fed copies of the arguments). The others (a function pointer, a const void *, a
# struct holding pointers among their arguments) run in a fresh process per call,
# which sees the test's memory as it was at the call. OUT.c says which, per function.
set -euo pipefail
cd "$(dirname "$0")/../.."
ch=${1:?usage: tests/grade/wrap.sh CHAPTER OUT.c}
out=${2:?usage: tests/grade/wrap.sh CHAPTER OUT.c}
table=${CHALK_BUFFERS:-tests/grade/buffers.txt}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() {
    printf 'wrap: %s\n' "$@" >&2
    exit 2
}
[ -d "exercises/$ch" ] || die "no chapter exercises/$ch"
[ -f "$table" ] || die "no size table $table"

for h in exercises/"$ch"/*.h; do echo "#include \"$(basename "$h")\""; done >"$tmp/all.c"
$cc -std=c11 -Ilib -Iexercises/"$ch" -aux-info "$tmp/aux" -fsyntax-only "$tmp/all.c"

# "/* exercises/CH/x.h:12:NC */ extern RET NAME (T0, T1);"
#   -> FILE <TAB> LINE <TAB> RET <TAB> NAME <TAB> T0 <TAB> T1
grep -F "/* exercises/$ch/" "$tmp/aux" | grep -F '*/ extern ' | awk '
    {
        where = $0; sub(/^\/\* /, "", where); sub(/:[A-Z]+ \*\/.*$/, "", where)
        file = where; sub(/:[0-9]+$/, "", file); line = where; sub(/^.*:/, "", line)
        s = $0; sub(/^.*\*\/ extern /, "", s); sub(/;[ \t]*$/, "", s)
        # the parameter list: the parenthesized group that ends the line
        depth = 0
        for (i = length(s); i > 0; i--) {
            c = substr(s, i, 1)
            if (c == ")") depth++
            else if (c == "(") { depth--; if (depth == 0) break }
        }
        params = substr(s, i + 1, length(s) - i - 1); head = substr(s, 1, i - 1)
        sub(/[ \t]+$/, "", head)
        name = head; sub(/^.*[^A-Za-z0-9_]/, "", name)
        ret = substr(head, 1, length(head) - length(name)); sub(/[ \t]+$/, "", ret)
        out = file "\t" line "\t" ret "\t" name
        depth = 0; cur = ""
        for (j = 1; j <= length(params); j++) {
            c = substr(params, j, 1)
            if (c == "(") depth++
            if (c == ")") depth--
            if (c == "," && depth == 0) { sub(/^[ \t]+/, "", cur); out = out "\t" cur; cur = ""; continue }
            cur = cur c
        }
        sub(/^[ \t]+/, "", cur); sub(/[ \t]+$/, "", cur)
        if (cur != "void" && cur != "") out = out "\t" cur
        print out
    }
' >"$tmp/protos"
[ -s "$tmp/protos" ] || die "no function declared in exercises/$ch/*.h"
cut -f4 "$tmp/protos" >"$tmp/fns"

# Parameter names, from the declaration in the header (comments stripped by the
# preprocessor; "-" for an unnamed one). $1 file, $2 line, $3 function, $4 the
# aux-info types (tab-separated), for the count and to tell a name from a type.
param_names() {
    $cc -fpreprocessed -E "$1" 2>/dev/null | awk -v from="$2" -v fn="$3" -v types="$4" '
        /^# [0-9]+ "/ { ln = $2; next }
        { if (ln >= from) text = text " " $0; ln++ }
        END {
            i = match(text, "(^|[^A-Za-z0-9_])" fn "[ \t]*\\(")
            if (!i) { print "?"; exit }
            s = substr(text, i + RLENGTH); depth = 1; list = ""
            for (j = 1; j <= length(s) && depth > 0; j++) {
                c = substr(s, j, 1)
                if (c == "(" || c == "[") depth++
                if (c == ")" || c == "]") depth--
                if (depth > 0) list = list c
            }
            nt = split(types, ty, "\t"); if (types == "") nt = 0
            n = 0; depth = 0; cur = ""
            for (j = 1; j <= length(list) + 1; j++) {
                c = j <= length(list) ? substr(list, j, 1) : ","
                if (c == "(" || c == "[") depth++
                if (c == ")" || c == "]") depth--
                if (c == "," && depth == 0) { p[++n] = cur; cur = ""; continue }
                cur = cur c
            }
            if (n == 1 && p[1] ~ /^[ \t]*(void)?[ \t]*$/) n = 0
            if (n != nt) { print "?"; exit }
            names = ""
            for (k = 1; k <= n; k++) {
                q = p[k]
                gsub(/\[[^]]*\]/, "", q)                  # block[2] -> block
                if (match(q, /\([ \t]*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/)) {
                    q = substr(q, RSTART, RLENGTH); gsub(/[^A-Za-z0-9_]/, "", q)
                } else {
                    sub(/[ \t]+$/, "", q)
                    if (match(q, /[A-Za-z_][A-Za-z0-9_]*$/)) q = substr(q, RSTART) ; else q = "-"
                    # no name: the last word is the type itself
                    if (q != "-" && (" " ty[k] " ") ~ ("[^A-Za-z0-9_]" q "[^A-Za-z0-9_]")) q = "-"
                }
                names = names (k > 1 ? " " : "") q
            }
            print names
        }'
}
: >"$tmp/names"
while IFS=$'\t' read -r file line ret name rest; do
    n=$(param_names "$file" "$line" "$name" "$rest")
    [ "$n" != "?" ] || die "$ch: cannot read the parameters of $name in $file:$line (is it declared by a macro?)"
    printf '%s\t%s\n' "$name" "$n" >>"$tmp/names"
done <"$tmp/protos"

# What each parameter and result is, from the compiler: one variable per type, its
# DWARF read back. Per variable chalk_probe_F_I (I a parameter's index, or r):
#   value         a value holding no pointer
#   value-ptr     a value holding pointers to read-only data (fine: fork copies it)
#   value-wptr    a value holding a pointer to writable memory
#   fn            a function pointer
#   in KIND       a pointer to const data holding no pointer (KIND: record, char, scalar)
#   in-str KIND   a pointer to const data whose only pointers are strings
#   in-deep       a pointer to const data holding other read-only pointers, or const void
#   in-wptr       a pointer to const data through which writable memory is reached
#   out KIND      a pointer to writable data holding no pointer (KIND also void)
#   out-str KIND  a pointer to writable data whose only pointers are strings
#   out-ptr       a pointer to writable data that holds other pointers
#   incomplete    a pointer to a type of unknown size
# where a string is a pointer to const char: a "value-ptr", an "in-str" and an
# "out-str" come with the designators of their strings (a third column: "reason
# a[1].name", "@" for a pointee that is itself one), which the wrappers hand to the
# harness.
{
    cat "$tmp/all.c"
    while IFS=$'\t' read -r file line ret name rest; do
        IFS=$'\t' read -r -a types <<<"$rest"
        [ -n "$rest" ] || types=()
        for i in "${!types[@]}"; do
            case ${types[$i]} in *...*) die "$ch: $name is variadic: its arguments cannot be carried" ;; esac
            echo "__typeof__(${types[$i]}) chalk_probe_${name}_$i;"
        done
        [ "$ret" = void ] || echo "__typeof__($ret) chalk_probe_${name}_r;"
    done <"$tmp/protos"
} >"$tmp/probe.c"
$cc -std=c11 -g -c -Ilib -Iexercises/"$ch" "$tmp/probe.c" -o "$tmp/probe.o"
readelf --debug-dump=info "$tmp/probe.o" 2>/dev/null | awk '
    function hex(s) { sub(/^0x/, "", s); sub(/^0+/, "", s); return tolower(s) }
    match($0, /^ *<[0-9]+><[0-9a-f]+>: Abbrev Number: [0-9]+ \(DW_TAG_[a-z_]+\)/) {
        split($0, f, /[<>]/); depth = f[2] + 0; cur = hex(f[4])
        tag[cur] = $0; sub(/^.*\(DW_TAG_/, "", tag[cur]); sub(/\).*$/, "", tag[cur])
        up[depth] = cur
        if (depth > 0) kids[up[depth - 1]] = kids[up[depth - 1]] " " cur
        next
    }
    /Abbrev Number: 0/ { next }
    cur != "" && /DW_AT_name/ { v = $0; sub(/^[^:]*: /, "", v); sub(/^\(indirect[^)]*\): /, "", v); name[cur] = v }
    cur != "" && /DW_AT_type/ { v = $0; sub(/^.*<0x/, "", v); sub(/>.*$/, "", v); type[cur] = hex(v) }
    cur != "" && /DW_AT_declaration/ { decl[cur] = 1 }
    cur != "" && /DW_AT_upper_bound/ { v = $0; sub(/^[^:]*: /, "", v); upper[cur] = v + 0 }
    cur != "" && /DW_AT_count/ { v = $0; sub(/^[^:]*: /, "", v); count[cur] = v + 0 }
    function qual(t) { return tag[t] ~ /^(typedef|const_type|volatile_type|restrict_type|atomic_type)$/ }
    function strip(t) { while (t != "" && qual(t)) t = type[t]; return t }
    function isconst(t) {
        for (; t != "" && qual(t); t = type[t]) if (tag[t] == "const_type") return 1
        return 0
    }
    function hasptr(t,   b, m, n, k, r) {
        b = strip(t)
        if (b == "") return 0
        if (tag[b] == "pointer_type") return 1
        if (tag[b] == "array_type") return hasptr(type[b])
        if (tag[b] ~ /^(structure|union)_type$/) {
            n = split(kids[b], m, " ")
            for (k = 1; k <= n; k++) if (tag[m[k]] == "member" && hasptr(type[m[k]])) return 1
        }
        return 0
    }
    # writable memory reachable through the pointers the value t holds
    function wreach(t,   b, p, m, n, k) {
        b = strip(t)
        if (b == "" || seen[b]) return 0
        if (tag[b] == "pointer_type") {
            p = type[b]
            if (p == "") return 1
            if (tag[strip(p)] == "subroutine_type") return 0
            if (!isconst(p)) return 1
            seen[b] = 1
            return wreach(p)
        }
        if (tag[b] == "array_type") return wreach(type[b])
        if (tag[b] ~ /^(structure|union)_type$/) {
            seen[b] = 1
            n = split(kids[b], m, " ")
            for (k = 1; k <= n; k++) if (tag[m[k]] == "member" && wreach(type[m[k]])) return 1
        }
        return 0
    }
    # The strings (pointers to const char) the value of type t holds, as the
    # designators that reach them from it, each after a space ("@" for t itself);
    # "!" when it holds any other pointer, a pointer in a union, or more than 64
    # strings or an array of unknown length.
    function strs(t, path,   b, p, pb, m, n, k, r, x) {
        b = strip(t)
        if (b == "") return ""
        if (tag[b] == "pointer_type") {
            p = type[b]; pb = strip(p)
            if (p != "" && isconst(p) && tag[pb] == "base_type" && name[pb] == "char")
                return " " (path == "" ? "@" : path)
            return "!"
        }
        if (!hasptr(b)) return ""
        if (tag[b] == "array_type") return elems(b, 1, path)
        if (tag[b] != "structure_type") return "!"
        n = split(kids[b], m, " "); r = ""
        for (k = 1; k <= n; k++) {
            if (tag[m[k]] != "member") continue
            # an anonymous struct: its members are reached by their own names
            x = strs(type[m[k]], name[m[k]] == "" ? path : (path == "" ? "" : path ".") name[m[k]])
            if (x == "!") return "!"
            r = r x
        }
        return split(r, m, " ") > 64 ? "!" : r
    }
    # the strings in the elements of array b, from its dimension d on
    function elems(b, d, path,   n, m, k, dims, s, cnt, i, r, x) {
        n = split(kids[b], m, " "); dims = 0
        for (k = 1; k <= n; k++) if (tag[m[k]] == "subrange_type" && ++dims == d) s = m[k]
        if (d > dims) return strs(type[b], path)
        cnt = (s in count) ? count[s] : (s in upper) ? upper[s] + 1 : -1
        if (cnt < 0 || cnt > 64) return "!"
        r = ""
        for (i = 0; i < cnt; i++) {
            x = elems(b, d + 1, path "[" i "]")
            if (x == "!") return "!"
            r = r x
        }
        return r
    }
    function kind(b) {
        if (b == "") return "void"
        if (tag[b] ~ /^(structure|union)_type$/) return "record"
        if (tag[b] == "base_type" && name[b] ~ /^((un)?signed )?char$/) return "char"
        return "scalar"
    }
    # the class of type t; sets paths to the designators of its strings, if any
    function classify(t,   b, p, pb, s) {
        b = strip(t)
        split("", seen)
        paths = ""
        if (tag[b] != "pointer_type") {
            if (wreach(t)) return "value-wptr"
            if (!hasptr(t)) return "value"
            s = strs(t, "")
            if (s != "!") paths = substr(s, 2)
            return "value-ptr"
        }
        p = type[b]; pb = strip(p)
        if (pb != "" && tag[pb] == "subroutine_type") return "fn"
        if (pb != "" && decl[pb]) return "incomplete"
        if (p != "" && isconst(p)) {
            if (pb == "") return "in-deep"
            if (wreach(p)) return "in-wptr"
            if (!hasptr(p)) return "in " kind(pb)
            s = strs(p, "")
            if (s == "!") return "in-deep"
            paths = substr(s, 2)
            return "in-str " kind(pb)
        }
        if (!hasptr(p)) return "out " kind(pb)
        s = strs(p, "")
        if (s == "!") return "out-ptr"
        paths = substr(s, 2)
        return "out-str " kind(pb)
    }
    END {
        for (v in tag)
            if (tag[v] == "variable" && name[v] ~ /^chalk_probe_/) {
                n = name[v]; sub(/^chalk_probe_/, "", n)
                c = classify(type[v])
                print n "\t" c "\t" paths
            }
    }
' >"$tmp/classes"
class_of() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$tmp/classes"; }
strings_of() { awk -F'\t' -v k="$1" '$1 == k { print $3 }' "$tmp/classes"; }
[ -s "$tmp/classes" ] || die "$ch: no DWARF read from the probe (is readelf from binutils installed?)"

# buffers.txt lines of this chapter: CHAPTER FUNCTION PARAMETER KIND SIZE...
awk -v ch="$ch" '{ sub(/#.*/, "") } NF && $1 == ch' "$table" >"$tmp/table"
awk -v t="$table" 'NF < 5 || $4 !~ /^(in|out|scratch|string)$/ {
    print "wrap: " t ": \"" $0 "\": want CHAPTER FUNCTION PARAMETER in|out|scratch|string SIZE" > "/dev/stderr"; bad = 1 }
    END { exit bad }' "$tmp/table" || exit 2
dup=$(awk '{ k = $2 " " $3; if (k in seen) { print k; exit } seen[k] = 1 }' "$tmp/table")
[ -z "$dup" ] || die "$ch: $table has two lines for $dup"
# a size may not call a contract function: it would be the student's answer
bad=$(awk 'NR == FNR { fn[$1] = 1; next }
    { s = ""; for (i = 5; i <= NF; i++) s = s " " $i
      while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) { w = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
          if (w in fn) { print $2 " " $3 ": its size calls " w; exit } } }' "$tmp/fns" "$tmp/table")
[ -z "$bad" ] || die "$ch: $table: $bad, a contract function (a size must not be the student's answer)"
used=$tmp/used
: >"$used"
# entry F P: "KIND SIZE" from the table, "" when none
entry() { awk -v f="$1" -v p="$2" '$2 == f && $3 == p { s = $4; for (i = 5; i <= NF; i++) s = s " " $i; print s; exit }' "$tmp/table"; }

# string_table VAR TYPE PATHS: the C of a table of the strings (pointers to const
# char) in a value of TYPE, at the designators PATHS ("@": the value itself), each
# checked by the compiler to be one; "" when a designator cannot be written so.
string_table() {
    local var=$1 type=$2 d
    echo "    static const chalk_grade_str $var[] = {"
    for d in $3; do
        case $d in
        @) echo "        {0, \"\"}, /* the element itself */" ;;
        \[*) return 1 ;; # an array of strings, with no name to reach it
        *) echo "        {offsetof(__typeof__($type), $d), \"$d\"}," ;;
        esac
    done
    echo "    };"
    for d in $3; do
        [ "$d" = @ ] && d="" || d=".$d"
        echo "    _Static_assert(__builtin_types_compatible_p(__typeof__((*(__typeof__($type) *)0)$d), const char *),"
        echo "                   \"wrap.sh: a string\");"
    done
}

errors=()
{
    echo "/* Generated by tests/grade/wrap.sh from the headers of exercises/$ch and $table: do not edit. */"
    echo "#include <stddef.h>"
    echo "#include <stdint.h>"
    echo "#include <string.h>"
    echo "#include \"harness.h\""
    cat "$tmp/all.c"
    while IFS=$'\t' read -r file line ret name rest; do
        IFS=$'\t' read -r -a types <<<"$rest"
        [ -n "$rest" ] || types=()
        read -r -a pnames <<<"$(awk -F'\t' -v f="$name" '$1 == f { print $2 }' "$tmp/names")"
        members="" params="" args="" inits="" bufs="" nbufs=0 portable=1 why="" cap=0
        tables="" rstrings="NULL, 0"
        for i in "${!types[@]}"; do
            p=${pnames[$i]:--}
            [ "$p" != "-" ] || p=chalk_p$i
            members="$members __typeof__(${types[$i]}) a$i;"
            params="${params:+$params, }__typeof__(${types[$i]}) $p"
            args="${args:+$args, }a->a$i"
            inits="${inits:+$inits, }$p"
            cls=$(class_of "${name}_$i")
            strs=""
            case $cls in # data whose only pointers are strings: a buffer like any other
            in-str\ * | out-str\ *) strs=$(strings_of "${name}_$i") cls="${cls%%-*} ${cls#* }" ;;
            esac
            e=$(entry "$name" "$p")
            [ -z "$e" ] || echo "$name $p" >>"$used"
            kind=${e%% *} size=${e#* }
            case $cls in
            value) [ -z "$e" ] || errors+=("$name: $p (${types[$i]}) is not a pointer: its line in $table is wrong") ;;
            value-ptr | fn | in-deep)
                [ -z "$e" ] || errors+=("$name: $p (${types[$i]}) cannot be copied (it holds or is a pointer the grader cannot follow): remove its line in $table")
                case $cls in
                fn) what="a function pointer" ;;
                value-ptr) what="holds pointers" ;;
                *) what="points to data holding pointers" ;;
                esac
                portable=0 why="${why:+$why, }$p $what"
                ;;
            value-wptr | in-wptr)
                errors+=("$name: through $p (${types[$i]}) the function could write memory the grader cannot copy back (a pointer to writable data inside it): make it const, or pass that buffer as a parameter")
                ;;
            out-ptr) errors+=("$name: $p (${types[$i]}) points to writable data that holds pointers: the grader cannot copy it back safely") ;;
            incomplete) errors+=("$name: $p (${types[$i]}) points to a type of unknown size") ;;
            in\ * | out\ *)
                dir=${cls%% *} what=${cls#* }
                if [ -z "$e" ] && [ "$what" = record ] && [ "$dir" = out ]; then
                    kind=$dir size=1 # one struct
                elif [ -z "$e" ] && [ "$dir" = in ] && [ "$what" = record ]; then
                    # one struct or an array of them: the type does not say, and one
                    # element copied for an array is a wrong grade, not a refusal
                    errors+=("$name: $p (${types[$i]}) is a read-only pointer with no size: add a line \"$ch $name $p in SIZE\" to $table (SIZE 1 for one struct, else the contract's element count)")
                    continue
                elif [ -z "$e" ] && [ "$dir" = out ]; then
                    errors+=("$name: $p (${types[$i]}) is a writable buffer with no size: add a line \"$ch $name $p out SIZE\" (or scratch) to $table")
                    continue
                elif [ -z "$e" ]; then
                    portable=0 why="${why:+$why, }$p has no size in $table"
                    continue
                fi
                case $dir/$kind in
                in/in | out/out | out/scratch) ;;
                *)
                    errors+=("$name: $p (${types[$i]}) is $([ "$dir" = in ] && echo "read-only: its kind is in" || echo "writable: its kind is out or scratch"), not $kind ($table)")
                    continue
                    ;;
                esac
                bstrings="NULL, 0"
                if [ -n "$strs" ]; then
                    if ! t=$(string_table "chalk_s_$p" "*(${types[$i]})0" "$strs"); then
                        errors+=("$name: $p (${types[$i]}) points to an array of strings: pass a struct holding them")
                        continue
                    fi
                    tables="$tables$t"$'\n'
                    bstrings="chalk_s_$p, $(wc -w <<<"$strs")"
                fi
                bufs="$bufs        {offsetof(struct chalk_args_$name, a$i), sizeof *$p, ($size) < 0, (uintmax_t)($size), CHALK_GRADE_${kind^^}, \"$p\", $bstrings},"$'\n'
                nbufs=$((nbufs + 1))
                ;;
            *) errors+=("$name: $p (${types[$i]}): unknown class '$cls'") ;;
            esac
        done
        rcls=""
        [ "$ret" = void ] || rcls=$(class_of "${name}_r")
        e=$(entry "$name" return)
        [ -z "$e" ] || echo "$name return" >>"$used"
        case $rcls in
        "")
            [ "$ret" = void ] || errors+=("$name: the compiler's debugging information says nothing of its result ($ret): is readelf from binutils current?")
            [ -z "$e" ] || errors+=("$name: its result is not a pointer: its line in $table is wrong")
            ;;
        value) [ -z "$e" ] || errors+=("$name: its result is not a pointer: its line in $table is wrong") ;;
        value-ptr)
            strs=$(strings_of "${name}_r")
            [ -z "$e" ] || errors+=("$name: its result is not a pointer: its line in $table is wrong")
            if [ -z "$strs" ]; then
                errors+=("$name returns $ret, which holds pointers other than strings (const char *): they would point into the call's process")
            elif t=$(string_table chalk_rs "$ret" "$strs"); then
                tables="$tables$t"$'\n'
                rstrings="chalk_rs, $(wc -w <<<"$strs")"
            fi
            ;;
        "in char" | "out char")
            if [ "${e%% *}" = string ] && [[ ${e#* } =~ ^[0-9]+$ ]] && [ "${e#* }" -gt 0 ]; then
                cap=${e#* }
            else
                errors+=("$name returns a pointer ($ret): add a line \"$ch $name return string CAP\" to $table (a string, copied back up to CAP bytes)")
            fi
            ;;
        in\ * | out\ * | in-* | out-* | fn | incomplete)
            errors+=("$name returns a pointer ($ret): only a string result (a char pointer, \"$ch $name return string CAP\" in $table) can be copied back")
            ;;
        *) errors+=("$name returns $ret, which holds pointers to writable data: they would point into the call's process") ;;
        esac
        echo
        echo "extern __typeof__($name) chalk_student_$name __attribute__((weak));"
        echo "struct chalk_args_$name {$members char chalk_unused; };"
        echo "static void chalk_thunk_$name(void *ret, void *args)"
        echo "{"
        echo "    struct chalk_args_$name *a = args;"
        echo "    (void)a;"
        if [ "$ret" = void ]; then
            echo "    (void)ret;"
            echo "    chalk_student_$name($args);"
        else
            echo "    *(__typeof__($ret) *)ret = chalk_student_$name($args);"
        fi
        echo "}"
        if [ $portable = 1 ]; then
            echo "/* $name: portable (every pointer argument has a size): the test's call server may run it. */"
        else
            echo "/* $name: a fresh process per call ($why). */"
        fi
        echo "$ret $name(${params:-void})"
        echo "{"
        echo "    struct chalk_args_$name chalk_a = {${inits:+$inits, }0};"
        if [ "$ret" = void ]; then
            echo "    char chalk_r = 0;"
        else
            echo "    __typeof__($ret) chalk_r;"
            echo "    memset(&chalk_r, 0, sizeof chalk_r);"
        fi
        printf '%s' "$tables"
        echo "    chalk_grade_buf chalk_b[] = {"
        printf '%s' "$bufs"
        echo "        {0, 0, 0, 0, 0, 0, NULL, 0},"
        echo "    };"
        echo "    static const chalk_grade_fn chalk_f = {\"$name\", chalk_thunk_$name, sizeof chalk_a,"
        echo "        $([ "$ret" = void ] || [ "$cap" != 0 ] && echo 0 || echo 'sizeof chalk_r'), $cap, $portable, $rstrings};"
        echo "    chalk_grade_call(&chalk_f, chalk_student_$name != 0, &chalk_r, &chalk_a, chalk_b, $nbufs);"
        [ "$ret" = void ] && echo "    (void)chalk_r;" || echo "    return chalk_r;"
        echo "}"
    done <"$tmp/protos"
} >"$tmp/out.c"
# every line of the table names a parameter that takes one
while read -r _ f p _; do
    grep -qxF "$f $p" "$used" || errors+=("$table: \"$f $p\" names no pointer parameter or result of exercises/$ch")
done <"$tmp/table"
if [ ${#errors[@]} -gt 0 ]; then
    printf "wrap: $ch: %s\n" "${errors[@]}" >&2
    echo "wrap: $ch: no wrappers written: every call must run outside the test's process, so every buffer needs its size" >&2
    exit 2
fi
# the sizes are C: they must compile as such
if ! $cc -std=c11 -fsyntax-only -Werror=implicit-function-declaration -Itests/grade -Ilib -Iexercises/"$ch" \
    -x c "$tmp/out.c" 2>"$tmp/cc.log"; then
    sed 's/^/  /' "$tmp/cc.log" | head -20 >&2
    die "$ch: the wrappers do not compile: a size in $table is not valid C over the function's parameters"
fi
cp "$tmp/out.c" "$out"
cat "$tmp/fns"
