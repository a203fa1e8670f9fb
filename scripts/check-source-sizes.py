#!/usr/bin/env python3
#===- check-source-sizes.py - files and functions that grew too long ------===#
#
# Part of bsgpc, the BSGP compiler.
#
#===----------------------------------------------------------------------===#
#
# Reports every hand-written .cpp, .h and .td file over --max-file-lines
# (1,000) lines and every C++ function body over --max-function-lines (150)
# lines, and exits 1 if it reported any. Directories are walked recursively;
# build trees (a folder whose name starts with "build") and hidden folders are
# skipped, so that generated .inc files are never counted.
#
# A function body is found with a brace-depth scan, not a parser: comments,
# string, character and raw string literals and preprocessor lines are blanked
# first, so that braces inside them do not count. A `{` at namespace or class
# scope whose declarator has a `(` (and no `=` outside it) opens a function;
# its length is the number of lines from that `{` to its `}`, both included.
# Lambdas and nested blocks count towards the function around them.
#
# --allowlist FILE names exceptions, one a line, `#` starting a comment:
#   lib/Foo/Big.cpp              the file may be over the line limit
#   lib/Foo/Big.cpp:Foo::bar     that function may be over the body limit
# Paths are relative to --root (default: the current directory). An entry
# that is no longer needed is reported as a note, without failing.
#
# Usage: check-source-sizes.py [--root DIR] [--allowlist FILE]
#            [--max-file-lines N] [--max-function-lines N] PATH...
#
#===----------------------------------------------------------------------===#
import argparse
import os
import re
import sys

EXTENSIONS = (".cpp", ".h", ".td")
CXX_EXTENSIONS = (".cpp", ".h")


def blank(text):
    """Returns text with comments, literals and preprocessor lines replaced
    by spaces; newlines are kept, so offsets and line numbers still match."""
    out = list(text)
    n = len(text)
    i = 0
    line_start = True  # only whitespace since the last newline

    def wipe(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":
            # A directive, with its backslash continuations.
            j = i
            while j < n:
                if text[j] == "\n" and text[j - 1] != "\\":
                    break
                j += 1
            # A comment on the directive's line is wiped with it; a block
            # comment that runs past it is left for the main loop.
            wipe(i, j)
            i = j
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c == "R" and text.startswith('"', i + 1) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
                or text[i - 1] in "uU8L"):
            # A raw string: R"delim( ... )delim".
            open_paren = text.find("(", i + 2)
            if open_paren < 0:
                i += 1
                continue
            delim = text[i + 2:open_paren]
            close = text.find(")" + delim + '"', open_paren + 1)
            j = n if close < 0 else close + len(delim) + 2
            wipe(i, j)
            i = j
        elif c in "\"'":
            if c == "'":
                # A digit separator (1'000'000) follows a number's digits; a
                # prefix (u8'a', L'a') follows letters.
                k = i
                while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_'"):
                    k -= 1
                if k < i and text[k].isdigit():
                    i += 1
                    continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i, j + 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


CONTAINER = re.compile(r"\b(namespace|class|struct|union|extern)\b")
NOT_FUNCTION = re.compile(r"^(if|for|while|switch|catch|do|else|return)\b")


def has_top_level_assign(header):
    """An `=` outside parentheses and not part of ==, <=, >=, != or an
    operator name: the brace is an initializer, not a body."""
    depth = 0
    for k, ch in enumerate(header):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "=" and depth == 0:
            prev = header[k - 1] if k else ""
            nxt = header[k + 1] if k + 1 < len(header) else ""
            if prev in "=<>!" or nxt == "=":
                continue
            if re.search(r"\boperator\s*\S{0,2}$", header[:k]):
                continue
            return True
    return False


def function_name(header):
    """The declarator's name: the qualified identifier before its first
    top-level `(`."""
    depth = 0
    for k, ch in enumerate(header):
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif ch == "(" and depth == 0:
            m = re.search(r"((?:[~\w]+\s*::\s*)*(?:operator\s*[^\s(]+|~?\w+))"
                          r"\s*$", header[:k])
            if m:
                return re.sub(r"\s+", "", m.group(1))
            break
    return "<unnamed>"


def find_functions(code):
    """Yields (name, first line, line count) of each function body in code,
    which blank() has already cleaned."""
    # Each open brace: (kind, name, line); kind is "container" (namespace,
    # class, extern "C", the file itself), "function" or "other"; the name of
    # a container is the class prefix of its functions ("Outer::Inner::").
    stack = [("container", "", 1)]
    header_start = 0
    line = 1
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
        elif ch == "{":
            kind = "other"
            if stack[-1][0] == "container":
                header = " ".join(code[header_start:i].split())
                # Drop leading template parameter lists and attributes.
                header = re.sub(r"^(template\s*<[^{};]*?>\s*)+", "", header)
                if "(" in header and not has_top_level_assign(header) and \
                        not NOT_FUNCTION.match(header) and \
                        not re.match(r"^(namespace|extern)\b", header):
                    kind = "function"
                    name = function_name(header)
                elif CONTAINER.search(header) and \
                        not has_top_level_assign(header):
                    kind = "container"
                    # A class's name qualifies the functions defined in it.
                    m = re.search(r"\b(?:class|struct|union)\s+(?:\w+\s+)*?"
                                  r"(\w+)\s*(?:final\s*)?(?::[^:]|$)",
                                  header)
                    scope = m.group(1) + "::" if m else ""
                    stack.append((kind, stack[-1][1] + scope, line))
                    header_start = i + 1
                    continue
            if kind == "function":
                name = stack[-1][1] + name
            stack.append((kind, name if kind == "function" else "", line))
            header_start = i + 1
        elif ch == "}":
            if len(stack) > 1:
                kind, what, start = stack.pop()
                if kind == "function":
                    yield what, start, line - start + 1
            header_start = i + 1
        elif ch == ";":
            header_start = i + 1
        elif ch == ":" and stack[-1][0] == "container":
            # An access specifier (`public:`) ends a header too; `::` and a
            # base clause or initializer list do not.
            before = code[header_start:i].strip()
            if before in ("public", "private", "protected") and \
                    not code.startswith("::", i):
                header_start = i + 1


def collect(paths, root):
    for path in paths:
        full = path if os.path.isabs(path) else os.path.join(root, path)
        if os.path.isfile(full):
            yield full
            continue
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames[:] = sorted(d for d in dirnames
                                 if not d.startswith((".", "build")))
            for f in sorted(filenames):
                if f.endswith(EXTENSIONS):
                    yield os.path.join(dirpath, f)


def read_allowlist(path):
    entries = {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            entry = raw.split("#", 1)[0].strip()
            if entry:
                entries[entry] = number
    return entries


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--root", default=".")
    p.add_argument("--allowlist")
    p.add_argument("--max-file-lines", type=int, default=1000)
    p.add_argument("--max-function-lines", type=int, default=150)
    p.add_argument("paths", nargs="+")
    args = p.parse_args()

    allowed = read_allowlist(args.allowlist) if args.allowlist else {}
    used = set()
    failures = 0
    for full in collect(args.paths, args.root):
        rel = os.path.relpath(full, args.root)
        with open(full, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n") + (0 if text.endswith("\n") or not text
                                    else 1)
        if lines > args.max_file_lines:
            if rel in allowed:
                used.add(rel)
            else:
                print(f"{rel}: file has {lines} lines "
                      f"(limit {args.max_file_lines})")
                failures += 1
        if not full.endswith(CXX_EXTENSIONS):
            continue
        for name, start, count in find_functions(blank(text)):
            if count <= args.max_function_lines:
                continue
            key = f"{rel}:{name}"
            if key in allowed:
                used.add(key)
                continue
            print(f"{rel}:{start}: function '{name}' has {count} lines "
                  f"(limit {args.max_function_lines})")
            failures += 1
    for entry in sorted(set(allowed) - used):
        print(f"note: allowlist entry '{entry}' (line {allowed[entry]}) "
              f"is no longer needed")
    if failures:
        print(f"{failures} file(s) or function(s) over the limits")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
