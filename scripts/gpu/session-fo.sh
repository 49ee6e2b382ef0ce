#!/usr/bin/env bash
# Nineteenth session, call 1 (4 GPUs): where strong scaling's last 2 % at 640^3 goes. The engine on
# one GPU over 640 x 640 x NZ (the 4- and 2-GPU slabs and the whole box), with and without the
# dipole, and programmatic dependent launch (YEEX_PDL) off and on; bench strong 640^3 on 1 and 4
# GPUs under both; test_multi_gpu and test_cuda_engine under YEEX_PDL=1.
#   BUILD_DIR=build/slim scripts/gpu/session-fo.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
nvidia-smi -L > "$out/machine.txt"
for nz in 160 320 640; do box_deck "box$nz" 640 640 $nz 400; done
box_deck box160ns 640 640 160 400 nosource
for pdl in 0 1; do
  for d in box160 box160ns box320 box640; do box_run "${d}_pdl$pdl" "$d" YEEX_PDL=$pdl -- --gpus 1; done
done
pack
for pdl in 0 1; do
  run "strong_640_pdl$pdl" 200 env YEEX_PDL=$pdl "${bench[@]}" --scaling strong --size 640 --counts 1,4 \
    --exchanges host-staged,overlap,graph --json "$out/strong_640_pdl$pdl.json"
  pack
done
for t in test_multi_gpu test_cuda_engine; do run "pdl_$t" 300 env YEEX_PDL=1 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
for pdl in 0 1; do
  run "strong_128_pdl$pdl" 90 env YEEX_PDL=$pdl "$b/yeex" bench --engine cuda --steps 400 --warmup 50 --repeats 9 \
    --scaling strong --size 128 --counts 1,4 --exchanges overlap,graph
  run "cpml_512_pdl$pdl" 60 env YEEX_PDL=$pdl "${one[@]}" --exchanges overlap --size 512 --cpml 10
done
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt"
grep -H "stepping" "$out"/box*.txt | sed "s|$out/||"
grep -h "PASSED\|FAILED" "$out"/pdl_*.txt
grep -hv "^#" "$out"/strong_*.txt "$out"/cpml_*.txt | grep -v "^scaling"
