#!/usr/bin/env python3
"""Efficiency and throughput against device count, one line per exchange backend, from the JSON
that `yeex bench --json FILE` writes.

    scripts/plot_bench.py results/.../bench.json [--out DIR]

Writes DIR/efficiency_<scaling>_<size>.png for every scaling and size in the file (DIR defaults
to the JSON's folder); a bench of a deck on its own grid (size 0) is named by that grid,
efficiency_<scaling>_<nx>x<ny>x<nz>.png. Both axes start at zero (efficiency in %, 100 % marked;
Gcells/s). Needs matplotlib (scripts/setup.sh installs Debian's python3-matplotlib).
"""
import argparse
import json
import pathlib
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def series(rows):
    """{(scaling, size): {exchange: [(devices, efficiency, gcells)]}} including the 1-device baseline."""
    out = defaultdict(lambda: defaultdict(list))
    baselines = {}
    for r in rows:
        if r["skipped"]:
            continue
        if r["exchange"] == "-":
            baselines[r["size"]] = r
            continue
        out[(r["scaling"], r["size"])][r["exchange"] + (f" R{r['halo_depth']}" if r["halo_depth"] > 1 else "")].append(
            (r["devices"], r["efficiency"], r["gcells_per_s"]))
    for (scaling, size), lines in out.items():
        base = baselines.get(size)
        for points in lines.values():
            if base:
                points.append((1, 1.0, base["gcells_per_s"]))
            points.sort()
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path)
    args = parser.parse_args()
    data = json.loads(args.json.read_text())
    out_dir = args.out or args.json.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    gpus = ", ".join(g["name"] for g in data["provenance"].get("gpus", [])[:1]) or data["engine"]
    t1_grid = {r["size"]: r["grid"] for r in data["rows"] if r["exchange"] == "-"}
    for (scaling, size), lines in sorted(series(data["rows"]).items()):
        fig, (eff, rate) = plt.subplots(1, 2, figsize=(11, 4.2))
        for name, points in sorted(lines.items()):
            n = [p[0] for p in points]
            eff.plot(n, [100 * p[1] for p in points], marker="o", label=name)
            rate.plot(n, [p[2] for p in points], marker="o", label=name)
        label = f"{size}^3" if size else "x".join(str(edge) for edge in t1_grid[size])
        grid = f"{label} total" if scaling == "strong" else f"{label} per device"
        eff.set(xlabel="devices", ylabel=f"{scaling} efficiency (%)", title=f"{scaling} scaling, {grid}")
        rate.set(xlabel="devices", ylabel="Gcells/s", title=f"throughput ({gpus}, {data['precision']})")
        for ax in (eff, rate):
            ax.grid(alpha=0.3)
            ax.set_xticks(sorted({p[0] for pts in lines.values() for p in pts}))
        # Both scales from zero, so that a gap between two lines reads as its true proportion.
        top = max([100.0] + [100 * p[1] for pts in lines.values() for p in pts])
        eff.set_ylim(0, 1.05 * top)
        rate.set_ylim(0, 1.05 * max([p[2] for pts in lines.values() for p in pts] + [1e-9]))
        eff.axhline(100, color="grey", lw=0.8)
        eff.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / f"efficiency_{scaling}_{size if size else label}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)


if __name__ == "__main__":
    main()
