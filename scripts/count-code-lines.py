#!/usr/bin/env python3
#===- count-code-lines.py - lines of code without comments and blanks -----===#
#
# Usage: count-code-lines.py FILE...
#
# Prints, for each C-like source (C, C++, CUDA, BSGP), the number of lines
# that hold code: a line that is blank, or holds only a comment (// to the
# end of the line, or part of a /* */ block), does not count. String and
# character literals are skipped over, so a "//" inside one is code. The
# last line is the total. docs/apps.md compares the particle fluid's BSGP
# step with its CUDA twin this way, as the paper's section 5 counts lines
# "excluding comments".
#
#===----------------------------------------------------------------------===#
import sys


def code_lines(text):
    count, in_block = 0, False
    for line in text.split("\n"):
        code, i, quote = False, 0, None
        while i < len(line):
            c = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block, i = False, i + 2
                else:
                    i += 1
                continue
            if quote:
                if c == "\\":
                    i += 2
                    continue
                if c == quote:
                    quote = None
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block, i = True, i + 2
                continue
            if c in "\"'":
                quote = c
            if not c.isspace():
                code = True
            i += 1
        count += code
    return count


def main(paths):
    total = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            n = code_lines(f.read())
        print(f"{n:6d} {path}")
        total += n
    print(f"{total:6d} total")


if __name__ == "__main__":
    main(sys.argv[1:])
