#!/usr/bin/env bash
# Twentieth session, call 3 (4 GPUs): coop's sweep sources added by the kernel after the E sweep
# (yeex; sources on a sent E plane go in rounds) against the form of call 2 (yeex-v0: added at the
# end of the sweep, border tiles' sources in the border loop) and the session's starting build
# (yeex-head): test_multi_gpu's coop cases, strong 128^3 on 1 and 4 GPUs (three times), coop on one
# GPU at 512^3 f32 (twice) and f64. Then where the 4-GPU step at 640^3 loses 24 us against the
# slab alone: the engine over 640 x 640 x 160 on each GPU alone and on all four at once (4000
# steps each, as four processes), strong 640^3 on 1, 2, 4 GPUs (host-staged, overlap, p2p), and
# an Nsight Systems trace of 20 steps of 640^3 on 4 GPUs under overlap when nsys is there.
#   BUILD_DIR=build/slim scripts/gpu/session-fy.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
{ nvidia-smi -L; which cuobjdump nsys ncu; } > "$out/machine.txt" 2>&1
FILTER='*oop*' coop_tests sweep; pack
long=(bench --engine cuda --steps 400 --warmup 50 --repeats 9 --scaling strong --size 128 --counts 1,4 --exchanges coop)
for rep in 1 2 3; do
  for bin in yeex yeex-v0 yeex-head; do run "strong128_${bin}_$rep" 100 "$b/$bin" "${long[@]}"; done
  pack
done
c512=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512)
for rep in 1 2; do
  for bin in yeex yeex-v0 yeex-head; do run "coop512_${bin}_$rep" 60 "$b/$bin" "${c512[@]}" --steps 100 --repeats 5; done
done
for bin in yeex yeex-head; do run "coop512f64_${bin}" 60 "$b/$bin" "${c512[@]}" --steps 50 --repeats 5 --precision f64; done
pack
box_deck slab160 640 640 160 4000
for g in 0 1 2 3; do box_run "alone_gpu$g" slab160 -- --devices $g; done
for g in 0 1 2 3; do
  "$b/yeex" run "$out/slab160.toml" --engine cuda --devices $g --output "$out/o_together$g" > "$out/together_gpu$g.txt" 2>&1 &
done
wait
rm -rf "$out"/o_together*
echo "together done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
run strong640 200 "${bench[@]}" --scaling strong --size 640 --counts 1,2,4 --exchanges host-staged,overlap,p2p
pack
if command -v nsys > /dev/null; then
  box_deck cube640 640 640 640 20
  run nsys 200 nsys profile --trace=cuda -o "$out/trace" "$b/yeex" run "$out/cube640.toml" --engine cuda --gpus 4 --exchange overlap --output "$out/o_nsys"
  rm -rf "$out/o_nsys"
  run nsys_stats 200 nsys stats --report cuda_gpu_kern_sum --report cuda_gpu_trace --format csv -o "$out/trace" "$out/trace.nsys-rep"
  rm -f "$out/trace.sqlite"
fi
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt" "$out/machine.txt"
grep -h "PASSED\|FAILED" "$out"/coop_tests_*.txt | head
grep -H " coop " "$out"/strong128_*.txt "$out"/coop512*.txt | sed "s|$out/||" | awk '{print $1, $5, $6, $7, $11, $12}'
grep -H "stepping" "$out"/alone*.txt "$out"/together*.txt | sed "s|$out/||"
grep -H "strong " "$out"/strong640.txt | sed "s|$out/||"
ls -la "$out" | grep trace
