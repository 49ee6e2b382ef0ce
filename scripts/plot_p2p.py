#!/usr/bin/env python3
"""Plot a yeex-p2p JSON file: one heat map per matrix (PNG named after the matrix title) and
bandwidth against message size for the sweep curves.

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


def heat_map(matrix, out):
    values = [[math.nan if v is None else v for v in row] for row in matrix["values"]]
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(matrix["columns"]), 1.0 + 0.8 * len(matrix["rows"])))
    image = ax.imshow(values, cmap="viridis")
    ax.set_xticks(range(len(matrix["columns"])), matrix["columns"])
    ax.set_yticks(range(len(matrix["rows"])), matrix["rows"])
    ax.set_xlabel(matrix["column_label"])
    ax.set_ylabel(matrix["row_label"])
    for r, row in enumerate(values):
        for c, v in enumerate(row):
            ax.text(c, r, "-" if math.isnan(v) else f"{v:.1f}", ha="center", va="center", color="w", fontsize=8)
    fig.colorbar(image, ax=ax, label=matrix["unit"] or "value")
    ax.set_title(matrix["title"], fontsize=9)
    fig.tight_layout()
    fig.savefig(out / file_name(matrix["title"]), dpi=120)
    plt.close(fig)


def curves(all_curves, out):
    if not all_curves:
        return
    fig, (bw, lat) = plt.subplots(1, 2, figsize=(11, 4))
    for curve in all_curves:
        sizes = [p["bytes"] for p in curve["points"]]
        bw.plot(sizes, [p["gbps"] for p in curve["points"]], marker="o", ms=3, label=curve["title"])
        lat.plot(sizes, [p["us"] for p in curve["points"]], marker="o", ms=3, label=curve["title"])
    for ax, label in ((bw, "GB/s (1e9 bytes/s)"), (lat, "us per transfer")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    lat.set_yscale("log")
    fig.tight_layout()
    fig.savefig(out / "sweep.png", dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("."))
    args = parser.parse_args()
    document = json.loads(args.json.read_text())
    args.out.mkdir(parents=True, exist_ok=True)
    matrices = list(document.get("topology", {}).get("links", []))
    all_curves = []
    for result in document.get("results", []):
        matrices += result["matrices"]
        all_curves += result["curves"]
    for matrix in matrices:
        heat_map(matrix, args.out)
    curves(all_curves, args.out)
    print(f"wrote {len(matrices)} heat maps{' and sweep.png' if all_curves else ''} to {args.out}")


if __name__ == "__main__":
    main()
