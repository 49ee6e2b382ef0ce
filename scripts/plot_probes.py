#!/usr/bin/env python3
"""Plots a probe of a yeex run (probes.h5): the trace against time in ns (an A-scan) and its
spectrum, to one PNG. With --cavity the spectrum also marks the resonances of the PEC box the run
used (read from run.json beside probes.h5): the discrete Yee frequencies, which the peaks hit,
and the continuum ones.

    scripts/plot_probes.py OUT/probes.h5 --probe rx --component Ez --out ascan.png
    scripts/plot_probes.py cavity-out/probes.h5 --probe rx --component Ez --cavity --out cavity.png

Without --probe/--component: the first probe and its first component. --fmax caps the spectrum
(default: 3 x the highest marked mode, or the Nyquist frequency). Exits 1 with a message when
the file, probe or component is not there.
"""
import argparse
import itertools
import json
import math
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

C0 = 299792458.0


def fail(message):
    print("plot_probes: " + message, file=sys.stderr)
    sys.exit(1)


def cavity_modes(cells, cell_size, dt, count):
    """The `count` lowest (m, n, p) with at most one zero index: (Yee, continuum) Hz."""
    lengths = [n * d for n, d in zip(cells, cell_size)]
    modes = []
    for index in itertools.product(range(5), repeat=3):
        if sum(1 for m in index if m == 0) > 1:
            continue
        spatial = sum((math.sin(m * math.pi * d / (2 * length)) / d) ** 2
                      for m, d, length in zip(index, cell_size, lengths))
        yee = math.asin(C0 * dt * math.sqrt(spatial)) / (math.pi * dt)
        continuum = C0 / 2 * math.sqrt(sum((m / length) ** 2 for m, length in zip(index, lengths)))
        modes.append((yee, continuum, index))
    modes.sort()
    return modes[:count]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("probes", help="probes.h5 written by yeex run")
    p.add_argument("--probe", help="probe name (default: the first)")
    p.add_argument("--component", help="Ex Ey Ez Hx Hy Hz (default: the probe's first)")
    p.add_argument("--cavity", action="store_true", help="mark the PEC box's resonances (needs run.json beside)")
    p.add_argument("--modes", type=int, default=8, help="how many resonances to mark (default 8)")
    p.add_argument("--fmax", type=float, help="highest frequency shown (Hz)")
    p.add_argument("--out", required=True, help="PNG to write")
    args = p.parse_args(argv)

    try:
        f = h5py.File(args.probes, "r")
    except OSError as e:
        fail("%s: %s" % (args.probes, e))
    with f:
        names = list(f["probes"].keys())
        if not names:
            fail(args.probes + ": no probes")
        name = args.probe or names[0]
        if name not in f["probes"]:
            fail("probe %s not in %s (it has %s)" % (name, args.probes, ", ".join(names)))
        group = f["probes"][name]
        components = [c for c in group.keys()]
        component = args.component or group.attrs["components"].decode().split(",")[0]
        if component not in group:
            fail("component %s not recorded by probe %s (it has %s)" % (component, name, ", ".join(components)))
        values = np.asarray(group[component][...], dtype=float)
        dt = float(f.attrs["dt"])
        offset = float(group[component].attrs["time_offset"])
        units = group[component].attrs["units"].decode()
        title = f.attrs["title"].decode()

    t = offset + dt * np.arange(values.size)
    # Spectrum: zero-padded FFT of the Hann-windowed trace, in dB below its peak.
    padded = 1 << int(math.ceil(math.log2(max(8 * values.size, 16))))
    spectrum = np.abs(np.fft.rfft(values * np.hanning(values.size), padded))
    freq = np.fft.rfftfreq(padded, dt)
    level = 20 * np.log10(np.maximum(spectrum / max(spectrum.max(), 1e-300), 1e-12))

    modes = []
    if args.cavity:
        report = os.path.join(os.path.dirname(os.path.abspath(args.probes)), "run.json")
        try:
            with open(report) as r:
                deck = json.load(r)["deck"]
        except (OSError, KeyError, ValueError) as e:
            fail("--cavity needs %s (the run's report): %s" % (report, e))
        modes = cavity_modes(deck["grid"]["cells"], deck["grid"]["cell_size"], deck["time"]["dt"], args.modes)
    fmax = args.fmax or (1.3 * modes[-1][0] if modes else 0.5 / dt)

    fig, (trace, spec) = plt.subplots(2, 1, figsize=(10, 8))
    trace.plot(t * 1e9, values, lw=0.8)
    trace.set_xlabel("time (ns)")
    trace.set_ylabel("%s (%s)" % (component, units))
    trace.set_title("%s: probe %s, %s" % (title, name, component))
    trace.grid(alpha=0.3)
    shown = freq <= fmax
    spec.plot(freq[shown] / 1e9, level[shown], lw=0.8, label="|FFT| (Hann window)")
    for i, (yee, continuum, index) in enumerate(modes):
        label = "".join(map(str, index))
        spec.axvline(yee / 1e9, color="tab:red", lw=0.8, ls="--", label="Yee resonance" if i == 0 else None)
        spec.axvline(continuum / 1e9, color="tab:gray", lw=0.6, ls=":", label="continuum" if i == 0 else None)
        spec.text(yee / 1e9, 2, label, rotation=90, fontsize=8, ha="right", va="bottom", color="tab:red")
    spec.set_xlabel("frequency (GHz)")
    spec.set_ylabel("dB below peak")
    spec.set_ylim(-120, 12)
    spec.grid(alpha=0.3)
    spec.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("plot_probes: %s probe %s %s, %d samples, dt = %.4g s -> %s" % (args.probes, name, component, values.size,
                                                                         dt, args.out))
    for yee, continuum, index in modes:
        print("  mode %s: Yee %.6f GHz, continuum %.6f GHz" % ("".join(map(str, index)), yee / 1e9, continuum / 1e9))


if __name__ == "__main__":
    main(sys.argv[1:])
