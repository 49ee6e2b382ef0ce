#!/usr/bin/env bash
# Thirtieth session, call 1 (2 x H200; no 4-GPU kind was lent): graph's pushing sweeps in node
# pairs (yee_pair_pushing_sweep_kernel) against its border split on planes above the pushing limit,
# strong on 1 and 2 GPUs: 640^3, 256^3, 192^3 and the 640 x 640 x 320 slab deck (160 planes a GPU,
# as 640^3 on four), pushing forced with YEEX_PUSHING_SWEEPS=1; at 640^3 once more in one node a
# thread (YEEX_CUDA_PAIRS=0: T1's sweeps too). Then scripts/gpu-check.sh on the session's build
# (cb76187's border split had not run on a GPU).
#   BUILD_DIR=build/slim scripts/gpu/session-ji.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
box_deck slab320 640 640 320 100
strong=(--scaling strong --counts 1,2)
forms() {  # forms NAME ARGS...: graph's split (with overlap beside it), then its pushing sweeps forced
  local name=$1
  shift
  run "split_$name" 150 "${bench[@]}" "${strong[@]}" --exchanges graph,overlap "$@"
  run "push_$name" 150 env YEEX_PUSHING_SWEEPS=1 "${bench[@]}" "${strong[@]}" --exchanges graph "$@"
}
for rep in 1 2; do
  forms "640_$rep" --size 640
  forms "256_$rep" --size 256
  pack
done
forms slab320 --deck "$out/slab320.toml"
forms 192 --size 192
run push_nodes_640 150 env YEEX_PUSHING_SWEEPS=1 YEEX_CUDA_PAIRS=0 "${bench[@]}" "${strong[@]}" --exchanges graph --size 640
pack
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"
tail -3 "$out/gpu_check.txt" >> "$out/summary.txt"
finish
