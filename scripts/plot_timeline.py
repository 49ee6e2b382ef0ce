#!/usr/bin/env python3
"""A Gantt chart of a `yeex run --trace FILE.json` (or `yeex bench --trace`): one lane per GPU x
stream or host thread, every phase a bar, idle time a gap.

    scripts/plot_timeline.py TRACE.json -o timeline.png [--compare OTHER.json] [--title TEXT]

Lanes: each slab's border stream, bulk stream and host thread, grouped by GPU ("host" for the
host engine), in the trace's order. Colours are fixed per phase kind (the first word of a phase's
name: H, E, transfer, await, barrier, sync, issue, sources, probes, kernel, pushing), so that two
backends' pictures read alike; border sweeps are hatched. The time axis is in microseconds from
the window's first phase; dotted lines mark where each step's first phase begins. --compare
stacks a second trace under the first on the same time scale (e.g. p2p against overlap at the
same size). Headless (matplotlib's Agg); needs matplotlib (scripts/setup.sh installs Debian's
python3-matplotlib).
"""
import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

# One colour per phase kind, the same in every picture.
KIND_COLOURS = {
    "H": "#1f77b4",
    "E": "#ff7f0e",
    "pushing": "#e377c2",
    "transfer": "#2ca02c",
    "await": "#d62728",
    "barrier": "#7f7f7f",
    "sync": "#bcbd22",
    "issue": "#c7c7c7",
    "sources": "#9467bd",
    "probes": "#8c564b",
    "kernel": "#17becf",
}
KIND_MEANING = {
    "H": "H sweep",
    "E": "E sweep",
    "pushing": "pushing sweeps (H and E)",
    "transfer": "halo transfers issued",
    "await": "wait on a neighbour",
    "barrier": "host barrier",
    "sync": "host waits for its GPU",
    "issue": "host issues a step",
    "sources": "sources",
    "probes": "probes",
    "kernel": "persistent kernel (coop)",
}


def load(path):
    """(lanes, bars, meta): lanes in display order as (label, key); bars as dicts."""
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    processes, process_order, threads, thread_order = {}, {}, {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        if e["name"] == "process_name":
            processes[e["pid"]] = e["args"]["name"]
        elif e["name"] == "process_sort_index":
            process_order[e["pid"]] = e["args"]["sort_index"]
        elif e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["name"] == "thread_sort_index":
            thread_order[(e["pid"], e["tid"])] = e["args"]["sort_index"]
    keys = sorted(threads, key=lambda k: (process_order.get(k[0], k[0]), thread_order.get(k, k[1])))
    lanes = [(f"{processes.get(k[0], k[0])}  {threads[k]}", k) for k in keys]
    bars = [e for e in events if e.get("ph") == "X"]
    return lanes, bars, trace.get("otherData", {})


def kind_of(bar):
    return bar.get("cat") or bar["name"].split(" ")[0]


def describe(meta, path):
    grid = meta.get("grid")
    parts = [meta.get("backend", ""), f"{meta.get('subdomains', '?')} slabs"]
    if grid:
        parts.append("x".join(str(n) for n in grid))
    parts.append(meta.get("engine", ""))
    steps = meta.get("steps", {})
    if steps:
        parts.append(f"steps {steps['first']}-{steps['first'] + steps['count'] - 1}")
    text = ", ".join(p for p in parts if p)
    return text or pathlib.Path(path).name


def draw(ax, lanes, bars, title, span):
    row = {key: i for i, (_, key) in enumerate(lanes)}
    for bar in bars:
        y = row.get((bar["pid"], bar["tid"]))
        if y is None:
            continue
        kind = kind_of(bar)
        ax.broken_barh(
            [(bar["ts"], max(bar["dur"], span * 1e-4))],
            (y - 0.38, 0.76),
            facecolors=KIND_COLOURS.get(kind, "#000000"),
            edgecolor="white",
            linewidth=0.3,
            hatch="//" if "border" in bar["name"] else None,
        )
    # Where each step's first phase begins.
    starts = {}
    for bar in bars:
        step = bar.get("args", {}).get("step")
        if step is not None:
            starts[step] = min(starts.get(step, float("inf")), bar["ts"])
    for step, t in sorted(starts.items()):
        ax.axvline(t, color="black", linestyle=":", linewidth=0.6)
        ax.text(t, -0.9, f"n={step}", fontsize=7, va="bottom", ha="left")
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels([label for label, _ in lanes], fontsize=8)
    ax.set_ylim(len(lanes) - 0.5, -1.0)
    ax.set_xlim(0, span)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", linewidth=0.3, alpha=0.5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", help="a trace written by yeex run --trace or yeex bench --trace")
    parser.add_argument("-o", "--out", required=True, help="the picture (PNG, SVG or PDF by its extension)")
    parser.add_argument("--compare", help="a second trace, drawn under the first on the same time scale")
    parser.add_argument("--title", help="the picture's title (default: none)")
    args = parser.parse_args()

    traces = [load(args.trace)] + ([load(args.compare)] if args.compare else [])
    paths = [args.trace] + ([args.compare] if args.compare else [])
    for (lanes, bars, _), path in zip(traces, paths):
        if not bars:
            sys.exit(f"plot_timeline: {path} holds no phases")
    span = max(max(b["ts"] + b["dur"] for b in bars) for _, bars, _ in traces)
    heights = [max(len(lanes), 1) * 0.32 + 0.9 for lanes, _, _ in traces]
    fig, axes = plt.subplots(
        len(traces), 1, figsize=(12, sum(heights) + 1.2), gridspec_kw={"height_ratios": heights}, squeeze=False
    )
    kinds = set()
    for ax, (lanes, bars, meta), path in zip(axes[:, 0], traces, paths):
        draw(ax, lanes, bars, describe(meta, path), span)
        kinds |= {kind_of(b) for b in bars}
    axes[-1, 0].set_xlabel("time from the window's first phase (µs)")
    legend = [Patch(facecolor=KIND_COLOURS[k], label=KIND_MEANING[k]) for k in KIND_COLOURS if k in kinds]
    legend.append(Patch(facecolor="white", edgecolor="black", hatch="//", label="border planes"))
    fig.legend(handles=legend, loc="lower center", ncol=min(len(legend), 6), fontsize=8, frameon=False)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout(rect=(0, 0.06, 1, 0.97 if args.title else 1))
    fig.savefig(args.out, dpi=130)
    print(f"plot_timeline: {args.out}")


if __name__ == "__main__":
    main()
