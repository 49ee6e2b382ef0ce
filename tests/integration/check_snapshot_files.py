"""Checks the snapshot files of yeex runs against their run.json (CTest render_pictures): the
attributes of io/snapshot_writer.hpp with their exact values (dt, cell_size, origin, plane_axis,
units, each step and each component's own time: E at n dt, H at (n - 1/2) dt, the stagger) and
the datasets' shapes. Exits 1 naming the first difference.

    python3 check_snapshot_files.py OUTPUT_FOLDER...
"""
import json
import os
import sys

import h5py
import numpy as np

STAGGER = {"Ex": (0.5, 0, 0), "Ey": (0, 0.5, 0), "Ez": (0, 0, 0.5), "Hx": (0, 0.5, 0.5), "Hy": (0.5, 0, 0.5),
           "Hz": (0.5, 0.5, 0)}


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def expect(condition, message):
    if not condition:
        sys.exit("check_snapshot_files: " + message)


def check(folder):
    with open(os.path.join(folder, "run.json")) as f:
        deck = json.load(f)["deck"]
    dt = deck["time"]["dt"]
    cells, cell = deck["grid"]["cells"], deck["grid"]["cell_size"]
    expect(deck["snapshot"], folder + ": the deck has no snapshot")
    for snapshot in deck["snapshot"]:
        path = os.path.join(folder, snapshot["name"] + ".h5")
        plane = snapshot.get("plane")
        axis = "xyz".index(plane["axis"]) if plane else None
        nodes = [n + 1 for n in cells]
        origin = [0.0, 0.0, 0.0]
        if plane:
            node = round(plane["position"] / cell[axis])
            nodes[axis] = 1
            origin[axis] = node * cell[axis]  # the solver's arithmetic: node index times cell size
        with h5py.File(path, "r") as f:
            attrs = f.attrs
            expect(text(attrs["format"]) == "yeex-snapshot-1", path + ": format")
            expect(float(attrs["dt"]) == dt, "%s: dt %r, run.json %r" % (path, attrs["dt"], dt))
            expect(list(attrs["cell_size"]) == cell, "%s: cell_size %s" % (path, attrs["cell_size"]))
            expect(list(attrs["origin"]) == origin, "%s: origin %s, expected %s" % (path, attrs["origin"], origin))
            expect(text(attrs["plane_axis"]) == (plane["axis"] if plane else "none"), path + ": plane_axis")
            expect([text(attrs[k]) for k in ("time_units", "e_units", "h_units")] == ["s", "V/m", "A/m"],
                   path + ": units")
            steps = sorted(int(f[g].attrs["step"]) for g in f)
            every = snapshot["every"]
            expected_steps = list(range(every, deck["time"]["steps"] + 1, every))
            expect(steps == expected_steps, "%s: steps %s, expected %s" % (path, steps, expected_steps))
            for step in steps:
                group = f["step_%08d" % step]
                expect(float(group.attrs["time"]) == step * dt, "%s step %d: time" % (path, step))
                expect(sorted(group) == sorted(snapshot["components"]), "%s step %d: components" % (path, step))
                for name, dataset in group.items():
                    where = "%s step %d %s" % (path, step, name)
                    electric = name.startswith("E")
                    expect(dataset.shape == tuple(nodes[::-1]), "%s: shape %s" % (where, dataset.shape))
                    expect(text(dataset.attrs["units"]) == ("V/m" if electric else "A/m"), where + ": units")
                    time = step * dt if electric else (step - 0.5) * dt
                    expect(float(dataset.attrs["time"]) == time,
                           "%s: time %r, expected %r" % (where, dataset.attrs["time"], time))
                    stagger = [s * d for s, d in zip(STAGGER[name], cell)]
                    expect(list(dataset.attrs["stagger"]) == stagger, "%s: stagger %s" % (where, dataset.attrs["stagger"]))
                    expect(np.isfinite(dataset[...]).all() and np.abs(dataset[...]).max() > 0,
                           where + ": not finite or all zero")
        print("check_snapshot_files: %s: %d steps, attributes as run.json says" % (path, len(steps)))


for output in sys.argv[1:]:
    check(output)
