"""Reads a BSGP_TRACE file with Python's JSON library and prints what a
trace viewer would show, one fact a line, for FileCheck: the tracks, the
device slices in order, the host steps seen and the memory counter."""
import json
import sys

with open(sys.argv[1]) as f:
    trace = json.load(f)
events = trace["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
print("tracks:", " ".join(names[t] for t in sorted(names)))
bad = [e for e in events if e["ph"] == "X" and
       (e["dur"] < 0 or e["ts"] < 0 or e["tid"] not in names)]
print("malformed slices:", len(bad))
device = sorted((e for e in events if e["ph"] == "X" and
                 names[e["tid"]] == "device"), key=lambda e: e["ts"])
for e in device:
    print("device:", e["name"], "threads", e["args"]["threads"])
host = {e["name"] for e in events if e["ph"] == "X" and
        names[e["tid"]] == "host"}
print("host steps:", " ".join(sorted(host)))
# Slices on one track never overlap: the host waits for each kernel.
for track in names:
    slices = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                    if e["ph"] == "X" and e["tid"] == track)
    overlaps = sum(1 for a, b in zip(slices, slices[1:]) if b[0] < a[1] - 1e-3)
    print("overlaps on", names[track] + ":", overlaps)
memory = [e for e in events if e["ph"] == "C" and e["name"] == "memory"]
print("memory samples:", "yes" if memory else "no")
print("memory at the end: live", memory[-1]["args"]["live bytes"])
print("peak live bytes:", max(e["args"]["live bytes"] for e in memory))
