#!/usr/bin/env python3
#===- trace-svg.py - draw a BSGP_TRACE file as an SVG timeline ------------===#
#
# Usage: scripts/trace-svg.py trace.json out.svg
#
# Draws what chrome://tracing or Perfetto show of a trace the runtime wrote
# (docs/runtime.md, "Traces"): the host and device tracks with one box per
# slice, labelled where it is wide enough, and the memory counter as a step
# line, so that a picture of a trace can live in the documentation.
#
#===----------------------------------------------------------------------===#
import html
import json
import sys

WIDTH, LEFT, TRACK, GAP = 1200, 70, 34, 8


def main():
    with open(sys.argv[1]) as f:
        events = json.load(f)["traceEvents"]
    tracks = {e["tid"]: e["args"]["name"] for e in events
              if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = [e for e in events if e["ph"] == "X"]
    memory = [e for e in events if e["ph"] == "C"]
    end = max([e["ts"] + e["dur"] for e in slices] +
              [e["ts"] for e in memory] + [1.0])
    scale = (WIDTH - LEFT - 10) / end
    order = sorted(tracks)
    height = 30 + len(order) * (TRACK + GAP) + 70 + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{LEFT}" y="16" font-size="13">BSGP_TRACE of '
           f'{html.escape(sys.argv[3] if len(sys.argv) > 3 else "a program")}'
           f' ({end / 1000:.2f} ms)</text>']
    colours = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
               "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]
    names = {}
    for row, tid in enumerate(order):
        y = 30 + row * (TRACK + GAP)
        out.append(f'<text x="4" y="{y + TRACK / 2 + 4}">'
                   f'{html.escape(tracks[tid])}</text>')
        out.append(f'<rect x="{LEFT}" y="{y}" width="{WIDTH - LEFT - 10}" '
                   f'height="{TRACK}" fill="#f4f4f4"/>')
        for e in (s for s in slices if s["tid"] == tid):
            key = e["name"].split(" ")[-1]
            colour = names.setdefault(key, colours[len(names) % len(colours)])
            x, w = LEFT + e["ts"] * scale, max(e["dur"] * scale, 1.0)
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" '
                       f'height="{TRACK}" fill="{colour}" stroke="white" '
                       f'stroke-width="0.5"><title>'
                       f'{html.escape(e["name"])}: {e["dur"]:.1f} us'
                       f'</title></rect>')
            if w > 7 * len(e["name"]) * 0.62:
                out.append(f'<text x="{x + 3:.1f}" y="{y + TRACK / 2 + 4}" '
                           f'fill="white">{html.escape(e["name"])}</text>')
    # The memory counter: bytes in live lists, as a step line.
    y0 = 30 + len(order) * (TRACK + GAP) + 60
    out.append(f'<text x="4" y="{y0 - 25}">memory</text>')
    peak = max([e["args"]["live bytes"] for e in memory] + [1])
    points, last = [f"{LEFT},{y0}"], y0
    for e in memory:
        x = LEFT + e["ts"] * scale
        y = y0 - 55 * e["args"]["live bytes"] / peak
        points += [f"{x:.1f},{last:.1f}", f"{x:.1f},{y:.1f}"]
        last = y
    points.append(f"{WIDTH - 10},{last:.1f}")
    out.append(f'<polyline points="{" ".join(points)}" fill="none" '
               f'stroke="#4e79a7" stroke-width="1.5"/>')
    out.append(f'<text x="{WIDTH - 10}" y="{y0 - 45}" text-anchor="end">'
               f'live lists, peak {peak / 1024:.0f} KiB</text>')
    out.append(f'<text x="{LEFT}" y="{height - 8}" fill="#555">'
               f'0 ms</text><text x="{WIDTH - 10}" y="{height - 8}" '
               f'text-anchor="end" fill="#555">{end / 1000:.2f} ms</text>')
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
