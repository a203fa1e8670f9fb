# Sorts each run of consecutive lines that start with "t " or "u " (the
# lines of different threads of one superstep, which come in any order)
# and prints every line; the other lines stay where they are.
import sys

run = []
for line in sys.stdin.read().splitlines() + [None]:
    if line is not None and line.startswith(("t ", "u ")):
        run.append(line)
        continue
    for thread_line in sorted(run):
        print(thread_line)
    run = []
    if line is not None:
        print(line)
