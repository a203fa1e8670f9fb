#!/usr/bin/env python3
"""The C oracle of bsgp-smith's const-exprs feature.

For each seed: bsgp-smith writes a program; the region it marks
`bsgp-smith const-exprs: begin` ... `end` (global constants, template
functions of one value parameter, and sm_consts, which prints `ceN value`
lines) becomes a C program by a few textual rules, which a C compiler
builds (with UBSan where it can, so that undefined behaviour in a
generated expression is caught too) and runs; bsgpc's build of the program
and bsgpi must print the same `ceN` lines. C is the independent evaluator
of the same expressions. The rules:

  const T NAME = E;                  ->  #define NAME ((T)(E))
  template <T V> uint64 f() {        ->  static uint64 f(T V) {
  f<ARG>()                           ->  f(ARG)
  T *d = dnew[N]T;                   ->  T d[N];
  spawn (1) {                        ->  {
  bsgprt_memcpy_dtoh(                ->  memcpy(

A template's instantiation for V = ARG computes what the C function does
for the argument converted to V's type, since a template argument must be
a value of that type. Prints one line per failing seed and a summary
`const-exprs: N passed, M failed`; exits 1 when a seed failed.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

PRELUDE = r"""#include <stdbool.h>
#include <stdio.h>
#include <string.h>
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef long long int64;
typedef unsigned long long uint64;
static uint64 sm_mix(uint64 h, uint64 v) { return (h ^ v) * 1099511628211ull; }
"""

BEGIN = "// bsgp-smith const-exprs: begin"
END = "// bsgp-smith const-exprs: end"


def template_calls(line):
    """f<ARG>() -> f(ARG) for the template functions sm_cetN."""
    out = ""
    pos = 0
    for m in re.finditer(r"sm_cet\d+<", line):
        if m.start() < pos:
            continue
        depth = 0
        i = m.end()
        while i < len(line):
            c = line[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == ">" and depth == 0:
                break
            i += 1
        if not line.startswith(">()", i):
            raise ValueError("unexpected template call: " + line)
        out += line[pos:m.end() - 1] + "(" + line[m.end():i] + ")"
        pos = i + 3
    return out + line[pos:]


def to_c(program):
    """The C program of a generated program's const-exprs region."""
    lines = program.splitlines()
    try:
        body = lines[lines.index(BEGIN) + 1:lines.index(END)]
    except ValueError:
        raise ValueError("no const-exprs region")
    out = [PRELUDE]
    for line in body:
        m = re.match(r"^const (\w+) (\w+) = (.*);$", line)
        if m:
            out.append("#define %s ((%s)(%s))" % (m.group(2), m.group(1),
                                                 m.group(3)))
            continue
        m = re.match(r"^template <(\w+) V> uint64 (\w+)\(\) \{$", line)
        if m:
            out.append("static uint64 %s(%s V) {" % (m.group(2), m.group(1)))
            continue
        m = re.match(r"^(\s*)(\w+) \*(\w+) = dnew\[(\d+)\](\w+);$", line)
        if m:
            out.append("%s%s %s[%s];" % (m.group(1), m.group(2), m.group(3),
                                         m.group(4)))
            continue
        line = re.sub(r"^(\s*)spawn \(1\) \{$", r"\1{", line)
        line = re.sub(r"^uint64 sm_consts\(", "static uint64 sm_consts(", line)
        line = line.replace("bsgprt_memcpy_dtoh(", "memcpy(")
        out.append(template_calls(line))
    out.append("int main(void) {")
    out.append("  sm_consts(1469598103934665603ull);")
    out.append("  return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def ce_lines(text):
    return [l for l in text.splitlines() if re.match(r"^ce\d+ ", l)]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          **kw)


def check(seed, args, cc_flags):
    """None if the seed passes, else what went wrong."""
    d = os.path.join(args.out, "seed-%d" % seed)
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, "prog.bsgp")
    r = run([args.smith, "--seed", str(seed), "--size", str(args.size),
             "-o", prog] + args.smith_args.split())
    if r.returncode:
        return "generator: " + r.stderr.strip()
    with open(prog) as f:
        c_src = to_c(f.read())
    c_file = os.path.join(d, "oracle.c")
    with open(c_file, "w") as f:
        f.write(c_src)
    exe = os.path.join(d, "oracle")
    r = run(args.cc + ["-x", "c", "-std=c11", "-w", c_file, "-o", exe] +
            cc_flags)
    if r.returncode:
        return "the C oracle does not compile: " + r.stderr.strip()[:2000]
    r = run([exe])
    if r.returncode:
        return "the C oracle failed (undefined behaviour?): " + r.stderr[:2000]
    expected = ce_lines(r.stdout)
    if not expected:
        return "the C oracle printed no ce lines"
    outputs = []
    r = run([args.bsgpc, prog, "-o", os.path.join(d, "prog")])
    if r.returncode:
        return "bsgpc: " + r.stderr.strip()[:2000]
    r = run([os.path.join(d, "prog")],
            env=dict(os.environ, BSGP_DEVICE=args.device))
    if r.returncode:
        return "the program failed: " + r.stderr[:2000]
    outputs.append(("bsgpc", r.stdout))
    if args.bsgpi:
        r = run([args.bsgpi, prog])
        if r.returncode:
            return "bsgpi: " + r.stderr[:2000]
        outputs.append(("bsgpi", r.stdout))
    for name, text in outputs:
        got = ce_lines(text)
        if got != expected:
            for e, g in zip(expected + [""] * len(got), got + [""] * len(expected)):
                if e != g:
                    return "%s prints '%s' where C prints '%s'" % (name, g, e)
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--smith", required=True)
    p.add_argument("--bsgpc", required=True)
    p.add_argument("--bsgpi")
    p.add_argument("--cc", required=True, help="the C compiler (clang)")
    p.add_argument("--seeds", default="1-20")
    p.add_argument("--size", type=int, default=3)
    p.add_argument("--smith-args", default="")
    p.add_argument("--device", default="cpu",
                   help="BSGP_DEVICE of the compiled program's run")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    args.cc = args.cc.split()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    os.makedirs(args.out, exist_ok=True)
    # UBSan where the C compiler has it.
    probe = os.path.join(args.out, "probe.c")
    with open(probe, "w") as f:
        f.write("int main(void) { return 0; }\n")
    ub = ["-fsanitize=undefined", "-fno-sanitize-recover=all"]
    if run(args.cc + ["-x", "c", probe, "-o", probe + ".exe"] + ub).returncode:
        ub = []
    seeds = range(lo, hi + 1)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for seed, why in zip(seeds, pool.map(lambda s: check(s, args, ub),
                                             seeds)):
            if why:
                failed += 1
                print("seed %d: %s" % (seed, why))
    print("const-exprs: %d passed, %d failed" % (len(seeds) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
