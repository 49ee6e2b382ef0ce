#!/usr/bin/env python3
"""Report for scripts/compare_gprmax.sh: reads the gprMax logs and yeex run.json files it left in
build/compare/ and prints (and with --out, writes) a markdown table. Standard library only.

Throughput is Mcells/s = cells x steps / loop time / 1e6 for both codes: gprMax's own
definition, and yeex's Gcells/s x 1000 (PML cells counted: both codes put the PML inside the
grid). The loop time is the time loop only (gprMax's "Time taken", yeex's timings_s.stepping);
end-to-end is the whole process, start-up included. Files in --work:
{gprmax,yeex}-BOUNDARY-PRECISION-MODE-ROUND.{log,json,wall,load}, round 0 the warm-up.
"""

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

# gprMax prints its solve time with humanize.precisedelta: "12.3456 seconds",
# "1 minute and 3.2100 seconds", "1 hour, 2 minutes and 3.0000 seconds".
SECONDS_PER_UNIT = {"hour": 3600.0, "minute": 60.0, "second": 1.0}


def parse_duration(text):
    parts = re.findall(r"([0-9]+(?:\.[0-9]+)?)\s+(hour|minute|second)s?", text)
    if not parts:
        raise ValueError(f"no duration in {text!r}")
    return sum(float(value) * SECONDS_PER_UNIT[unit] for value, unit in parts)


def read_gprmax(log_path):
    text = log_path.read_text(errors="replace")
    taken = re.findall(r"^Time taken:\s*(.+)$", text, re.MULTILINE)
    if len(taken) != 1:
        sys.exit(f"compare: error: expected one 'Time taken:' line in {log_path}, found {len(taken)}")
    threads = re.search(r"using (\d+) thread", text)
    return {
        "solve_s": parse_duration(taken[0]),
        "threads": int(threads.group(1)) if threads else None,
    }


def read_yeex(json_path):
    run = json.loads(json_path.read_text())
    return {
        "solve_s": float(run["timings_s"]["stepping"]),
        "checks_s": float(run["timings_s"]["checks"]),
        "gcells_per_s": float(run["performance"]["gcells_per_s"]),
        "threads": run["provenance"].get("cpu_threads"),
        "version": run["provenance"].get("yeex_version", "?"),
        "commit": run["provenance"].get("git_commit", "unknown"),
        "cells": int(run["run"]["cells"]),
        "steps": int(run["run"]["steps"]),
        "precision": run["run"].get("precision", "?"),
    }


def read_wall(path):
    return float(path.read_text().strip())


def gprmax_version(python):
    out = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('gprMax'))"],
        capture_output=True, text=True, check=True)
    return out.stdout.strip()


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def load_average():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def yeex_commit(yeex_path, commit_from_json):
    if commit_from_json not in ("", "unknown", None):
        return commit_from_json
    try:
        out = subprocess.run(["git", "-C", str(Path(yeex_path).parent), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip() + " (working tree)"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


MODE_LABEL = {"keep": "as shipped", "flush": "FTZ/DAZ"}
BOUNDARY_LABEL = {"pml": "PML", "pec": "PEC"}


def measure(work, code, case, repeats, reader):
    """Median loop and end-to-end times of one code in one case over the rounds, its first run
    and the loads the runs started under."""
    bases = [work / f"{code}-{case}-{i}" for i in range(1, repeats + 1)]
    runs = [reader(base.with_name(base.name + (".log" if code == "gprmax" else ".json"))) for base in bases]
    walls = [read_wall(base.with_name(base.name + ".wall")) for base in bases]
    loads = [read_wall(base.with_name(base.name + ".load")) for base in bases]
    checks = statistics.median(r.get("checks_s", 0.0) for r in runs)
    return (runs[0], statistics.median(r["solve_s"] for r in runs), statistics.median(walls), checks,
            loads)


def build_report(args):
    work = Path(args.work)
    cells = args.size ** 3
    work_units = cells * args.steps
    gprmax_ver = gprmax_version(args.gprmax_python)

    header = ("boundary", "precision", "denormals", "gprMax loop s", "gprMax Mcells/s",
              "gprMax end-to-end s", "yeex loop s", "yeex Mcells/s", "yeex checks",
              "yeex end-to-end s", "yeex/gprMax loop", "yeex/gprMax end-to-end", "load (1 min)")
    rows, yeex_first = [header], None
    for boundary in args.boundaries:
        for precision in args.precisions:
            for mode in args.modes:
                case = f"{boundary}-{precision}-{mode}"
                _, g_solve, g_wall, _, g_loads = measure(work, "gprmax", case, args.repeats, read_gprmax)
                y_first, y_solve, y_wall, y_checks, y_loads = measure(work, "yeex", case, args.repeats,
                                                                      read_yeex)
                yeex_first = yeex_first or y_first
                if y_first["cells"] != cells or y_first["steps"] != args.steps:
                    sys.exit(f"compare: error: yeex ran {y_first['cells']} cells x {y_first['steps']} "
                             f"steps, expected {cells} x {args.steps}")
                g_mcells, y_mcells = work_units / g_solve / 1e6, work_units / y_solve / 1e6
                loads = g_loads + y_loads
                rows.append((BOUNDARY_LABEL[boundary], precision, MODE_LABEL[mode], f"{g_solve:.2f}",
                             f"{g_mcells:.1f}", f"{g_wall:.2f}", f"{y_solve:.2f}", f"{y_mcells:.1f}",
                             f"{100 * y_checks / y_solve:.1f} %", f"{y_wall:.2f}",
                             f"**{y_mcells / g_mcells:.2f}x**", f"**{g_wall / y_wall:.2f}x**",
                             f"{min(loads):.2f}-{max(loads):.2f}"))

    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]

    def line(row):
        return "| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |"

    table = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    table += [line(row) for row in rows[1:]]

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    yeex_ver = f"{yeex_first['version']} {yeex_commit(args.yeex, yeex_first['commit'])}"
    lines = [
        "# yeex host engine vs gprMax on the same CPU",
        "",
        f"- date: {date}",
        f"- command: `{args.command}`",
        f"- codes: gprMax {gprmax_ver} (OpenMP CPU solver), yeex {yeex_ver} (host engine)",
        f"- machine: {cpu_model()}, {os.cpu_count()} logical CPUs (nproc {len(os.sched_getaffinity(0))}), "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}",
        f"- load average (1, 5, 15 min): {args.load_before} before, {load_average()} after "
        "(the after figure counts the runs themselves); the last column: the 1-minute load "
        "before each run of the case",
        f"- problem: a box of {args.size}^3 cells of 1 mm, a {args.pml_cells}-cell PML on every face "
        "(gprMax's default; yeex's CPML) or PEC walls, a dielectric cube (eps_r = 4) over the middle "
        "third, a z Hertzian dipole at the centre with a 1 GHz Gaussian pulse, one receiver (six "
        f"components), {args.steps} steps, OMP_NUM_THREADS={args.threads}; one warm-up run of each "
        f"code, then {args.repeats} rounds of every case, gprMax then yeex (A B A B); medians",
        "",
        *table,
        "",
        "- Mcells/s = cells x steps / loop time / 1e6 (gprMax's definition; yeex's Gcells/s x 1000).",
        "- loop s: the time loop only, set-up excluded: gprMax's own \"Time taken\" line; "
        "yeex's run.json timings_s.stepping. yeex checks: its NaN/Inf health checks "
        "(timings_s.checks) as a share of its loop.",
        "- end-to-end s: the whole process as launched by the script (gprMax: Python start-up, "
        "model build, solve, output; yeex: set-up, solve, run.json).",
        "- denormals: \"as shipped\" runs each code unchanged; \"FTZ/DAZ\" preloads a library that "
        "sets flush-to-zero and denormals-are-zero in the x86 MXCSR register before main() (OpenMP "
        "threads inherit it). Ahead of the wavefront the fields decay through the subnormal range, "
        "where x86 arithmetic is many times slower; yeex's CPU engines flush in their own threads, "
        "so the library changes gprMax only.",
        "- Both codes do one H and one E sweep per step over the same grid; gprMax's time step is "
        "its CFL limit, yeex's 0.99 of it, which changes no work per step. gprMax's dielectric "
        "smoothing is off (`#box: ... n`) so both see the same two materials.",
        "- Inputs and logs: build/compare/ (box-pml.in, box-pml.toml, box-pec.*, "
        "CODE-BOUNDARY-PRECISION-MODE-ROUND.{log,json,wall,load}).",
    ]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--modes", nargs="+", choices=sorted(MODE_LABEL), default=["keep"])
    parser.add_argument("--boundaries", nargs="+", choices=sorted(BOUNDARY_LABEL), default=["pml"])
    parser.add_argument("--precisions", nargs="+", choices=["f32", "f64"], default=["f32"])
    parser.add_argument("--pml-cells", type=int, default=10)
    parser.add_argument("--gprmax-python", required=True)
    parser.add_argument("--yeex", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--load-before", default="unknown")
    parser.add_argument("--out")
    args = parser.parse_args()

    report = build_report(args)
    print(report, end="")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(report)
        print(f"\nwritten to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
