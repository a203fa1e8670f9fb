#!/usr/bin/env python3
#===- no-internal-errors.py - no compiler internals reach a user ----------===#
#
# Compiles every .bsgp file under the given folders to an object, through the
# whole pipeline, once for the default target and once for every target, and
# reports each compile whose diagnostics show compiler internals (MLIR op
# names, verifier output, IR, mangled library names, assertions, crashes,
# or the driver's "internal compiler error" that stands in for them).
# Files that are meant to be rejected are compiled too: their diagnostics
# must be source-level as well.
#
# Usage: no-internal-errors.py BSGPC OUTDIR DIR...
#
#===----------------------------------------------------------------------===#
import concurrent.futures
import os
import re
import subprocess
import sys

# Text that only compiler internals produce.
INTERNAL = [
    re.compile(p) for p in [
        r"'[a-z_]+\.[a-z_.]+' op ",  # an MLIR verifier: 'bsgp.spawn' op ...
        r"'bsgp\.",
        r"see current operation",
        r"does not dominate",
        r"__bsgp_",
        r"\bllvm\.",
        r"Assertion",
        r"Stack dump",
        r"PLEASE submit",
        r"UNREACHABLE",
        r"LLVM ERROR",
        # The driver's last resort for the above: a source location, but
        # still a missing check in Sema.
        r"internal compiler error",
    ]
]
# Lines that a crash prints outside any diagnostic.
CRASH = re.compile(r"^(LLVM ERROR|PLEASE submit|Stack dump|.*Assertion `)")
# A diagnostic line: `file:line:col: error: ...` or `bsgpc: error: ...`.
MESSAGE = re.compile(r"^(\S+:\d+:\d+|bsgpc): (error|warning|note): ")
MANGLED = re.compile(r"__bsgp_\w+")
TARGETS = [[], ["--target=cpu,cuda,spirv"]]


def compile_one(bsgpc, outdir, index, path, flags):
    obj = os.path.join(outdir, "%d-%d.o" % (index, len(flags)))
    try:
        proc = subprocess.run([bsgpc, "-c", path, "-o", obj] + flags,
                              capture_output=True, text=True, errors="replace",
                              timeout=600)
    except subprocess.TimeoutExpired:
        return "%s %s: timed out" % (path, " ".join(flags))
    problems = []
    if proc.returncode not in (0, 1):
        problems.append("exit code %d" % proc.returncode)
    with open(path, encoding="utf-8", errors="replace") as f:
        source = f.read()
    for line in proc.stderr.splitlines():
        if CRASH.match(line):
            problems.append(line)
            continue
        # The source lines quoted under a diagnostic are the user's text.
        if not MESSAGE.match(line):
            continue
        # So is a name the program itself spells (a call of a library
        # builtin that Sema rejects, say).
        shown = MANGLED.sub(
            lambda m: "" if m.group(0) in source else m.group(0), line)
        if any(p.search(shown) for p in INTERNAL):
            problems.append(line)
    if os.path.exists(obj):
        os.remove(obj)
    if not problems:
        return None
    return "%s %s:\n  %s" % (path, " ".join(flags), "\n  ".join(problems))


def main():
    bsgpc, outdir, roots = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    files = sorted(
        os.path.join(d, f) for root in roots for d, _, fs in os.walk(root)
        for f in fs if f.endswith(".bsgp"))
    jobs = [(i, f, flags) for i, f in enumerate(files) for flags in TARGETS]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = pool.map(lambda j: compile_one(bsgpc, outdir, *j), jobs)
        failures = [r for r in results if r]
    for f in failures:
        print(f)
    print("checked %d files, %d compiles with internal errors" %
          (len(files), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
