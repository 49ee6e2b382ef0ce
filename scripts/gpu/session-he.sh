#!/usr/bin/env bash
# Twenty-third session, call 9 (all GPUs): what call 6 left of scripts/gpu-check.sh for the
# committed allocation rounding: the CLI's and topology's gpu tests (the memory refusals use the
# estimate that now counts rounded arrays), and the default deck's checksum on 1 slab and on 4
# slabs of one GPU under coop and overlap.
#   BUILD_DIR=build/slim scripts/gpu/session-he.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_test_pair test_gpu_cli test_topology_gpu
# `sums NAME [OPTIONS]`: the default deck's checksum block into OUT_DIR/NAME.txt.
sums() {
  timeout 60 "$b/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --quiet --json --output "$out/run_$1" "${@:2}" |
    grep -A6 '"checksum"' > "$out/$1.txt"
  echo "$1 exit ${PIPESTATUS[0]} ($((SECONDS - t0)) s)" >> "$out/summary.txt"
}
sums slabs1
for exchange in coop overlap; do sums "slabs4_$exchange" --subdomains 4 --exchange "$exchange"; done
rm -rf "$out"/run_*
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"; tail -n 2 "$out"/test_*.txt
for f in slabs4_coop slabs4_overlap; do cmp -s "$out/slabs1.txt" "$out/$f.txt" && echo "$f: the one-slab checksum" || echo "$f: DIFFERENT"; done
cat "$out/slabs1.txt"
