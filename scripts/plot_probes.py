#!/usr/bin/env python3
"""Plots a probe of a yeex run (probes.h5): the trace against time in ns (an A-scan) and its
spectrum, to one PNG. With --cavity the spectrum also marks the resonances of the PEC box the run
used (read from run.json beside probes.h5): the discrete Yee frequencies, which the peaks hit,
and the continuum ones.

    scripts/plot_probes.py OUT/probes.h5 --probe rx --component Ez --out ascan.png
    scripts/plot_probes.py cavity-out/probes.h5 --probe rx --component Ez --cavity --out cavity.png

Without --probe/--component: the first probe and its first component. The spectrum shows the
band the sources excite: up to 1.25 x the frequency above which every source's spectrum (its
waveform, sampled as the run drives it, read from run.json beside probes.h5) stays 40 dB below
its peak (--band-db); the sources' spectrum is drawn too. --fmax sets the top instead; with
--cavity, the default is 1.3 x the highest marked mode; without run.json, the Nyquist frequency.
Exits 1 with a message when the file, probe or component is not there.
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


def waveform(kind, f, t):
    """A source's waveform at times t (s): the formulas of waveform_value in src/solver/model.cpp."""
    if kind == "gaussian":
        zeta, tau = 2 * math.pi ** 2 * f * f, t - 1 / f
        return np.exp(-zeta * tau * tau)
    if kind == "gaussian_derivative":
        zeta, tau = 2 * math.pi ** 2 * f * f, t - 1 / f
        return -2 * zeta * tau * np.exp(-zeta * tau * tau)
    if kind == "ricker":
        zeta, tau = math.pi ** 2 * f * f, t - math.sqrt(2) / f
        return -(2 * zeta * tau * tau - 1) * np.exp(-zeta * tau * tau)
    if kind == "ramped_sine":
        return np.minimum(0.25 * f * t, 1.0) * np.sin(2 * math.pi * f * t)
    raise ValueError("unknown waveform " + kind)


def spectrum_db(values, dt, window=True):
    """(frequencies in Hz, level in dB below the peak): zero-padded FFT of the (Hann-windowed) series."""
    padded = 1 << int(math.ceil(math.log2(max(8 * values.size, 16))))
    spectrum = np.abs(np.fft.rfft(values * np.hanning(values.size) if window else values, padded))
    freq = np.fft.rfftfreq(padded, dt)
    return freq, 20 * np.log10(np.maximum(spectrum / max(spectrum.max(), 1e-300), 1e-12))


def source_band(sources, dt, steps, floor_db=40.0):
    """(the sources' summed spectrum as (freq, dB), the highest frequency where it is within
    floor_db of its peak). Sources are driven at (n + 1/2) dt (src/solver/model.cpp). Pulses are
    transformed as they are (they end within the run); a ramped sine through the Hann window."""
    t = (np.arange(steps) + 0.5) * dt
    drive = sum(abs(s.get("amplitude", 1.0)) * waveform(s["waveform"], s["frequency"], t) for s in sources)
    steady = any(s["waveform"] == "ramped_sine" for s in sources)
    freq, level = spectrum_db(np.asarray(drive, dtype=float), dt, window=steady)
    return (freq, level), float(freq[np.nonzero(level >= -floor_db)[0][-1]])


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
    p.add_argument("--band-db", type=float, default=40.0,
                   help="the band ends where the sources' spectrum is this many dB below its peak (default 40)")
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
    freq, level = spectrum_db(values, dt)

    report = os.path.join(os.path.dirname(os.path.abspath(args.probes)), "run.json")
    try:
        with open(report) as r:
            deck = json.load(r)["deck"]
    except (OSError, KeyError, ValueError) as e:
        if args.cavity:
            fail("--cavity needs %s (the run's report): %s" % (report, e))
        print("plot_probes: no source band without %s (%s): spectrum up to the Nyquist frequency" % (report, e),
              file=sys.stderr)
        deck = {}
    modes = []
    if args.cavity:
        modes = cavity_modes(deck["grid"]["cells"], deck["grid"]["cell_size"], deck["time"]["dt"], args.modes)
    source, band = None, None
    if deck.get("source"):
        source, band = source_band(deck["source"], dt, values.size, args.band_db)
    fmax = args.fmax or (1.3 * modes[-1][0] if modes else 1.25 * band if band else 0.5 / dt)
    fmax = min(fmax, 0.5 / dt)

    fig, (trace, spec) = plt.subplots(2, 1, figsize=(10, 8))
    trace.plot(t * 1e9, values, lw=0.8)
    trace.set_xlabel("time (ns)")
    trace.set_ylabel("%s (%s)" % (component, units))
    trace.set_title("%s: probe %s, %s" % (title, name, component))
    trace.grid(alpha=0.3)
    shown = freq <= fmax
    spec.plot(freq[shown] / 1e9, level[shown], lw=0.8, label="|FFT| (Hann window)")
    if source is not None:
        names = ", ".join("%s %s %.3g GHz" % (s.get("name", ""), s["waveform"], s["frequency"] / 1e9)
                          for s in deck["source"])
        spec.plot(source[0][source[0] <= fmax] / 1e9, source[1][source[0] <= fmax], lw=0.8, ls="--", color="0.5",
                  label="source (%s)" % names if len(names) < 60 else "sources")
        spec.axvline(band / 1e9, color="0.5", lw=0.6, ls=":")
        spec.text(band / 1e9, -args.band_db, " -%g dB" % args.band_db, fontsize=7, color="0.4", va="bottom")
    for i, (yee, continuum, index) in enumerate(modes):
        label = "".join(map(str, index))
        spec.axvline(yee / 1e9, color="tab:red", lw=0.8, ls="--", label="Yee resonance" if i == 0 else None)
        spec.axvline(continuum / 1e9, color="tab:gray", lw=0.6, ls=":", label="continuum" if i == 0 else None)
        spec.text(yee / 1e9, 2, label, rotation=90, fontsize=8, ha="right", va="bottom", color="tab:red")
    spec.set_xlim(0, fmax / 1e9)
    spec.set_xlabel("frequency (GHz)")
    spec.set_ylabel("dB below peak")
    spec.set_ylim(max(-120, level[shown].min() - 10), 12)
    spec.grid(alpha=0.3)
    spec.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("plot_probes: %s probe %s %s, %d samples, dt = %.4g s -> %s" % (args.probes, name, component, values.size,
                                                                         dt, args.out))
    for yee, continuum, index in modes:
        print("  mode %s: Yee %.6f GHz, continuum %.6f GHz" % ("".join(map(str, index)), yee / 1e9, continuum / 1e9))


if __name__ == "__main__":
    main(sys.argv[1:])
