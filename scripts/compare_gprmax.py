#!/usr/bin/env python3
"""yeex against gprMax 4.0.1, the part of scripts/compare_gprmax.sh that is not shell. Subcommands:

  to-gprmax     a yeex deck, as resolved in a run.json, written as a gprMax input file
  fields        one deck run by both codes: the receiver traces compared, a report and a plot
  speed-report  the speed table of the runs compare_gprmax.sh left in build/compare/

to-gprmax and speed-report use the standard library only; fields needs numpy and h5py (gprMax's
venv has them) and draws its plot with matplotlib where it is installed.

The translation (to-gprmax) covers the subset of a deck both codes share: the grid, the time
step (yeex's courant as gprMax's #time_step_stability_factor: both take dt = courant / (c
sqrt(1/dx^2 + 1/dy^2 + 1/dz^2))), PEC or CPML faces, materials with Debye, Drude and Lorentz
poles, boxes, spheres and cylinders, Hertzian dipoles and probes. It reproduces yeex's
staircase exactly: a box is a `#box: ... n` (no dielectric smoothing) from node to node where
such a box paints the same E components as yeex's (gprMax paints every edge of its cells, the
surface included), any other object one #edge per run of E components whose positions lie
inside it by yeex's test (src/solver/model.cpp), so that gprMax's own cell-by-cell voxelisation
of curved objects does not decide. Dispersive materials are not averaged at interfaces
(#dispersive_averaging: n, gprMax's default; yeex never averages). Sources and probes are
snapped to nodes as yeex snaps them.
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# speed-report: the table of scripts/compare_gprmax.sh's runs in build/compare/:
# {gprmax,yeex}-BOUNDARY-PRECISION-MODE-ROUND.{log,json,wall,load}, round 0 the warm-up. Mcells/s =
# cells x steps / loop time / 1e6 for both codes (gprMax's definition; PML cells counted: both
# put the PML inside the grid); the loop is gprMax's "Time taken", yeex's timings_s.stepping.

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
        "- Both codes do one H and one E sweep per step over the same grid with the same time step "
        "(yeex's courant 0.99 as gprMax's #time_step_stability_factor). gprMax's input is written "
        "from yeex's resolved deck (compare_gprmax.py to-gprmax); its dielectric smoothing is off "
        "(`#box: ... n`) so both see the same two materials.",
        "- Inputs and logs: build/compare/ (box-pml.in, box-pml.toml, box-pec.*, "
        "CODE-BOUNDARY-PRECISION-MODE-ROUND.{log,json,wall,load}).",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# to-gprmax: a resolved yeex deck (run.json's "deck") as a gprMax input file

class ConversionError(Exception):
    """A deck that uses something the translation does not cover."""


WAVEFORMS = {"gaussian": "gaussian", "gaussian_derivative": "gaussiandot", "ricker": "ricker",
             "ramped_sine": "contsine"}
# gprMax's #pml_cells order, and its polynomial profiles by order.
FACES = ("x_min", "y_min", "z_min", "x_max", "y_max", "z_max")
PROFILES = ("constant", "linear", "quadratic", "cubic", "quartic", "quintic", "sextic", "septic", "octic")
RADIUS_SLACK = 1e-9  # src/solver/model.cpp's kRadiusSlack
TWO_PI = 2.0 * math.pi


def number(x):
    """The shortest text that reads back as the same double."""
    return repr(float(x))


def snap(x, d):
    """yeex's node of a position: std::round(x / d), halves away from zero."""
    q = x / d
    return int(math.floor(q + 0.5)) if q >= 0 else -int(math.floor(-q + 0.5))


def box_cells(shape, cell):
    """The node corners of the gprMax #box that paints the same E components as yeex's box, or
    None. yeex takes a component when its own position lies in the closed box; a #box from node
    n0 to n1 paints the nodes n0..n1 across an axis and the half-nodes n0..n1-1 along it."""
    corners = []
    for d in range(3):
        low, high, h = shape["lower"][d], shape["upper"][d], cell[d]
        near = range(int(math.floor(low / h)) - 2, int(math.ceil(high / h)) + 3)
        nodes = [n for n in near if low <= (n + 0.0) * h <= high]
        halves = [n for n in near if low <= (n + 0.5) * h <= high]
        if len(nodes) < 2 or halves != nodes[:-1]:
            return None
        corners.append((nodes[0], nodes[-1]))
    return corners


def pml_lines(deck, pml):
    """#pml_cells (and with pml == "matched", #pml_cfs): PEC faces get no PML."""
    boundary = deck["boundary"]
    kinds = [boundary[face] for face in FACES]
    if all(kind == "pec" for kind in kinds):
        return ["#pml_cells: 0"]
    cpml = boundary["cpml"]
    cells = [str(cpml["cells"]) if kind == "cpml" else "0" for kind in kinds]
    lines = ["#pml_cells: " + " ".join(cells)]
    if pml == "default":
        return lines  # gprMax's own: sigma quartic, scaled by the slab's average permittivity; no alpha
    # yeex's profile (docs/decks.md, CPML): sigma and kappa grow as rho^m to the wall, alpha falls
    # linearly from alpha_max at the inner edge to 0. gprMax's profiles take the same depths (E at
    # whole cells, H half a cell further) but discretise the CFS term by the trapezoidal rule
    # where yeex takes Roden and Gedney's exponential.
    grading = cpml["grading"]
    if grading != int(grading) or not 0 <= grading < len(PROFILES):
        raise ConversionError(f"boundary.cpml.grading {grading}: gprMax's profiles are whole orders 0-8")
    sigma_max = set(cpml["sigma_max"])
    if len(sigma_max) != 1:
        raise ConversionError("boundary.cpml.sigma_max differs by axis: gprMax's #pml_cfs takes one value")
    profile = PROFILES[int(grading)]
    kappa = "constant forward 1 1" if cpml["kappa_max"] == 1 else f"{profile} forward 1 {number(cpml['kappa_max'])}"
    lines.append(f"#pml_cfs: linear reverse 0 {number(cpml['alpha_max'])} {kappa} "
                 f"{profile} forward 0 {number(sigma_max.pop())}")
    return lines


def material_lines(material):
    name = material["name"]
    lines = [f"#material: {number(material['eps_r'])} {number(material['sigma'])} "
             f"{number(material['mu_r'])} 0 {name}"]
    poles = material.get("poles", [])
    kinds = {pole["type"] for pole in poles}
    if len(kinds) > 1:
        raise ConversionError(f"material {name}: gprMax takes poles of one kind per material, not {sorted(kinds)}")
    values = []
    for pole in poles:
        if pole["type"] == "debye":
            values += [pole["delta_eps"], pole["tau"]]
        elif pole["type"] == "drude":
            # chi = -omega^2 / (w^2 - j w gamma): gprMax's plasma frequency in Hz, collision rate in 1/s
            if pole["gamma"] <= 0:
                raise ConversionError(f"material {name}: gprMax needs a Drude collision rate > 0")
            values += [pole["omega"] / TWO_PI, pole["gamma"]]
        else:
            # chi = delta_eps omega^2 / (omega^2 - w^2 + j w gamma): gprMax writes the damping as
            # 2 j w delta, with the resonance in Hz, and takes underdamped poles only
            if pole["gamma"] / 2 >= pole["omega"]:
                raise ConversionError(f"material {name}: gprMax takes underdamped Lorentz poles only")
            values += [pole["delta_eps"], pole["omega"] / TWO_PI, pole["gamma"] / 2]
    if poles:
        lines.append(f"#add_dispersion_{poles[0]['type']}: {len(poles)} "
                     + " ".join(number(v) for v in values) + f" {name}")
    return lines


def within_along(shape, d, x, radius):
    if shape["shape"] == "box":
        return shape["lower"][d] <= x <= shape["upper"][d]
    axis = "xyz".index(shape["axis"]) if shape["shape"] == "cylinder" else None
    if d == axis:
        return shape["lower"] <= x <= shape["upper"]
    return abs(x - shape["centre"][d]) <= radius


def inside(shape, point, radius):
    """yeex's point-in-object test (src/solver/model.cpp), in the same arithmetic."""
    if not all(within_along(shape, d, point[d], radius) for d in range(3)):
        return False
    if shape["shape"] == "box":
        return True
    axis = "xyz".index(shape["axis"]) if shape["shape"] == "cylinder" else None
    squared = 0.0
    for d in range(3):
        if d != axis:
            squared += (point[d] - shape["centre"][d]) * (point[d] - shape["centre"][d])
    return squared <= radius * radius


def index_range(shape, d, cell, cells):
    """The node indices along d whose components may lie inside the object."""
    if shape["shape"] == "box":
        low, high = shape["lower"][d], shape["upper"][d]
    elif shape["shape"] == "cylinder" and "xyz".index(shape["axis"]) == d:
        low, high = shape["lower"], shape["upper"]
    else:
        low, high = shape["centre"][d] - 2 * shape["radius"], shape["centre"][d] + 2 * shape["radius"]
    return range(max(0, int(math.floor(low / cell)) - 1), min(cells, int(math.ceil(high / cell)) + 2))


def edge_lines(shape, cell, cells):
    """One #edge per run of E components inside the object along their own axis."""
    radius = shape.get("radius", 0.0) * (1 + RADIUS_SLACK)
    lines = []
    ranges = [index_range(shape, d, cell[d], cells[d]) for d in range(3)]
    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        for m in ranges[b]:
            for n in ranges[c]:
                # E_a sits half a cell above its node along a; an E on an outer face is held at zero.
                if not (0 < m < cells[b] and 0 < n < cells[c]):
                    continue
                run = None
                for k in list(ranges[a]) + [ranges[a].stop]:
                    hit = False
                    if k < min(ranges[a].stop, cells[a]):
                        point = [0.0, 0.0, 0.0]
                        point[a], point[b], point[c] = (k + 0.5) * cell[a], (m + 0.0) * cell[b], (n + 0.0) * cell[c]
                        hit = inside(shape, point, radius)
                    if hit and run is None:
                        run = k
                    elif not hit and run is not None:
                        p1, p2 = [0.0] * 3, [0.0] * 3
                        p1[a], p2[a] = run * cell[a], k * cell[a]
                        p1[b] = p2[b] = m * cell[b]
                        p1[c] = p2[c] = n * cell[c]
                        lines.append("#edge: " + " ".join(number(v) for v in p1 + p2) + f" {shape['material']}")
                        run = None
    return lines


def geometry_lines(deck, materials):
    cell, cells = deck["grid"]["cell_size"], deck["grid"]["cells"]
    lines = []
    for shape in deck["geometry"]:
        material = materials.get(shape["material"])
        if material is not None and material["mu_r"] != 1 and shape["shape"] != "box":
            raise ConversionError(f"a {shape['shape']} of mu_r != 1: #edge sets E components only")
        corners = box_cells(shape, cell) if shape["shape"] == "box" else None
        if corners:
            lower = [n0 * d for (n0, _), d in zip(corners, cell)]
            upper = [n1 * d for (_, n1), d in zip(corners, cell)]
            lines.append("#box: " + " ".join(number(v) for v in lower + upper) + f" {shape['material']} n")
        else:
            lines += edge_lines(shape, cell, cells)
    return lines


def node_point(position, cell):
    return " ".join(number(snap(p, d) * d) for p, d in zip(position, cell))


def gprmax_input(deck, iterations, threads=None, pml="matched"):
    """The gprMax input of a resolved deck, running `iterations` iterations (gprMax records its
    receivers before each iteration's update: steps + 1 of them give yeex's steps samples)."""
    cell, cells = deck["grid"]["cell_size"], deck["grid"]["cells"]
    courant = deck["time"]["courant"]
    lines = [f"#title: {deck['title']}",
             "#domain: " + " ".join(number(n * d) for n, d in zip(cells, cell)),
             "#dx_dy_dz: " + " ".join(number(d) for d in cell),
             f"#time_window: {iterations}"]
    if courant != 1:
        lines.append(f"#time_step_stability_factor: {number(courant)}")
    if threads:
        lines.append(f"#omp_threads: {threads}")
    lines += pml_lines(deck, pml)
    if any(m.get("poles") for m in deck["material"]):
        lines.append("#dispersive_averaging: n")
    materials = {m["name"]: m for m in deck["material"]}
    for material in deck["material"]:
        lines += material_lines(material)
    for i, source in enumerate(deck["source"]):
        if source["type"] != "hertzian_dipole" or source["waveform"] not in WAVEFORMS:
            raise ConversionError(f"source[{i}]: {source['type']} {source.get('waveform')} has no gprMax form here")
        lines.append(f"#waveform: {WAVEFORMS[source['waveform']]} {number(source['amplitude'])} "
                     f"{number(source['frequency'])} w{i}")
        lines.append(f"#hertzian_dipole: {source['polarisation']} {node_point(source['position'], cell)} w{i}")
    for probe in deck["probe"]:
        lines.append(f"#rx: {node_point(probe['position'], cell)} {probe['name']} " + " ".join(probe["components"]))
    lines += geometry_lines(deck, materials)
    return "\n".join(lines) + "\n"


def to_gprmax(args):
    run = json.loads(Path(args.run_json).read_text())
    deck = run.get("deck", run)
    iterations = args.iterations or deck["time"]["steps"] + 1
    try:
        text = gprmax_input(deck, iterations, args.threads, args.pml)
    except ConversionError as error:
        sys.exit(f"compare: error: {error}")
    Path(args.out).write_text(text)


# ---------------------------------------------------------------------------------------------
# fields: both codes on one deck, their receiver traces compared

def run_logged(command, log, env=None, cwd=None):
    start = time.monotonic()
    with open(log, "w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if done.returncode != 0:
        tail = "".join(Path(log).read_text(errors="replace").splitlines(True)[-20:])
        sys.exit(f"{tail}compare: error: {command[0]} failed (exit {done.returncode}; log: {log})")
    return time.monotonic() - start


def pulse_onset(source, dt, steps):
    """The first time the source's waveform reaches 1e-3 of its peak."""
    f = source["frequency"]
    if source["waveform"] == "ricker":
        zeta, chi = (math.pi * f) ** 2, math.sqrt(2) / f
        w = [abs((2 * zeta * (n * dt - chi) ** 2 - 1) * math.exp(-zeta * (n * dt - chi) ** 2)) for n in range(steps)]
    elif source["waveform"] in ("gaussian", "gaussian_derivative"):
        zeta, chi = 2 * (math.pi * f) ** 2, 1 / f
        w = [math.exp(-zeta * (n * dt - chi) ** 2) for n in range(steps)]
    else:
        return 0.0
    peak = max(w)
    return next(n * dt for n, v in enumerate(w) if v >= 1e-3 * peak)


def first_pml_echo(deck, source, probe, dt, steps):
    """The earliest time a wave leaving the source at its pulse's onset, at the speed of light,
    can reach the probe by way of a CPML slab's inner face (the image of the probe in that face)."""
    cell, cells, boundary = deck["grid"]["cell_size"], deck["grid"]["cells"], deck["boundary"]
    src = [snap(p, d) * d for p, d in zip(source["position"], cell)]
    rx = [snap(p, d) * d for p, d in zip(probe["position"], cell)]
    shortest = math.inf
    for face in FACES:
        if boundary[face] != "cpml":
            continue
        d = "xyz".index(face[0])
        n = boundary["cpml"]["cells"]
        plane = (n if face.endswith("min") else cells[d] - n) * cell[d]
        image = list(rx)
        image[d] = 2 * plane - rx[d]
        shortest = min(shortest, math.dist(src, image))
    return pulse_onset(source, dt, steps) + shortest / 299792458.0


def fields(args):
    import h5py
    import numpy as np

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    name = Path(args.deck).stem
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))

    # yeex first: its run.json holds the resolved deck (a Peplinski soil as its Debye pole, the
    # CPML's default sigma_max, dt) that the gprMax input is written from.
    yeex_out = work / f"{name}-yeex"
    yeex_cmd = [args.yeex, "run", args.deck, "--engine", "host", "--precision", "f64", "--quiet", "--json",
                "--force", "--output", str(yeex_out)]
    if args.steps:
        yeex_cmd += ["--steps", str(args.steps)]
    yeex_wall = run_logged(yeex_cmd, work / f"{name}-yeex.json", env)
    run = json.loads((yeex_out / "run.json").read_text())
    deck, steps, dt = run["deck"], run["run"]["steps"], run["deck"]["time"]["dt"]

    gprmax_in = work / f"{name}.in"
    try:
        gprmax_in.write_text(gprmax_input(deck, steps + 1, args.threads, args.pml))
    except ConversionError as error:
        sys.exit(f"compare: error: {error}")
    gprmax_wall = run_logged([args.gprmax_python, "-m", "gprMax", gprmax_in.name, "-cpu_precision", "double",
                              "--hide-progress-bars"], work / f"{name}-gprmax.log", env, cwd=work)

    rows = []
    with h5py.File(yeex_out / "probes.h5") as y, h5py.File(work / f"{name}.h5") as g:
        g_dt = float(g.attrs["dt"])
        if abs(g_dt - dt) > 1e-9 * dt:
            sys.exit(f"compare: error: the time steps differ: yeex {dt!r} s, gprMax {g_dt!r} s")
        for probe in deck["probe"]:
            for component in probe["components"]:
                ours = y[f"probes/{probe['name']}/{component}"][...]
                # gprMax's sample n is the field before iteration n's update: yeex's n - 1.
                theirs = g[f"rxs/{rx_group(g, probe['name'])}/{component}"][1:steps + 1]
                rows.append((probe, component, ours, theirs))

    t = (np.arange(steps) + 1) * dt
    echo = first_pml_echo(deck, deck["source"][0], deck["probe"][0], dt, steps) if deck["source"] else 0.0
    results = []
    for probe, component, ours, theirs in rows:
        peak = np.max(np.abs(theirs))
        diff = np.abs(ours - theirs) / peak
        worst = int(np.argmax(diff))
        early = t < echo
        results.append({
            "probe": probe["name"], "component": component, "peak": float(peak),
            "max_diff": float(diff[worst]), "at_s": float(t[worst]),
            "max_diff_before_pml_echo": float(diff[early].max()) if early.any() else 0.0,
            "rms_ratio": float(np.sqrt(np.mean((ours - theirs) ** 2)) / np.sqrt(np.mean(theirs ** 2))),
            "peak_at_s": float(t[int(np.argmax(np.abs(theirs)))]),
        })

    report = fields_report(args, deck, steps, (dt, g_dt), echo, results, yeex_wall, gprmax_wall, run)
    print(report, end="")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(report)
    (work / f"{name}-fields.json").write_text(json.dumps(results, indent=2) + "\n")
    if args.plot:
        plot_traces(args.plot, deck, t, rows, results, echo)
    worst = max(r["max_diff"] for r in results)
    if args.tolerance is not None and worst > args.tolerance:
        sys.exit(f"compare: FAIL: max |yeex - gprMax| / peak = {worst:.3g} > {args.tolerance:g}")


def rx_group(h5, name):
    """gprMax's group of the receiver with this ID (rx1, rx2, ... in input order)."""
    for key, group in h5["rxs"].items():
        if group.attrs.get("Name", key) in (name, name.encode()):
            return key
    return "rx1"


def fields_report(args, deck, steps, dts, echo, results, yeex_wall, gprmax_wall, run):
    cells = deck["grid"]["cells"]
    dt, g_dt = dts
    lines = [
        f"# yeex against gprMax {gprmax_version(args.gprmax_python)}: receiver traces",
        "",
        f"- deck: `{args.deck}` ({deck['title']}), {cells[0]} x {cells[1]} x {cells[2]} cells, "
        f"{steps} steps; dt = {dt!r} s in yeex, {g_dt!r} s in gprMax (courant "
        f"{deck['time']['courant']} in both; relative difference {abs(g_dt - dt) / dt:.1e})",
        f"- yeex {run['provenance'].get('yeex_version', '?')} host engine, f64; gprMax -cpu_precision double; "
        f"PML: {'yeex profile in both (#pml_cfs)' if args.pml == 'matched' else 'each code its default'}; "
        f"OMP_NUM_THREADS={args.threads}",
        f"- wall time (whole process): yeex {yeex_wall:.1f} s, gprMax {gprmax_wall:.1f} s",
        f"- first possible CPML echo at the receiver: {echo * 1e9:.3f} ns",
        "",
        "| probe | component | peak | max \\|diff\\| / peak | at | before the first CPML echo | rms diff / rms |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(f"| {r['probe']} | {r['component']} | {r['peak']:.4g} at {r['peak_at_s'] * 1e9:.3f} ns "
                     f"| {100 * r['max_diff']:.3f} % | {r['at_s'] * 1e9:.3f} ns "
                     f"| {100 * r['max_diff_before_pml_echo']:.3f} % | {100 * r['rms_ratio']:.3f} % |")
    return "\n".join(lines) + "\n"


def plot_traces(path, deck, t, rows, results, echo):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("compare: matplotlib is not installed: no plot", file=sys.stderr)
        return
    probe, component, ours, theirs = rows[0]
    r = results[0]
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6), height_ratios=[2, 1])
    ns = t * 1e9
    top.plot(ns, theirs, color="black", lw=2.5, label="gprMax 4.0.1")
    top.plot(ns, ours, color="tab:orange", lw=1.2, label="yeex (host, f64)")
    top.set_ylabel(f"{component} at {probe['name']} (V/m)")
    top.set_title(deck["title"], fontsize=10)
    top.legend()
    bottom.plot(ns, 100 * (ours - theirs) / r["peak"], color="tab:blue", lw=1)
    bottom.axvline(echo * 1e9, color="grey", ls=":", lw=1, label="first possible CPML echo")
    bottom.set_ylabel("yeex - gprMax\n(% of peak)")
    bottom.set_xlabel("time (ns)")
    bottom.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"compare: plot written to {path}", file=sys.stderr)


def speed_report(args):
    report = build_report(args)
    print(report, end="")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(report)
        print(f"\nwritten to {args.out}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    convert = commands.add_parser("to-gprmax", help="a resolved deck (run.json) as a gprMax input file")
    convert.add_argument("run_json", help="a yeex run.json (its \"deck\"), or the deck object alone")
    convert.add_argument("--out", required=True, help="the gprMax input file to write")
    convert.add_argument("--iterations", type=int, help="gprMax iterations (default: the deck's steps + 1)")
    convert.add_argument("--threads", type=int, help="#omp_threads")
    convert.add_argument("--pml", choices=["matched", "default"], default="matched",
                         help="matched: yeex's CPML profile in gprMax (#pml_cfs); default: gprMax's own")
    convert.set_defaults(run=to_gprmax)

    compare = commands.add_parser("fields", help="one deck in both codes, receiver traces compared")
    compare.add_argument("--deck", required=True)
    compare.add_argument("--steps", type=int, help="override the deck's steps")
    compare.add_argument("--threads", type=int, default=os.cpu_count())
    compare.add_argument("--pml", choices=["matched", "default"], default="matched")
    compare.add_argument("--tolerance", type=float, help="fail (exit 1) when max |diff| / peak exceeds it")
    compare.add_argument("--plot", help="PNG of the traces and their difference (matplotlib)")
    compare.add_argument("--out", help="also write the markdown report to this file")
    compare.add_argument("--work", required=True)
    compare.add_argument("--yeex", required=True)
    compare.add_argument("--gprmax-python", required=True)
    compare.set_defaults(run=fields)

    speed = commands.add_parser("speed-report", help="the speed table of compare_gprmax.sh's runs")
    speed.add_argument("--work", required=True)
    speed.add_argument("--size", type=int, required=True)
    speed.add_argument("--steps", type=int, required=True)
    speed.add_argument("--threads", type=int, required=True)
    speed.add_argument("--repeats", type=int, default=1)
    speed.add_argument("--modes", nargs="+", choices=sorted(MODE_LABEL), default=["keep"])
    speed.add_argument("--boundaries", nargs="+", choices=sorted(BOUNDARY_LABEL), default=["pml"])
    speed.add_argument("--precisions", nargs="+", choices=["f32", "f64"], default=["f32"])
    speed.add_argument("--pml-cells", type=int, default=10)
    speed.add_argument("--gprmax-python", required=True)
    speed.add_argument("--yeex", required=True)
    speed.add_argument("--command", required=True)
    speed.add_argument("--load-before", default="unknown")
    speed.add_argument("--out")
    speed.set_defaults(run=speed_report)

    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
