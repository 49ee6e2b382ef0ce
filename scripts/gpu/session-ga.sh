#!/usr/bin/env bash
# Twentieth session, call 5 (4 GPUs): where the 4-GPU step at 640^3 loses 21-28 us against the
# 640 x 640 x 160 slab alone (call 4). (1) Peer mappings: weak scaling on the slab deck under
# host-staged with and without --no-peer. (2) The border-first schedule on one GPU: yeex run of
# 640 x 640 x 320 on one GPU as one slab and as two (overlap, host-staged). (3) A long run: the
# slab alone for 400 and 4000 steps, the GPUs' clocks logged every 100 ms.
#   BUILD_DIR=build/slim scripts/gpu/session-ga.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
box_deck slab160 640 640 160 400
box_deck slab160l 640 640 160 4000
box_deck slab320 640 640 320 400
for rep in 1 2; do
  run "weak_peer_$rep" 200 "${bench[@]}" --deck "$out/slab160.toml" --scaling weak --counts 1,4 --exchanges host-staged,overlap
  run "weak_nopeer_$rep" 200 "${bench[@]}" --deck "$out/slab160.toml" --scaling weak --counts 1,4 --exchanges host-staged --no-peer
  pack
done
for rep in 1 2; do
  box_run "one_slab_$rep" slab320 -- --gpus 1
  box_run "two_overlap_$rep" slab320 -- --gpus 1 --subdomains 2 --exchange overlap
  box_run "two_staged_$rep" slab320 -- --gpus 1 --subdomains 2 --exchange host-staged
  pack
done
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 100 -i 0 > "$out/clocks.csv" 2>&1 &
smi=$!
for rep in 1 2; do
  box_run "short_$rep" slab160 -- --devices 0
  box_run "long_$rep" slab160l -- --devices 0
done
kill $smi
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "weak " "$out"/weak_*.txt | sed "s|$out/||"
grep -H "stepping" "$out"/one_*.txt "$out"/two_*.txt "$out"/short_*.txt "$out"/long_*.txt | sed "s|$out/||"
