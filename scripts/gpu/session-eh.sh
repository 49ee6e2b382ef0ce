#!/usr/bin/env bash
# Fifteenth session, call 4 (one GPU): DRAM bytes per cell and step, Nsight Compute. The bench box
# (512^3) as a deck of 4 steps: the cuda engine's sweep kernels (every launch of the 4 steps), and the coop
# kernel (every launch, form fixed: no trials) unfused (f0) and with fused sweeps of
# B = 1, 2, 4 planes per round (YEEX_COOP_FUSE). Does fusing cut the traffic (72 B/cell/step in
# two passes, about 48 in one)?
# Its knobs live only in results/2026-11-25-session15/fused-rounds.patch (applied to the
# src/exchange/coop_exchange.cu of d782d2b, built as build/slim): measured, not kept.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
ncu_box ncu_engine yee_
for f in 0 1 2 4; do
  YEEX_COOP_FUSE=$f ncu_box "ncu_f$f" coop_kernel --exchange coop
  pack
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
for f in "$out"/ncu_*.txt; do
  echo "== $(basename "$f")"
  python3 - "$f" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
if not rows: print(open(sys.argv[1]).read()[-800:]); sys.exit()
h = rows[0]; iname, imetric, ival = h.index("Metric Name"), h.index("Metric Unit"), h.index("Metric Value")
tot = collections.defaultdict(float); unit = {}
for r in rows[1:]:
    v = float(r[ival].replace(",", "")); tot[r[iname]] += v; unit[r[iname]] = r[imetric]
for k in sorted(tot): print(f"  {k}: {tot[k]:.4g} {unit[k]}")
cells = 512**3 * 4
for k in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}.get(unit.get(k, "byte"), 1)
    print(f"  {k} per cell-step: {tot[k] * scale / cells:.2f} B")
PY
done
