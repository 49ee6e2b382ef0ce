#!/usr/bin/env bash
# One device call (1 GPU): a build to commit ($b/yeex) against another one ($b/OTHER):
# scripts/gpu-check.sh (every gpu test, the default deck, the benchmark at 128^3-512^3 f32 and 512^3
# f64); the CPML deck's bits of both; PEC and CPML 512^3 f32 in turn, twice; with --sizes f64 512^3
# and f32 256^3 once; coop on one GPU (with --coop-cpml its CPML run too); `yeex validate` on one
# GPU and with coop; cpml-check.sh's benchmark. OUT_DIR.tar.gz is refreshed after every step.
#   BUILD_DIR=build/slim scripts/gpu/candidate-check.sh OUT_DIR OTHER [--sizes] [--coop-cpml]
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
other=${2:?usage: $0 OUT_DIR OTHER [--sizes] [--coop-cpml]}
shift 2
sizes=0 coop=
for flag in "$@"; do
  case $flag in
    --sizes) sizes=1 ;;
    --coop-cpml) coop=cpml ;;
    *) echo "candidate-check: unknown option $flag" >&2; exit 2 ;;
  esac
done
run gpu_check 300 scripts/gpu-check.sh "$b" "$out/gpu-check"; pack
cpml_deck
bits_versus "$other"
for rep in 1 2; do versus $rep "$other"; done
[[ $sizes == 1 ]] && versus_sizes "$other"
pack
coop_versus "$other" $coop
pack
release_checks
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
