#!/usr/bin/env python3
# rename.py -- applies tests/chalk/proof/renames.tsv to an old command line or to
# the old calculator's output, for tests/chalk/proof.sh.
#
#   rename.py line LINE              prints LINE (shell-quoted words) with the
#                                    command's renamed flags
#   rename.py output COMMAND < OUT   prints OUT with the command's renamed keys: JSON
#                                    members "KEY": and "KEY_reason":, and CSV header
#                                    columns (tables show labels, which keep)
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def renames(command, kind):
    out = []
    with open(os.path.join(HERE, "renames.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cmd, k, old, new = line.rstrip("\n").split("\t")
            if cmd == command and k == kind:
                out.append((old, new))
    return out


def rename_line(line):
    words = shlex.split(line)
    if not words:
        return line
    table = renames(words[0], "flag")
    for i, w in enumerate(words):
        for old, new in table:
            if w == old:
                words[i] = new
            elif w.startswith(old + "="):
                words[i] = new + w[len(old):]
    return " ".join(shlex.quote(w) for w in words)


def rename_output(command, text):
    table = renames(command, "key")
    if not table:
        return text
    for old, new in table:
        for suffix in ("", "_reason"):
            text = text.replace('"%s%s":' % (old, suffix), '"%s%s":' % (new, suffix))
    lines = text.split("\n")
    if lines and "," in lines[0] and not lines[0].startswith("{"):
        cols = lines[0].split(",")
        for old, new in table:
            cols = [new + c[len(old):] if c in (old, old + "_reason") else c for c in cols]
        lines[0] = ",".join(cols)
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1] == "line":
        print(rename_line(sys.argv[2]))
    else:
        sys.stdout.write(rename_output(sys.argv[2], sys.stdin.read()))
