#!/usr/bin/env bash
# The GPU session in one call: the stages named on the command line (default: all), in order,
# each writing under OUT_DIR/<stage>/, each under its own time limit, carrying on after a failure.
#
#   scripts/gpu/run-all.sh OUT_DIR [tests] [cpml] [validate] [coop] [p2p] [mpi] [scaling]
#
# Expects build/cuda built here with the cuda preset and carried to the GPU machine.
#   tests     every gpu-labelled test binary (cuda engine, every backend x 1-4 GPUs, topology)
#   cpml      scripts/gpu/cpml-check.sh without its tests (512^3 PEC vs 10-cell CPML, one GPU)
#   validate  scripts/gpu/validate-check.sh (yeex validate on 1 GPU and over 4)
#   coop      scripts/gpu/coop-quick.sh (coop bitwise tests, weak 512^3/GPU, strong 128^3 and 256^3)
#   p2p       scripts/gpu/p2p-check.sh (yeex-p2p full suite, bench with predicted exchange)
#   mpi       scripts/gpu/mpi-check.sh (mpirun -np 4, nccl and mpi transports)
#   scaling   scripts/scaling-check.sh without tests (every backend, strong 128/256/512, weak 512)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: run-all.sh OUT_DIR [stage...]}
shift
stages=("$@")
((${#stages[@]})) || stages=(tests cpml validate coop p2p mpi scaling)
build=build/cuda
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
summary="$out/summary.txt"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  git: $(git describe --always --dirty 2>/dev/null || echo unknown)  stages: ${stages[*]}" | tee "$summary"

stage() {  # name, limit in seconds, command...
  local name=$1 limit=$2 t0=$SECONDS
  shift 2
  mkdir -p "$out/$name"
  echo; echo "######## $name: $*"
  OUT="$out/$name" timeout "$limit" "$@" > "$out/$name/stage.log" 2>&1
  local rc=$?
  tail -n 40 "$out/$name/stage.log"
  printf '%-9s exit %3d  %4d s\n' "$name" "$rc" $((SECONDS - t0)) | tee -a "$summary"
}

for s in "${stages[@]}"; do
  case $s in
    tests) stage tests 240 scripts/gpu/gpu-tests.sh "$build" ;;
    cpml) stage cpml 200 env YEEX_CPML_SKIP_TESTS=${YEEX_CPML_SKIP_TESTS:-1} scripts/gpu/cpml-check.sh "$build" ;;
    validate) stage validate 300 scripts/gpu/validate-check.sh ;;
    coop) stage coop 120 scripts/gpu/coop-quick.sh "$build" ;;
    p2p) stage p2p 300 scripts/gpu/p2p-check.sh "$build" "$out/p2p" ;;
    mpi) stage mpi 400 scripts/gpu/mpi-check.sh ;;
    scaling) stage scaling 420 env YEEX_SKIP_TESTS=1 scripts/scaling-check.sh "$build" "$out/scaling" ;;
    *) echo "unknown stage '$s'" | tee -a "$summary" ;;
  esac
done
echo; cat "$summary"
