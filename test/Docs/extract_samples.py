#===- extract_samples.py - the BSGP code samples of docs/*.md --------------===#
#
# Writes every ```bsgp sample of the given Markdown files to its own .bsgp
# file in an output folder, so that a lit test can compile each one.
#
# Every fence must say what it holds (```bsgp, ```text, ```sh, ```c, ...):
# a bare ``` is an error, so a new BSGP sample cannot slip past the test. A
# sample that is not a whole file (statements of a spawn, say) is preceded
# by an HTML comment, invisible in the rendered page, giving the code around
# it, with @@ where the sample goes:
#
#   <!-- bsgp: void f(int n) { spawn (n) { @@ } } -->
#   ```bsgp
#   require
#       owner = dtempnew[n]int;
#   ```
#
# Usage: extract_samples.py --bsgpc BSGPC OUTDIR FILE.md...: compiles each
# sample with `BSGPC -fsyntax-only -Werror`, printing `ok NAME` or `FAILED
# NAME` and the compiler's output, and exits 1 if any failed, or on a bare or
# unterminated fence.
#
#===----------------------------------------------------------------------===#
import os
import re
import subprocess
import sys

WRAPPER = re.compile(r"^\s*<!--\s*bsgp:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(.*)$")


def samples(path):
    """Yields (line, code) for each ```bsgp fence of `path`."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    wrapper = None
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            w = WRAPPER.match(lines[i])
            if w:
                wrapper = w.group(1)
            elif lines[i].strip():
                wrapper = None
            i += 1
            continue
        indent, info = m.group(1), m.group(2).strip()
        if not info:
            raise SystemExit("%s:%d: a fence without a language; say "
                             "```bsgp, ```text, ```sh, ..." % (path, i + 1))
        start = i + 1
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            i += 1
        if i == len(lines):
            raise SystemExit("%s:%d: unterminated fence" % (path, start))
        body = [l[len(indent):] if l.startswith(indent) else l
                for l in lines[start:i]]
        i += 1
        if info.split()[0] == "bsgp":
            code = "\n".join(body) + "\n"
            if wrapper:
                if "@@" not in wrapper:
                    raise SystemExit("%s:%d: the bsgp comment before the "
                                     "sample has no @@" % (path, start - 1))
                code = wrapper.replace("@@", "\n" + code)
            yield start, code
        wrapper = None


def main():
    if len(sys.argv) < 4 or sys.argv[1] != "--bsgpc":
        raise SystemExit("usage: extract_samples.py --bsgpc BSGPC OUTDIR "
                         "FILE.md...")
    bsgpc, out = sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    failed = False
    for path in sys.argv[4:]:
        base = os.path.splitext(os.path.basename(path))[0]
        for line, code in samples(path):
            name = "%s-%d.bsgp" % (base, line)
            file = os.path.join(out, name)
            with open(file, "w", encoding="utf-8") as f:
                f.write(code)
            r = subprocess.run([bsgpc, "-fsyntax-only", "-Werror", file],
                               capture_output=True, text=True)
            if r.returncode == 0 and not r.stderr:
                print("ok " + name)
            else:
                failed = True
                print("FAILED %s (%s:%d)\n%s" % (name, path, line, r.stderr))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
