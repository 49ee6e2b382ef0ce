#!/usr/bin/env bash
# Seventeenth session, call 4 (one GPU): the final build (validate checks every problem's split
# up front; bench refuses, under mpirun too, a bench none of whose rows can run). final_checks
# (gpu-check.sh with every gpu test, validate on one GPU and with coop, cpml-check.sh), then MPI
# mode on the one GPU: the default deck on 2 ranks sharing it (mpi transport) against one GPU's
# checksum, a 1-rank cuda bench, and the refused 2-rank bench.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
final_checks
run one_gpu 60 "$b/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --quiet --json --output "$out/one"
run mpi_two_ranks 120 mpirun -np 2 --bind-to none "$b/yeex" run inputs/dipole_box.toml --engine cuda --exchange mpi \
  --oversubscribe-gpus --quiet --json --output "$out/two"
run mpi_bench_one_rank 120 mpirun -np 1 --bind-to none "$b/yeex" bench --engine cuda --size 64 --steps 5 --warmup 2 --repeats 1
run mpi_bench_refused 60 mpirun -np 2 --bind-to none "$b/yeex" bench --engine cuda --size 64 --exchanges host-staged \
  --oversubscribe-gpus
pack
final_report
for r in one two; do echo "$r: $(grep -A1 '"fields"' "$out/$r/run.json" | head -1)"; done
tail -4 "$out/mpi_bench_one_rank.txt"; head -2 "$out/mpi_bench_refused.txt"
grep -v "exit 0" "$out/summary.txt"
