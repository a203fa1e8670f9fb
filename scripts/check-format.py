#!/usr/bin/env python3
#===- check-format.py - the C++ sources as clang-format writes them -------===#
#
# Usage: check-format.py [--clang-format PATH] [--root DIR] [paths...]
#
# Runs `clang-format --dry-run -Werror` (the style of the nearest
# .clang-format: LLVM) over every .cpp, .h and .hpp file below the given
# paths (default: include lib runtime tools unittests) and prints one line a
# file that it would change, then the count; exits 1 if there is one.
# `clang-format -i FILE` fixes a file. test/Lint/clang-format.test runs it
# in the suite, so CI checks formatting.
#
#===----------------------------------------------------------------------===#
import argparse
import os
import shutil
import subprocess
import sys

DEFAULT_PATHS = ["include", "lib", "runtime", "tools", "unittests"]
SUFFIXES = (".cpp", ".h", ".hpp")


def find_clang_format(given):
    for c in [given, "clang-format-22", "/usr/lib/llvm-22/bin/clang-format"]:
        if c and (os.path.isfile(c) or shutil.which(c)):
            return c
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang-format")
    ap.add_argument("--root", default=".")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    tool = find_clang_format(args.clang_format)
    if not tool:
        print("check-format: clang-format-22 not found (scripts/install-deps.sh "
              "installs it)")
        return 2
    files = []
    for p in args.paths or DEFAULT_PATHS:
        top = os.path.join(args.root, p)
        if os.path.isfile(top):
            files.append(top)
            continue
        for d, _, names in os.walk(top):
            files += [os.path.join(d, n) for n in names if n.endswith(SUFFIXES)]
    bad = []
    for f in sorted(files):
        r = subprocess.run([tool, "--dry-run", "-Werror", f],
                           capture_output=True, text=True)
        if r.returncode != 0:
            bad.append(os.path.relpath(f, args.root))
    for f in bad:
        print(f"{f}: not formatted (clang-format -i {f})")
    print(f"{len(bad)} of {len(files)} file(s) not formatted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
