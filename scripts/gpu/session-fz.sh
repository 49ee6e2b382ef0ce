#!/usr/bin/env bash
# Twentieth session, call 4 (4 GPUs): coop's sweep sources in the called form of the kernel only
# (the inlined form as before: sources in rounds): test_multi_gpu's coop cases; strong 128^3 on 1
# and 4 GPUs with yeex (its form trials logged) and yeex-head (dd781bd), three times; coop on one
# GPU at 512^3, f32 twice, f64 once, with both. Then the 640^3 loss in one invocation: yeex bench
# --deck on the 640 x 640 x 160 slab, weak scaling on 1 and 4 GPUs (T4: 640^3, stacked along z;
# host-staged, overlap, graph, p2p), with the GPUs' clocks and power logged every 100 ms.
#   BUILD_DIR=build/slim scripts/gpu/session-fz.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
coop_start
for rep in 1 2 3; do
  run "strong128_yeex_$rep" 100 env YEEX_COOP_TUNE_LOG=1 "$b/yeex" "${long[@]}"
  run "strong128_yeex-head_$rep" 100 "$b/yeex-head" "${long[@]}"
  pack
done
c512=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512)
for rep in 1 2; do
  for bin in yeex yeex-head; do run "coop512_${bin}_$rep" 60 "$b/$bin" "${c512[@]}" --steps 100 --repeats 5; done
done
for bin in yeex yeex-head; do run "coop512f64_${bin}" 60 "$b/$bin" "${c512[@]}" --steps 50 --repeats 5 --precision f64; done
pack
box_deck slab160 640 640 160 400
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 100 > "$out/clocks.csv" 2>&1 &
smi=$!
for rep in 1 2; do
  run "weak_slab_$rep" 200 "${bench[@]}" --deck "$out/slab160.toml" --scaling weak --counts 1,4 \
    --exchanges host-staged,overlap,graph,p2p --json "$out/weak_slab_$rep.json"
done
kill $smi
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt | head
grep -H " coop \|subdomain" "$out"/strong128_*.txt "$out"/coop512*.txt | sed "s|$out/||" | awk '{print $1, $2, $3, $5, $6, $7, $11, $12, $13, $14, $15, $16}'
grep -H "weak " "$out"/weak_slab_*.txt | sed "s|$out/||"
