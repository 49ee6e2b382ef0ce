#!/usr/bin/env bash
# One device call (4 GPUs), fourth session, third call: an experiment on coop's sweep at 512^3
# (build/var/yeex: coop_kernel at 40 registers with YEEX_COOP_BAND=B, a grid.sync() each time a
# block enters the next band of B planes, so that blocks cannot drift apart), its checksums against
# p2p, then the weak 512^3/GPU table for every backend, yeex validate with coop and with p2p over 4
# GPUs (CPML included), and the MPI-mode checksums. Everything also lands in OUT_DIR.tar.gz.
#   BUILD_DIR=build/slim scripts/gpu/session-f.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
var=build/var/yeex
one=(--engine cuda --steps 50 --warmup 10 --repeats 5 --gpus 1 --counts 1 --size 512 --exchanges coop)
run coop1_main 40 $b/yeex bench "${one[@]}"
for band in 0 8 32 128; do
  YEEX_COOP_BAND=$band run coop1_var_band$band 40 $var bench "${one[@]}"
done
run check_p2p 60 $b/yeex run --engine cuda --gpus 4 --exchange p2p --steps 60 --output /tmp/yx-p2p
YEEX_COOP_BAND=1 run check_var_band1 60 $var run --engine cuda --gpus 4 --exchange coop --steps 60 --output /tmp/yx-b1
YEEX_COOP_BAND=3 run check_var_band3 60 $var run --engine cuda --gpus 3 --exchange coop --steps 60 --output /tmp/yx-b3
run weak_512 120 "${bench[@]}" --scaling weak --size 512 --counts 2,4 --exchanges host-staged,p2p,overlap,coop,b2r,nccl --halo-depth 2 --json "$out/weak_512.json"
YEEX_COOP_BAND=32 run weak_512_var_band32 60 $var bench --engine cuda --steps 50 --warmup 10 --repeats 5 --scaling weak --size 512 --counts 4 --exchanges coop
YEEX=$b/yeex OUT=$out/validate run validate 200 scripts/gpu/validate-check.sh
YEEX_SKIP_BENCH=1 OUT=$out/mpi run mpi_check 150 scripts/gpu/mpi-check.sh $b
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
