#===- check_sources.py - source rules that a grep can check ---------------===#
#
# Usage: check_sources.py RULE SRC_ROOT. Prints each violation as
# file:line: text and exits 1 if there is one. Comments do not count (a
# `//` comment to the end of the line, outside string literals).
#
#   library-names: no `__bsgp_` name in the code of lib/Transforms,
#     lib/Conversion and lib/Target. The passes know the collective library's functions by the
#     #bsgp.library attribute (BSGPAttrs.td), not by their names, and the
#     symbols the targets emit are named in include/bsgp/Target/SymbolNames.h.
#   attribute-names: no `"bsgp.xxx"` string literal in lib/, tools/ and
#     include/ C++: every discardable attribute is declared once, in
#     BSGPDialect.td's discardableAttrs, and named through its helper
#     (BSGPDialect::<Name>AttrHelper::getNameStr()).
#
#===----------------------------------------------------------------------===#
import os
import re
import sys

CPP = (".cpp", ".h", ".inc", ".def")

# Not attribute names: the side-effect resource of the thread state, the
# file name of the <bsgp.h> header (lib/Lex/Preprocess.cpp), the prefix of
# the SPIR-V target's double-precision functions (DoubleMath.h) and the name
# of its 64-bit division function (WideDivision.h).
ATTRIBUTE_ALLOWED = {'"bsgp.thread_state"', '"bsgp.h"', '"bsgp.math."',
                     '"bsgp.int.udiv64"'}


def code_of(line):
    """`line` without its // comment (string literals kept)."""
    out, i, quote = [], 0, None
    while i < len(line):
        c = line[i]
        if quote:
            out.append(c)
            if c == "\\" and i + 1 < len(line):
                out.append(line[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            out.append(c)
        elif line.startswith("//", i):
            break
        else:
            out.append(c)
        i += 1
    return "".join(out)


def files(root, dirs):
    for d in dirs:
        for base, _, names in os.walk(os.path.join(root, d)):
            for name in sorted(names):
                if name.endswith(CPP):
                    yield os.path.join(base, name)


def check(root, dirs, pattern, allowed=()):
    bad = 0
    for path in files(root, dirs):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for m in pattern.finditer(code_of(line)):
                    if m.group(0) in allowed:
                        continue
                    print("%s:%d: %s" % (os.path.relpath(path, root), n,
                                         line.strip()))
                    bad += 1
    return bad


def main():
    rule, root = sys.argv[1], sys.argv[2]
    if rule == "library-names":
        bad = check(root, ["lib/Transforms", "lib/Conversion", "lib/Target"],
                    re.compile(r"__bsgp_\w*"))
    elif rule == "attribute-names":
        bad = check(root, ["lib", "tools", "include"],
                    re.compile(r'"bsgp\.[A-Za-z0-9_.]+"'), ATTRIBUTE_ALLOWED)
    else:
        sys.exit("unknown rule " + rule)
    print("%d violation(s)" % bad)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
