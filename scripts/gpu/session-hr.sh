#!/usr/bin/env bash
# Twenty-fifth session, call 1 (all GPUs): every gpu test (new: node pairs against one node a
# thread on boxes of five widths; a blow-up named at the same step and node on 1, 3 slabs and all
# GPUs); run.json's NCCL version; the NaN/Inf health check from the command line (the very step with
# --check-every 1, the chunk otherwise) and its cost at 512^3 (a check after every step, and the
# default); bench --markdown on 1 and all GPUs.
#   BUILD_DIR=build/slim scripts/gpu/session-hr.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_tests
pack
"$b/yeex" run --engine cuda --steps 20 --json --output "$out/o" | grep -E '"(nccl|cuda_runtime|cuda_driver)"' > "$out/provenance.txt"
rm -rf "$out/o"
cat > "$out/blow.toml" <<'DECK'
[grid]
cells = [16, 16, 16]
cell_size = [1e-3, 1e-3, 1e-3]
[time]
steps = 40
[[source]]
polarisation = "z"
waveform = "gaussian"
position = [0.008, 0.008, 0.008]
amplitude = 1.5e33
frequency = 2e11
DECK
n=$(nvidia-smi -L | wc -l)
for split in "--engine host" "--engine cuda --gpus 1" "--engine cuda --gpus $n --exchange p2p"; do
  for every in 1 0; do
    check=(); ((every)) && check=(--check-every "$every")
    # shellcheck disable=SC2086 # $split holds several options
    echo "[$split ${check[*]}] $("$b/yeex" run "$out/blow.toml" $split "${check[@]}" -q --output "$out/o" 2>&1) (exit $?)" >> "$out/blow.txt"
  done
done
for every in 1 0; do
  check=(); ((every)) && check=(--check-every "$every")
  run "cost_$every" 120 "$b/yeex" run inputs/bench_box.toml --engine cuda --gpus 1 --steps 400 "${check[@]}" --output "$out/c$every"
  cp "$out/c$every/run.json" "$out/cost_$every.json"; rm -rf "$out/c$every"
done
pack
all_gpus yeex
run md 200 "${x[@]}" --exchanges "$all" --scaling both --size 256 --markdown "$out/bench.md" --json "$out/bench.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
cat "$out/provenance.txt" "$out/blow.txt"
for every in 1 0; do python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['timings_s']; print(sys.argv[1].split('/')[-1], {k: v for k, v in t.items() if k != 'definitions'})" "$out/cost_$every.json"; done
cat "$out/bench.md"
cat "$out/summary.txt"
