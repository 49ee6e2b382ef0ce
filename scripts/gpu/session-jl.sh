#!/usr/bin/env bash
# Thirtieth session, calls 4-5 (2 x H200), call 3's scratch build: Nsight Compute on the sweep kernels
# of steps 30-60 (call 4: the first 8, the setup's own) of the 640 x 640 x 320 slab deck on 2 GPUs under graph: the pair pushing sweeps with
# no wait (YEEX_PUSH_X=4) and with nothing of the push but the arrival (7), the border split's
# kernels, and the engine alone on one GPU over 640 x 640 x 160 (the same slab): duration, DRAM
# bytes, L2 hit rate, occupancy of each launch.
#   BUILD_DIR=build/slim scripts/gpu/session-jl.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
box_deck slab320 640 640 320 60
box_deck slab160 640 640 160 60
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $ncu" >> "$out/summary.txt"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__registers_per_thread
profile() {  # profile NAME DECK [VAR=VALUE...] -- ARGS...
  local name=$1 deck=$2 envs=()
  shift 2
  while (($#)) && [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  run "$name" 240 env "${envs[@]}" "$ncu" --clock-control none --kernel-name "regex:pair" --launch-skip 120 --launch-count 48 --csv \
    --metrics "$metrics" "$b/yeex" run "$out/$deck.toml" --engine cuda --output "$out/o_$name" "$@"
  rm -rf "$out/o_$name"
  pack
}
profile push_x4 slab320 YEEX_PUSHING_SWEEPS=1 YEEX_PUSH_X=4 -- --gpus 2 --exchange graph
profile push_x7 slab320 YEEX_PUSHING_SWEEPS=1 YEEX_PUSH_X=7 -- --gpus 2 --exchange graph
profile split slab320 YEEX_PUSHING_SWEEPS=0 -- --gpus 2 --exchange graph
profile alone slab160 -- --gpus 1
for f in push_x4 push_x7 split alone; do
  echo "== $f"
  python3 - "$out/$f.txt" <<'PY'
import csv, sys, collections, re
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
head, body = rows[0], rows[1:]
col = {h: i for i, h in enumerate(head)}
by = collections.defaultdict(lambda: collections.defaultdict(list))
for r in body:
    name = re.sub(r"\((float|double) \*.*", "", r[col["Kernel Name"]]).split("::")[-1] + " dev" + r[col.get("Device", 0)]
    by[name][r[col["Metric Name"]]].append(r[col["Metric Value"]].replace(",", ""))
for name, m in by.items():
    print(name, {k: (round(sum(map(float, v)) / len(v), 2), len(v)) for k, v in m.items()})
PY
done
finish
