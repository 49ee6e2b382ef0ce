#!/usr/bin/env bash
# Eighteenth session, call 8 (4 GPUs): the final checks of the session's code (4884ba0's binaries;
# later commits change no GPU code): scripts/gpu-check.sh on the 4 GPUs; `yeex validate` over 4
# GPUs with the graph backend (R = 1 and 2); the default deck over 4 GPUs under graph (R = 1, 3)
# against one GPU's checksum; strong 640^3 (the reference codes' 268 M cells) for graph beside
# overlap and host-staged.
#   BUILD_DIR=build/slim scripts/gpu/session-fl.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
for R in 1 2; do
  run "validate_graph_R$R" 200 "$b/yeex" validate --engine cuda --gpus 4 --exchange graph --halo-depth $R --json "$out/validate_graph_R$R.json"
done
sum() { "$b/yeex" run inputs/dipole_box.toml --engine cuda --quiet --json --output "$out/o" "$@" | grep -A6 '"checksum"'; rm -rf "$out/o"; }
one=$(sum --gpus 1)
for R in 1 3; do
  if [[ $(sum --gpus 4 --exchange graph --halo-depth $R) == "$one" ]]; then r=same; else r=DIFFERENT; fi
  echo "default deck, graph on 4 GPUs, R = $R: $r checksum as one GPU" | tee -a "$out/summary.txt"
done
run strong_640 150 "${bench[@]}" --scaling strong --size 640 --counts 1,2,4 --exchanges host-staged,overlap,graph --json "$out/strong_640.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
pack
cat "$out/summary.txt"
grep -hE "PASSED|FAILED|checksum|gpu tests" "$out/gpu-check/gpu-check.log" | head
grep -h "problem(s)" "$out"/validate_graph_R*.txt
grep -hv "^#" "$out/strong_640.txt"
