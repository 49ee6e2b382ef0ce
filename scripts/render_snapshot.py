#!/usr/bin/env python3
"""Renders one plane of a yeex snapshot (NAME.h5 beside NAME.xdmf) to a PNG with matplotlib:
the field in a symmetric colour map, axes in metres, the outlines of the deck's objects, the
sources and probes on the plane, and a title with the component, the plane, the step and the time.

    scripts/render_snapshot.py OUT/ez_xy.h5 --out ez.png
    scripts/render_snapshot.py OUT/vol.h5 --component Hy --axis y --position 0.03 --log --out hy.png

Colour: the scale is symmetric about zero and, by default, ends at the 99.5th percentile of |field|
on the plane (--percentile), leaving out the nodes in a source's reactive near field (within
c / (2 pi f) of it, f the source's frequency; --near sets the radius in metres, 0 keeps every
node): a dipole's near field grows as 1/r^3 and, while the source is on, would wash out the
radiated wave. Values beyond the end take the end colours (the colour bar's arrows). --range VMAX
sets the end instead; --log uses a symmetric log scale over --decades decades below the end.

Orientation: the picture is a view from outside the plane, never a mirror image. A plane normal
to z is seen from +z (x to the right, y up), one normal to x from +x (y to the right, z up), one
normal to y from -y (x to the right, z up). In each, the right-handed triad (right, up, towards
the viewer) is (x, y, z), (y, z, x) or (x, z, -y).

Positions: each value is drawn at its component's own position in the plane (the Yee stagger,
the dataset's `stagger` attribute); the plane is named by its nodes' coordinate. The outlines,
sources and probes come from run.json beside the snapshot (the run's resolved deck) or from
--deck (a run.json or a deck .toml); without either, the picture has no outlines.

--step: a step stored in the file (e.g. 100), 'last' (default) or 'first'. Bad arguments or a
file that is not a yeex snapshot: a message and exit status 2, no PNG written.
"""
import argparse
import json
import math
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as colors  # noqa: E402
import matplotlib.patches as patches  # noqa: E402
import matplotlib.patheffects as patheffects  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

AXES = "xyz"
C0 = 299792458.0  # m/s
# The picture's (horizontal, vertical) axes for a plane normal to x, y, z (see Orientation above).
VIEW = {0: (1, 2), 1: (0, 2), 2: (0, 1)}
FACES = ("x_min", "x_max", "y_min", "y_max", "z_min", "z_max")
DEFAULT_CPML_CELLS = 10  # io/deck.hpp, CpmlSettings::cells: what a deck .toml without the key gets
HALO = [patheffects.withStroke(linewidth=2.5, foreground="white")]  # labels stay legible on any colour


class InputError(Exception):
    """Bad arguments or input files: reported as one line, exit status 2."""


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def read_snapshot(path, step="last", component=None):
    """The field of one component after one step, with what the picture needs from the file's
    attributes (io/snapshot_writer.hpp lists them). field is indexed [k, j, i] (x fastest)."""
    if path.endswith(".xdmf"):
        path = path[: -len(".xdmf")] + ".h5"
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise InputError("%s: %s" % (path, e)) from None
    with f:
        if text(f.attrs.get("format", "")) != "yeex-snapshot-1":
            raise InputError(path + " is not a yeex snapshot (no format attribute yeex-snapshot-1)")
        groups = sorted((int(f[name].attrs["step"]), name) for name in f if name.startswith("step_"))
        if not groups:
            raise InputError(path + ": no steps")
        steps = [s for s, _ in groups]
        if step == "last":
            chosen = groups[-1]
        elif step == "first":
            chosen = groups[0]
        elif str(step).isdigit() and int(step) in steps:
            chosen = groups[steps.index(int(step))]
        else:
            raise InputError("step %s not in %s (steps: %s)" % (step, path, ", ".join(map(str, steps))))
        group = f[chosen[1]]
        names = list(group.keys())
        component = component or names[0]
        if component not in group:
            raise InputError("component %s not in %s (it has %s)" % (component, path, ", ".join(names)))
        dataset = group[component]
        plane = text(f.attrs["plane_axis"])
        return {
            "path": path,
            "field": np.asarray(dataset[...], dtype=float),
            "component": component,
            "units": text(dataset.attrs["units"]),
            "time": float(dataset.attrs["time"]),
            "stagger": np.asarray(dataset.attrs["stagger"], dtype=float),
            "step": chosen[0],
            "steps": steps,
            "dt": float(f.attrs["dt"]),
            "cell_size": np.asarray(f.attrs["cell_size"], dtype=float),
            "origin": np.asarray(f.attrs["origin"], dtype=float),
            "plane_axis": AXES.index(plane) if plane in AXES else None,
        }


def node_index(n_nodes, origin, cell, position):
    """The stored node nearest `position` (m) along one axis; None when it is outside the array."""
    index = int(round((position - origin) / cell))
    return index if 0 <= index < n_nodes else None


def plane_image(field, origin, cell_size, normal, index, stagger=(0.0, 0.0, 0.0)):
    """The 2-D picture of the plane `index` (a node number along `normal`) of field[k, j, i].

    Returns (image, extent, (h, v)): image[row, column] with rows along axis v and columns along
    axis h, both increasing, for imshow(image, origin="lower", extent=extent); extent is
    [h_min, h_max, v_min, v_max] in metres, the edges of pixels centred on the values' positions.
    """
    h, v = VIEW[normal]
    # field is [k, j, i]: array axis 2 - a holds spatial axis a.
    plane = np.take(field, index, axis=2 - normal)  # the two remaining array axes are (v, h) in order
    remaining = [a for a in (2, 1, 0) if a != normal]  # spatial axes of plane's array axes 0 and 1
    image = plane if remaining == [v, h] else plane.T
    extent = []
    for a, n in ((h, image.shape[1]), (v, image.shape[0])):
        first = origin[a] + stagger[a] - 0.5 * cell_size[a]
        extent += [first, first + n * cell_size[a]]
    return image, extent, (h, v)


def near_source_mask(image, extent, normal, position, sources, radius=None):
    """True for the pixels of image (laid out by plane_image) that count towards the colour range:
    those farther than `radius` (m; default c / (2 pi f) per source) from every source."""
    h, v = VIEW[normal]
    rows, columns = image.shape
    ph = extent[0] + (np.arange(columns) + 0.5) * (extent[1] - extent[0]) / columns
    pv = extent[2] + (np.arange(rows) + 0.5) * (extent[3] - extent[2]) / rows
    keep = np.ones(image.shape, dtype=bool)
    for source in sources:
        r = radius if radius is not None else C0 / (2 * math.pi * source["frequency"])
        p = source["position"]
        d2 = (ph[np.newaxis, :] - p[h]) ** 2 + (pv[:, np.newaxis] - p[v]) ** 2 + (position - p[normal]) ** 2
        keep &= d2 >= r * r
    return keep


def colour_limit(values, percentile=99.5, vmax=None, keep=None):
    """The end of the symmetric colour scale: vmax when given, else the percentile of |values|
    where keep is True (all of them when keep is None or keeps none; the largest |value| when that
    percentile is zero); 1 for an all-zero field."""
    if vmax is not None:
        return float(vmax)
    if keep is not None and keep.any():
        values = values[keep]
    magnitude = np.abs(values[np.isfinite(values)])
    if magnitude.size == 0:
        return 1.0
    limit = float(np.percentile(magnitude, percentile))
    if limit <= 0.0:
        limit = float(magnitude.max())
    return limit if limit > 0.0 else 1.0


def colour_norm(limit, log=False, decades=3.0):
    if log:
        return colors.SymLogNorm(linthresh=limit * 10.0 ** -decades, linscale=0.5, vmin=-limit, vmax=limit, base=10)
    return colors.Normalize(vmin=-limit, vmax=limit)


def load_deck(path):
    """The deck as a dict with the keys of a deck .toml: from run.json's "deck" or a .toml file."""
    try:
        if path.endswith(".toml"):
            import tomllib  # Python 3.11 and later: only a .toml deck needs it

            with open(path, "rb") as f:
                return tomllib.load(f)
        with open(path) as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError("%s: %s" % (path, e)) from None
    return document.get("deck", document)


def cpml_depths(deck):
    """{face: thickness in cells} of the deck's CPML faces (run.json lists every face; a .toml may
    give `all` and single faces)."""
    boundary = deck.get("boundary", {})
    cells = boundary.get("cpml", {}).get("cells", DEFAULT_CPML_CELLS)
    default = boundary.get("all", "pec")
    return {face: cells for face in FACES if boundary.get(face, default) == "cpml"}


def outlines(deck, normal, position):
    """Where the deck's objects cut the plane `normal` = `position` (m), in the picture's axes:
    a list of ("rectangle", (h0, v0, width, height), material) and ("circle", (h, v, r), material)."""
    h, v = VIEW[normal]
    shapes = []
    for g in deck.get("geometry", []):
        material = g.get("material", "")
        shape = g.get("shape")
        if shape == "box":
            lower, upper = g["lower"], g["upper"]
            if lower[normal] <= position <= upper[normal]:
                shapes.append(("rectangle", (lower[h], lower[v], upper[h] - lower[h], upper[v] - lower[v]), material))
        elif shape == "sphere":
            d = position - g["centre"][normal]
            if abs(d) < g["radius"]:
                shapes.append(("circle", (g["centre"][h], g["centre"][v], math.sqrt(g["radius"] ** 2 - d * d)),
                               material))
        elif shape == "cylinder":
            axis = AXES.index(g["axis"])
            centre, radius, low, high = g["centre"], g["radius"], g["lower"], g["upper"]
            if axis == normal:
                if low <= position <= high:
                    shapes.append(("circle", (centre[h], centre[v], radius), material))
                continue
            d = position - centre[normal]
            if abs(d) >= radius:
                continue
            half = math.sqrt(radius * radius - d * d)  # half width of the cut across the axis
            across = h if axis == v else v
            span = {axis: (low, high - low), across: (centre[across] - half, 2 * half)}
            shapes.append(("rectangle", (span[h][0], span[v][0], span[h][1], span[v][1]), material))
    return shapes


def points_on_plane(deck, normal, position, tolerance):
    """Sources and probes within `tolerance` (m) of the plane: [(kind, name, h, v)]."""
    h, v = VIEW[normal]
    found = []
    for kind, key in (("source", "source"), ("probe", "probe")):
        for item in deck.get(key, []):
            p = item["position"]
            if abs(p[normal] - position) <= tolerance:
                found.append((kind, item.get("name", kind), p[h], p[v]))
    return found


def format_time(seconds):
    return "%.4g ns" % (seconds * 1e9) if abs(seconds) >= 1e-9 else "%.4g ps" % (seconds * 1e12)


def draw_deck(ax, deck, normal, position, snapshot, extent):
    h, v = VIEW[normal]
    materials = {m["name"]: m for m in deck.get("material", [])}
    for kind, geometry, material in outlines(deck, normal, position):
        pec = material == "pec"
        style = dict(fill=pec, facecolor="0.55", edgecolor="k", lw=1.3, ls="-" if pec else "--", zorder=3)
        if kind == "rectangle":
            h0, v0, width, height = geometry
            ax.add_patch(patches.Rectangle((h0, v0), width, height, **style))
            label_at = (h0, v0 + height)
        else:
            ch, cv, r = geometry
            ax.add_patch(patches.Circle((ch, cv), r, **style))
            label_at = (ch - r * math.sqrt(0.5), cv + r * math.sqrt(0.5))
        eps = materials.get(material, {}).get("eps_r")
        name = material + (" (eps_r %g)" % eps if eps is not None else "")
        ax.annotate(name, label_at, xytext=(3, -3), textcoords="offset points", ha="left", va="top",
                    fontsize=8, color="k", zorder=4, clip_on=True, path_effects=HALO)
    depths = cpml_depths(deck)
    if depths:  # the CPML's inner edges: the field beyond them is absorbed, not physical
        cells = deck["grid"]["cells"]
        size = deck["grid"]["cell_size"]
        low = [depths.get(AXES[a] + "_min", 0) * size[a] for a in range(3)]
        high = [(cells[a] - depths.get(AXES[a] + "_max", 0)) * size[a] for a in range(3)]
        ax.add_patch(patches.Rectangle((low[h], low[v]), high[h] - low[h], high[v] - low[v], fill=False,
                                       edgecolor="0.3", lw=0.9, ls=":", zorder=3))
        ax.annotate("CPML", (high[h], high[v]), xytext=(-2, 2), textcoords="offset points", ha="right",
                    va="bottom", fontsize=7, color="0.3", zorder=4, path_effects=HALO)
    tolerance = 0.5 * snapshot["cell_size"][normal]
    for kind, name, ph, pv in points_on_plane(deck, normal, position, tolerance):
        marker = dict(marker="x", color="k", ms=7, mew=1.5) if kind == "source" else \
            dict(marker="o", mfc="none", color="k", ms=6, mew=1.2)
        ax.plot([ph], [pv], ls="none", zorder=5, **marker)
        ax.annotate(name, (ph, pv), xytext=(6, 5), textcoords="offset points", fontsize=8, zorder=5,
                    path_effects=HALO)
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("snapshot", help="snapshot NAME.h5 (or NAME.xdmf) written by yeex run")
    p.add_argument("--component", help="Ex Ey Ez Hx Hy Hz (default: the first in the file)")
    p.add_argument("--step", default="last", help="step number stored in the file, 'first' or 'last' (default)")
    p.add_argument("--axis", choices=list(AXES), help="the normal of the plane cut from a volume (default z)")
    p.add_argument("--position", type=float, help="where a volume is cut, in metres along --axis (default: the middle)")
    p.add_argument("--range", type=float, metavar="VMAX", help="colour scale from -VMAX to VMAX, in the field's units")
    p.add_argument("--percentile", type=float, default=99.5,
                   help="without --range, the scale ends at this percentile of |field| (default 99.5)")
    p.add_argument("--near", type=float, metavar="METRES",
                   help="without --range, leave out nodes this close to a source (default c / (2 pi f))")
    p.add_argument("--log", action="store_true", help="symmetric log colour scale")
    p.add_argument("--decades", type=float, default=3.0, help="decades shown below VMAX with --log (default 3)")
    p.add_argument("--deck", help="run.json or deck .toml with the objects (default: run.json beside the snapshot)")
    p.add_argument("--out", required=True, help="PNG to write")
    p.add_argument("--size", default="1000x800", help="image size WxH in pixels (default 1000x800)")
    args = p.parse_args(argv)
    if args.range is not None and not args.range > 0:
        p.error("--range must be a positive number, got %g" % args.range)
    if not 0 < args.percentile <= 100:
        p.error("--percentile must be in (0, 100], got %g" % args.percentile)
    if args.near is not None and not args.near >= 0:
        p.error("--near must be a distance >= 0 in metres, got %g" % args.near)
    if not args.decades > 0:
        p.error("--decades must be positive, got %g" % args.decades)
    try:
        args.size = [int(n) for n in args.size.split("x")]
        if len(args.size) != 2 or min(args.size) < 100:
            raise ValueError
    except ValueError:
        p.error("--size must be WxH in pixels, each at least 100, e.g. 1000x800")
    return args


def choose_plane(snapshot, axis, position):
    """(normal, node index) of the plane to draw."""
    field, origin, cell = snapshot["field"], snapshot["origin"], snapshot["cell_size"]
    nodes = field.shape[::-1]  # x, y, z
    normal = snapshot["plane_axis"]
    if normal is not None:
        if axis is not None and AXES.index(axis) != normal:
            raise InputError("%s is a plane normal to %s: --axis %s cannot cut it" % (snapshot["path"], AXES[normal], axis))
        if position is not None and node_index(1, origin[normal], cell[normal], position) is None:
            raise InputError("%s is the plane %s = %g m: --position %g m is not on it"
                             % (snapshot["path"], AXES[normal], origin[normal], position))
        return normal, 0
    normal = AXES.index(axis or "z")
    if position is None:
        return normal, nodes[normal] // 2
    index = node_index(nodes[normal], origin[normal], cell[normal], position)
    if index is None:
        last = origin[normal] + (nodes[normal] - 1) * cell[normal]
        raise InputError("--position %g m is outside the snapshot (%s from %g to %g m)"
                         % (position, AXES[normal], origin[normal], last))
    return normal, index


def render(args):
    snapshot = read_snapshot(args.snapshot, args.step, args.component)
    deck_path = args.deck or os.path.join(os.path.dirname(os.path.abspath(snapshot["path"])), "run.json")
    deck = load_deck(deck_path) if args.deck or os.path.exists(deck_path) else None
    if deck is None:
        print("render_snapshot: no run.json beside %s and no --deck: no outlines" % snapshot["path"], file=sys.stderr)
    normal, index = choose_plane(snapshot, args.axis, args.position)
    origin, cell = snapshot["origin"], snapshot["cell_size"]
    image, extent, (h, v) = plane_image(snapshot["field"], origin, cell, normal, index, snapshot["stagger"])
    position = origin[normal] + index * cell[normal]
    keep = None
    component, units = snapshot["component"], snapshot["units"]
    how = "--range" if args.range is not None else "%gth percentile of |%s|" % (args.percentile, component)
    if args.range is None and deck is not None and deck.get("source") and args.near != 0:
        keep = near_source_mask(image, extent, normal, position, deck["source"], args.near)
        if not keep.all():
            radii = {args.near if args.near is not None else C0 / (2 * math.pi * s["frequency"])
                     for s in deck["source"]}
            how += (" beyond %.3g mm of the sources" % (radii.pop() * 1e3) if len(radii) == 1
                    else " beyond c / (2 pi f) of each source")
    limit = colour_limit(image, args.percentile, args.range, keep)

    width, height = args.size
    fig, ax = plt.subplots(figsize=(width / 100, height / 100), dpi=100)
    shown = ax.imshow(image, origin="lower", extent=extent, cmap="RdBu_r", interpolation="nearest",
                      norm=colour_norm(limit, args.log, args.decades), zorder=1)
    if deck is not None:
        draw_deck(ax, deck, normal, position, snapshot, extent)
    bar = fig.colorbar(shown, ax=ax, extend="both", shrink=0.9)
    if args.log:  # one tick per decade each side of zero; the linear band around zero unlabelled
        ends = [limit * 10.0 ** -k for k in range(int(args.decades))]
        bar.set_ticks([-e for e in ends] + [0.0] + ends[::-1])
        bar.set_ticklabels(["%.3g" % -e for e in ends] + ["0"] + ["%.3g" % e for e in ends[::-1]])
    bar.set_label("%s (%s), %s scale to ±%.3g\n(%s)" % (component, units, "log" if args.log else "linear", limit, how))
    ax.set_xlabel("%s (m)" % AXES[h])
    ax.set_ylabel("%s (m)" % AXES[v])
    ax.set_aspect("equal")
    seen_from = {0: "+x", 1: "-y", 2: "+z"}[normal]
    title = "%s on the plane %s = %.4g m (seen from %s), step %d, t = %s" % (
        component, AXES[normal], position, seen_from, snapshot["step"], format_time(snapshot["time"]))
    if deck is not None and deck.get("title"):
        title = deck["title"] + "\n" + title
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(args.out)
    except OSError as e:
        raise InputError("cannot write %s: %s" % (args.out, e)) from None
    plt.close(fig)
    peak = np.abs(image).max()
    print("render_snapshot: %s step %d (t = %s), %s on %s = %.4g m, |%s| up to %.3g %s, colour to ±%.3g -> %s"
          % (snapshot["path"], snapshot["step"], format_time(snapshot["time"]), component, AXES[normal], position,
             component, peak, units, limit, args.out))


def main(argv):
    args = parse_args(argv)
    try:
        render(args)
    except InputError as e:
        print("render_snapshot: " + str(e), file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
