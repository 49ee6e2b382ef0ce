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
tested_start
"$b/yeex" run --engine cuda --steps 20 --json --output "$out/o" | grep -E '"(nccl|cuda_runtime|cuda_driver)"' > "$out/provenance.txt"
rm -rf "$out/o"
cp tests/data/blow_up.toml "$out/blow.toml"
n=$(nvidia-smi -L | wc -l)
for split in "--engine host" "--engine cuda --gpus 1" "--engine cuda --gpus $n --exchange p2p"; do
  for every in 1 0; do
    check=(); ((every)) && check=(--check-every "$every")
    # shellcheck disable=SC2086 # $split holds several options
    echo "[$split ${check[*]}] $("$b/yeex" run "$out/blow.toml" $split "${check[@]}" -q --output "$out/o" 2>&1) (exit $?)" >> "$out/blow.txt"
  done
done
check_costs
pack
all_gpus yeex
run md 200 "${x[@]}" --exchanges "$all" --scaling both --size 256 --markdown "$out/bench.md" --json "$out/bench.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
cat "$out/provenance.txt" "$out/blow.txt"
print_costs
cat "$out/bench.md"
cat "$out/summary.txt"
