#!/usr/bin/env python3
"""Plot a yeex-p2p JSON file (PNG, matplotlib):

  - one heat map per matrix, named after its title: bandwidth (ce-unidir, ce-bidir, sm-copy,
    host-staged, nccl-pairs/bandwidth), latency (latency, pingpong, nccl-pairs/latency) and the
    topology's pair attributes (peer access, performance rank, native atomics); colour from zero
    to the largest value;
  - topo_link-types.png: the nvidia-smi-style link-type table (NV#, PIX, ..., SYS);
  - sweep.png: copy-engine bandwidth (from zero) and time per copy against message size, one line
    per pair;
  - nccl-ring.png: the NCCL ring's algbw, busbw and time against message size.

    yeex-p2p --json p2p.json && scripts/plot_p2p.py p2p.json --out plots/
"""
import argparse
import json
import math
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def file_name(title):
    return title.replace("/", "_").replace("->", "-to-").replace(" ", "_") + ".png"


def cell_text(value, largest):
    if math.isnan(value):
        return "-"
    return f"{value:.2f}" if largest < 10 else f"{value:.1f}" if largest < 1000 else f"{value:.0f}"


def heat_map(matrix, out):
    values = [[math.nan if v is None else v for v in row] for row in matrix["values"]]
    finite = [v for row in values for v in row if not math.isnan(v)]
    largest = max(finite, default=0.0)
    fig, ax = plt.subplots(figsize=(1.6 + 0.9 * len(matrix["columns"]), 1.2 + 0.8 * len(matrix["rows"])))
    # Colour from zero, so that cells compare by their proportion (two links at 45 and 50 GB/s
    # look alike, as they are); missing pairs (NaN) are left white.
    top = largest if largest > 0 else 1.0
    image = ax.imshow(values, cmap="viridis", vmin=0.0, vmax=top)
    ax.set_xticks(range(len(matrix["columns"])), matrix["columns"])
    ax.set_yticks(range(len(matrix["rows"])), matrix["rows"])
    ax.set_xlabel(matrix["column_label"])
    ax.set_ylabel(matrix["row_label"])
    for r, row in enumerate(values):
        for c, v in enumerate(row):
            light = not math.isnan(v) and v > 0.6 * top  # viridis is light there: dark text
            ax.text(c, r, cell_text(v, largest), ha="center", va="center", color="k" if light else "w", fontsize=8)
    fig.colorbar(image, ax=ax, label=matrix["unit"] or "value")
    ax.set_title(matrix["title"], fontsize=9)
    fig.tight_layout()
    fig.savefig(out / file_name(matrix["title"]), dpi=120)
    plt.close(fig)


def link_types(topology, out):
    """The link-type table as a coloured grid: NVLink green, PCIe within a node blue, SYS red."""
    types = topology.get("link_types") or []
    gpus = [str(g["device"]) for g in topology.get("gpus", [])]
    if not types:
        return False
    colour = {"X": "#dddddd", "PIX": "#6baed6", "PXB": "#4292c6", "PHB": "#2171b5", "NODE": "#08519c", "SYS": "#cb181d"}
    fig, ax = plt.subplots(figsize=(1.6 + 0.9 * len(gpus), 1.2 + 0.7 * len(gpus)))
    for r, row in enumerate(types):
        for c, link in enumerate(row):
            face = "#31a354" if link.startswith("NV") else colour.get(link, "#ffffff")
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=face, edgecolor="k"))
            ax.text(c, r, link, ha="center", va="center", fontsize=9, color="k" if link in ("X", "?") else "w")
    ax.set_xlim(-0.5, len(gpus) - 0.5)
    ax.set_ylim(len(gpus) - 0.5, -0.5)
    ax.set_xticks(range(len(gpus)), [f"GPU{g}" for g in gpus])
    ax.set_yticks(range(len(gpus)), [f"GPU{g}" for g in gpus])
    ax.set_title(f"topo/link-types ({topology.get('link_source', '')})"[:80], fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "topo_link-types.png", dpi=120)
    plt.close(fig)
    return True


def size_axes(axes):
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)


def size_figure(curves, path, title, latency_label, busbw=False):
    """Bandwidth (left) and latency (right) against message size, a line per curve; with busbw,
    each curve's algbw and busbw (nccl-tests conventions) on the left."""
    fig, (bw, lat) = plt.subplots(1, 2, figsize=(11, 4))
    for curve in curves:
        sizes = [p["bytes"] for p in curve["points"]]
        label = curve["title"] + (" algbw" if busbw else "")
        bw.plot(sizes, [p["gbps"] for p in curve["points"]], marker="o", ms=3, label=label)
        if busbw:
            bw.plot(sizes, [p.get("busbw_gbps") for p in curve["points"]], ls="--", label=curve["title"] + " busbw")
        lat.plot(sizes, [p["us"] for p in curve["points"]], marker="o", ms=3, label=curve["title"])
    bw.set_ylabel("GB/s (1e9 bytes/s)")
    bw.set_ylim(bottom=0)
    lat.set_ylabel(latency_label)
    lat.set_yscale("log")
    size_axes((bw, lat))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def sweep(curves, out):
    size_figure(curves, out / "sweep.png", "cudaMemcpyPeerAsync against message size", "us per copy")


def nccl(curves, out):
    size_figure(curves, out / "nccl-ring.png", "NCCL send/recv ring (nccl-tests conventions: busbw = algbw)",
                "us per round", busbw=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("."))
    args = parser.parse_args()
    document = json.loads(args.json.read_text())
    args.out.mkdir(parents=True, exist_ok=True)
    topology = document.get("topology", {})
    matrices = list(topology.get("links", []))
    copy_curves, nccl_curves = [], []
    for result in document.get("results", []):
        matrices += result["matrices"]
        for curve in result["curves"]:
            (nccl_curves if any("busbw_gbps" in p for p in curve["points"]) else copy_curves).append(curve)
    for matrix in matrices:
        heat_map(matrix, args.out)
    written = [f"{len(matrices)} heat maps"]
    if link_types(topology, args.out):
        written.append("topo_link-types.png")
    if copy_curves:
        sweep(copy_curves, args.out)
        written.append("sweep.png")
    if nccl_curves:
        nccl(nccl_curves, args.out)
        written.append("nccl-ring.png")
    print(f"wrote {', '.join(written)} to {args.out}")


if __name__ == "__main__":
    main()
