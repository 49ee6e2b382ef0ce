#!/usr/bin/env python3
"""The report of a `yeex survey`: report.md, a self-contained report.html (every plot embedded as a
data: URI) and the PNGs, from DIR/survey.json alone (no GPU needed).

    scripts/survey_report.py DIR

`yeex survey` runs it into its staging folder; `yeex survey --from DIR` runs it again.
docs/survey.md explains every section. Needs matplotlib (scripts/setup.sh pictures).
"""
import base64
import html
import json
import math
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SECTIONS = [
    "Machine",
    "Best backend",
    "Scaling efficiency",
    "Efficiency by link class",
    "Exchange time against the wire",
    "P2P heat maps",
    "One-GPU speed",
    "Placement and pinning",
    "What-if",
    "Phases",
    "Definitions",
]


def pct(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f} %"


def ms(x):
    return "-" if x is None or x == 0 else f"{1e3 * x:.4f}"


def label(row):
    return row["exchange"] + (f" R{row['halo_depth']}" if row.get("halo_depth", 1) > 1 else "")


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


class Report:
    def __init__(self, folder):
        self.folder = folder
        self.md = []
        self.images = []

    def section(self, title):
        self.md.append(f"\n## {title}\n")

    def text(self, s):
        self.md.append(s + "\n")

    def figure(self, fig, name, alt):
        path = self.folder / name
        fig.savefig(path, dpi=110, bbox_inches="tight")
        plt.close(fig)
        self.images.append(name)
        self.md.append(f"![{alt}]({name})\n")


def measured_rows(survey, kind=None, peer=None):
    for phase in survey["phases"]:
        if phase["status"] != "ran" or (kind and phase["kind"] != kind):
            continue
        if peer is not None and phase["peer_access"] != peer:
            continue
        for r in phase["rows"]:
            if not r["skipped"]:
                yield phase, r


def machine(rep, s):
    prov = s.get("provenance", {})
    gpus = s.get("topology", {}).get("gpus", [])
    rep.text(f"`{s['command']}`  \n{s['engine']} engine ({s.get('engine_description', '')}), {s['precision']}, "
             f"budget {s['budget_seconds']:.0f} s, measured in {s['elapsed_seconds']:.0f} s, {s.get('created', '')}.")
    rep.text(f"yeex {prov.get('yeex_version', '?')} ({prov.get('git_commit', '?')}), {prov.get('compiler', '?')}, "
             f"CUDA {prov.get('cuda_runtime', '?')}, NCCL {prov.get('nccl', '?')}; host {prov.get('host', '?')} "
             f"({prov.get('cpu_threads', '?')} CPU threads).")
    if gpus:
        rep.text(table(["GPU", "name", "PCI bus id", "NUMA", "NVLinks", "CPU affinity"],
                       [[g["device"], g["name"], g["pci_bus_id"], g["numa_node"], g["nvlinks"], g["cpu_affinity"] or "?"]
                        for g in gpus]))
        types = s["topology"]["link_types"]
        rep.text("\nLink types (as `nvidia-smi topo -m`):\n")
        rep.text(table(["", *[f"GPU{g['device']}" for g in gpus]],
                       [[f"GPU{g['device']}", *types[i]] for i, g in enumerate(gpus)]))
    else:
        rep.text(f"No GPU: {s['engine']} engine, up to {s.get('slabs')} z-slabs on the CPU; the link sections "
                 "below are empty.")
    for note in s.get("notes", []):
        rep.text(f"- {note}")


def best_backend(rep, s):
    best = {}
    for phase, r in measured_rows(s, "scaling"):
        if r["exchange"] == "-" or r["devices"] < 2:
            continue
        key = (r["scaling"], r["size"], r["devices"])
        if key not in best or r["gcells_per_s"] > best[key]["gcells_per_s"]:
            best[key] = r
    if not best:
        rep.text("No multi-device row was measured.")
        return
    rep.text("The fastest backend of each grid and device count (peer access on), by Gcells/s.")
    rep.text(table(["scaling", "size", "devices", "best backend", "Gcells/s", "efficiency"],
                   [[k[0], k[1], k[2], label(r), f"{r['gcells_per_s']:.2f}", pct(r["efficiency"])]
                    for k, r in sorted(best.items())]))


def scaling(rep, s):
    for scaling_kind in ("strong", "weak"):
        lines = defaultdict(lambda: defaultdict(dict))  # size -> backend -> devices -> eff
        for phase, r in measured_rows(s, "scaling"):
            if r["scaling"] != scaling_kind and r["exchange"] != "-":
                continue
            if r["exchange"] == "-":
                continue
            lines[r["size"]][label(r)][r["devices"]] = r["efficiency"]
        if not lines:
            continue
        rep.text(f"\n### {scaling_kind.capitalize()} scaling\n")
        sizes = sorted(lines)
        fig, axes = plt.subplots(1, len(sizes), figsize=(4.2 * len(sizes), 3.4), squeeze=False)
        for ax, size in zip(axes[0], sizes):
            counts = sorted({n for b in lines[size].values() for n in b})
            rep.text(f"Size {size} ({'global grid' if scaling_kind == 'strong' else 'per device'}), efficiency:\n")
            rep.text(table(["backend", *[f"N={n}" for n in counts]],
                           [[b, *[pct(v.get(n)) for n in counts]] for b, v in sorted(lines[size].items())]))
            rep.text("")
            top = 110
            for b, v in sorted(lines[size].items()):
                points = sorted({1: 1.0, **v}.items())  # the engine's 1-device row is 100 % by definition
                ax.plot([n for n, _ in points], [100 * e for _, e in points], marker="o", label=b)
                top = max([top] + [105 * e for _, e in points])
            ax.axhline(100, color="grey", lw=0.8, ls="--")
            ax.set_title(f"{scaling_kind}, size {size}")
            ax.set_xlabel("devices")
            ax.set_ylabel("efficiency [%]")
            ax.set_ylim(0, top)
            ax.set_xlim(left=0)
        axes[0][-1].legend(fontsize=7, loc="lower left")
        rep.figure(fig, f"efficiency_{scaling_kind}.png", f"{scaling_kind} efficiency by backend")


def link_classes(rep, s):
    cells = defaultdict(dict)  # backend -> (class, peer) -> eff
    classes = []
    for phase, r in measured_rows(s, "link-class"):
        if r["exchange"] == "-" or r["devices"] != 2:
            continue
        key = (phase["link_class"], "on" if phase["peer_access"] else "off")
        if key not in classes:
            classes.append(key)
        cells[label(r)][key] = r["efficiency"]
    if not cells:
        rep.text("No link-class phase ran (it needs the cuda engine and two GPUs, and a budget that reaches it).")
        return
    classes.sort()
    rep.text("Strong efficiency on two GPUs joined by each link class, peer access on and off side by side.")
    rep.text(table(["backend", *[f"{c} peer {p}" for c, p in classes]],
                   [[b, *[pct(v.get(k)) for k in classes]] for b, v in sorted(cells.items())]))
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(cells) * len(classes) / 2), 3.4))
    width = 0.8 / len(classes)
    backends = sorted(cells)
    for i, k in enumerate(classes):
        ax.bar([j + i * width for j in range(len(backends))],
               [100 * (cells[b].get(k) or 0) for b in backends], width, label=f"{k[0]} peer {k[1]}")
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(backends))], backends, rotation=30, fontsize=8)
    ax.set_ylabel("strong efficiency, 2 GPUs [%]")
    ax.set_ylim(0, 110)
    ax.legend(fontsize=7)
    rep.figure(fig, "efficiency_by_link.png", "efficiency by link class and backend")


def wire(rep, s):
    checks = [c for c in s.get("model_check", []) if c.get("measured_exchange_seconds_per_step")]
    if not checks:
        rep.text("No synchronous backend measured an exchange time with a prediction beside it (the host engine has "
                 "no P2P sweep; on GPUs the p2p and host-staged rows have one).")
        return
    rep.text("Measured exchange per step (host clock, slowest device) against the wire time the P2P sweep predicts "
             "and against the what-if model on this machine's own matrices (its error on this machine).")
    rows = []
    for c in checks:
        m, sw, mo = c["measured_exchange_seconds_per_step"], c["sweep_exchange_seconds_per_step"], \
            c["model_exchange_seconds_per_step"]
        rows.append([c["phase"], c["scaling"], c["size"], c["exchange"], c["devices"], ms(m), ms(sw),
                     f"{m / sw:.2f}" if sw else "-", ms(mo), pct(c["measured_efficiency"]), pct(c["model_efficiency"])])
    rep.text(table(["phase", "scaling", "size", "backend", "N", "measured ms", "sweep ms", "measured/sweep",
                    "model ms", "measured eff.", "model eff."], rows))
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for c in checks:
        pred = c["sweep_exchange_seconds_per_step"] or c["model_exchange_seconds_per_step"]
        if pred:
            ax.scatter(1e3 * pred, 1e3 * c["measured_exchange_seconds_per_step"], s=14)
    lim = max([1e3 * (c["measured_exchange_seconds_per_step"] or 0) for c in checks] + [1e-3])
    ax.plot([0, lim], [0, lim], color="grey", lw=0.8, ls="--", label="measured = wire")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("predicted wire time per step [ms]")
    ax.set_ylabel("measured exchange per step [ms]")
    ax.legend(fontsize=7)
    rep.figure(fig, "exchange_vs_wire.png", "measured exchange against predicted wire time")


def heat_map(rep, m, name):
    values = [[float("nan") if v is None else v for v in row] for row in m["values"]]
    finite = [v for row in values for v in row if not math.isnan(v)]
    if not finite:
        return
    fig, ax = plt.subplots(figsize=(1.0 + 0.7 * len(m["columns"]), 0.8 + 0.6 * len(m["rows"])))
    image = ax.imshow(values, cmap="viridis", vmin=0, vmax=max(finite))
    ax.set_xticks(range(len(m["columns"])), m["columns"])
    ax.set_yticks(range(len(m["rows"])), m["rows"])
    ax.set_xlabel(m.get("column_label", "src"))
    ax.set_ylabel(m.get("row_label", "dst"))
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7, color="white" if v < max(finite) / 2 else "black")
    fig.colorbar(image, ax=ax, label=m.get("unit", ""))
    ax.set_title(m["title"], fontsize=9)
    rep.figure(fig, name, f"heat map {m['title']}")


def heat_maps(rep, s):
    shown = 0
    doc = (s.get("p2p") or {}).get("document") or {}
    for result in doc.get("results", []):
        for m in result.get("matrices", []):
            if m.get("rows") and m.get("columns") and len(m["rows"]) == len(m["columns"]):
                heat_map(rep, m, "p2p_" + m["title"].replace("/", "_") + ".png")
                shown += 1
    if not shown:
        rep.text(f"No P2P matrix: yeex-p2p {s.get('p2p', {}).get('status', 'skipped')}"
                 f" ({s.get('p2p', {}).get('why', '')}). Every colour scale starts at zero.")


def one_gpu(rep, s):
    copy = s.get("copy_bandwidth_gb_per_s") or 0
    per_cell = s.get("bytes_per_cell_step", 72)
    rows, sizes, fractions = [], [], []
    for phase, r in measured_rows(s, "scaling"):
        if r["exchange"] == "-" and r["scaling"] == "strong":
            eff_bw = r["gcells_per_s"] * per_cell
            rows.append([r["size"], f"{r['gcells_per_s']:.3f}", f"{eff_bw:.1f}", f"{copy:.1f}",
                         pct(eff_bw / copy) if copy else "-"])
            sizes.append(str(r["size"]))
            fractions.append(100 * eff_bw / copy if copy else 0)
    if not rows:
        return
    rep.text(f"One device's speed against its copy bandwidth ({copy:.0f} GB/s, read + write): effective GB/s = "
             f"Gcells/s x {per_cell:.0f} B/cell/step.")
    rep.text(table(["size", "Gcells/s", "effective GB/s", "copy GB/s", "fraction"], rows))
    fig, ax = plt.subplots(figsize=(4.5, 3.0))
    ax.bar(sizes, fractions, color="tab:green")
    ax.axhline(100, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, max(110, max(fractions) * 1.1))
    ax.set_xlabel("cube edge")
    ax.set_ylabel("effective / copy bandwidth [%]")
    rep.figure(fig, "one_device_vs_copy.png", "one-device speed against copy bandwidth")


def placement(rep, s):
    p = s.get("placement", {})
    if s["engine"] != "cuda":
        rep.text("The host engine's slabs are OpenMP threads: no GPU order, no pinning.")
        return
    order = p.get("order", [])
    links = p.get("boundary_links", [])
    chain = " ".join(f"{d} -[{links[i]}]-" if i < len(links) else str(d) for i, d in enumerate(order))
    rep.text(f"Slab chain ({p.get('chosen_by', '')}): {chain}")
    pin = s.get("pinning", {})
    rep.text(f"Host threads pinned: {'yes' if pin.get('enabled') else 'no'}; CPUs by GPU: "
             f"{', '.join(pin.get('cpus_by_device', [])) or '?'}")
    pinned = {(r["size"], r["devices"]): r for _, r in measured_rows(s, "scaling") if r["exchange"] == "host-staged"
              and r["scaling"] == "strong"}
    rows = []
    for _, r in measured_rows(s, "unpinned"):
        if r["exchange"] != "host-staged":
            continue
        q = pinned.get((r["size"], r["devices"]))
        rows.append([r["size"], r["devices"], ms(q["seconds_per_step_median"]) if q else "-",
                     ms(r["seconds_per_step_median"]),
                     f"{r['seconds_per_step_median'] / q['seconds_per_step_median']:.3f}" if q else "-"])
    if rows:
        rep.text("What pinning is worth for host-staged (strong scaling, ms per step):")
        rep.text(table(["size", "N", "pinned", "unpinned", "unpinned / pinned"], rows))


def what_if(rep, s):
    w = s.get("what_if")
    if not w:
        rep.text("No --what-if matrices were given. `yeex survey --from DIR --what-if P2P.txt` adds this section.")
        return
    links = w["links"]
    rep.text(f"Links of another machine from `{links['source']}` ({links['format']}), GPUs {', '.join(links['gpus'])}.")
    for note in links.get("notes", []):
        rep.text(f"- {note}")
    rep.text(f"\n**Model.** {w['model']}.\n\n**Assumptions.**\n")
    for a in w["assumptions"]:
        rep.text(f"- {a}")
    measured = {(r["scaling"], r["size"], r["exchange"], r["devices"]): r for _, r in measured_rows(s, "scaling")}
    rows = []
    for p in w["predictions"]:
        m = measured.get((p["scaling"], p["size"], p["exchange"], p["devices"]))
        rows.append([p["scaling"], p["size"], p["exchange"], p["devices"], ",".join(p["gpus"]),
                     ms(p["exchange_seconds_per_step"]) if not p["skipped"] else "-", pct(p["efficiency"]),
                     pct(m["efficiency"]) if m else "-", p["skipped"]])
    rep.text("")
    rep.text(table(["scaling", "size", "backend", "N", "GPUs", "predicted exch ms", "predicted eff.",
                    "measured here", "not predicted"], rows))
    for heat in ("peer_bandwidth", "staged_bandwidth", "peer_latency"):
        if links.get(heat):
            heat_map(rep, links[heat], f"what_if_{heat}.png")
    series = defaultdict(list)
    for p in w["predictions"]:
        if p["efficiency"] is not None and p["scaling"] == "strong":
            series[(p["exchange"], p["size"])].append((p["devices"], 100 * p["efficiency"]))
    if series:
        fig, ax = plt.subplots(figsize=(5.5, 3.6))
        for (e, size), pts in sorted(series.items()):
            pts.sort()
            ax.plot([1] + [n for n, _ in pts], [100] + [v for _, v in pts], marker="o", label=f"{e} {size}")
        ax.set_ylim(0, 110)
        ax.set_xlim(left=0)
        ax.set_xlabel("GPUs")
        ax.set_ylabel("predicted strong efficiency [%]")
        ax.legend(fontsize=6, ncol=2)
        rep.figure(fig, "what_if_efficiency.png", "predicted strong efficiency")


def phases(rep, s):
    rep.text(table(["phase", "status", "devices", "peer", "pinned", "estimated s", "took s", "why skipped"],
                   [[p["name"], p["status"], ",".join(map(str, p["devices"])) or "-", "on" if p["peer_access"] else "off",
                     "yes" if p["pinned"] else "no", f"{p['estimated_seconds']:.0f}", f"{p['seconds']:.1f}",
                     p["skipped"]] for p in s["phases"]]))


def definitions(rep, s):
    for k, v in s.get("definitions", {}).items():
        rep.text(f"- **{k}**: {v}")
    for k, v in s.get("model_check_definition", {}).items():
        rep.text(f"- **predicted exchange ({k})**: {v}")


HTML_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 1.5em auto; padding: 0 1em; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: right; }
th { background: #eee; }
img { max-width: 100%; height: auto; display: block; margin: 0.6em 0; }
code { background: #f4f4f4; }
h2 { border-bottom: 1px solid #ccc; page-break-after: avoid; }
img, table { page-break-inside: avoid; }
@media print { body { max-width: none; } }
"""


def markdown_to_html(md, folder):
    """The little markdown the report uses: headings, tables, lists, images, paragraphs."""
    out, table_rows = [], []

    def inline(t):
        t = html.escape(t)
        parts = t.split("`")
        t = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
        parts = t.split("**")
        return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))

    def flush():
        if table_rows:
            head, *body = table_rows
            out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr>")
            out.extend("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>" for r in body)
            out.append("</table>")
            table_rows.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-") and c for c in cells):
                table_rows.append(cells)
            continue
        flush()
        if line.startswith("!["):
            alt, name = line[2:].split("](")
            data = base64.b64encode((folder / name.rstrip(")")).read_bytes()).decode()
            out.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')
        elif line.startswith("### "):
            out.append(f"<h3>{inline(line[4:])}</h3>")
        elif line.startswith("## "):
            title = line[3:]
            out.append(f'<h2 id="{title.lower().replace(" ", "-")}">{inline(title)}</h2>')
        elif line.startswith("# "):
            out.append(f"<h1>{inline(line[2:])}</h1>")
        elif line.startswith("- "):
            out.append(f"<ul><li>{inline(line[2:])}</li></ul>")
        elif line.strip():
            out.append(f"<p>{inline(line.rstrip().rstrip(' '))}</p>")
    flush()
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>yeex survey</title><style>{HTML_STYLE}</style></head><body>\n" + "\n".join(out) +
            "\n</body></html>\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = pathlib.Path(sys.argv[1])
    survey = json.loads((folder / "survey.json").read_text())
    rep = Report(folder)
    gpus = survey.get("topology", {}).get("gpus", [])
    what = f"{len(gpus)} x {gpus[0]['name']}" if gpus else f"{survey['engine']} engine"
    rep.text(f"# yeex survey: {what}")
    for title, fill in zip(SECTIONS, [machine, best_backend, scaling, link_classes, wire, heat_maps, one_gpu,
                                      placement, what_if, phases, definitions]):
        rep.section(title)
        fill(rep, survey)
    md = "".join(line if line.endswith("\n") else line + "\n" for line in rep.md)
    (folder / "report.md").write_text(md)
    (folder / "report.html").write_text(markdown_to_html(md, folder))


if __name__ == "__main__":
    main()
