#!/usr/bin/env bash
# Twenty-third session, call 12 (one GPU): the provenance's environment on a GPU build: a short
# bench and a run under two tuning variables, their JSON's provenance.environment and the bench
# header's line; test_gpu_cli with the same build.
#   BUILD_DIR=build/slim scripts/gpu/session-hi.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_gpu_cli
run bench_env 60 env YEEX_ARRAY_ROUNDING_MIB=32 YEEX_PDL=1 "${bench[@]}" --gpus 1 --counts 1 --size 128 --exchanges graph --json "$out/bench.json"
run run_env 60 env YEEX_ARRAY_ROUNDING_MIB=32 "$b/yeex" run inputs/dipole_box.toml --engine cuda --gpus 1 --quiet --output "$out/run"
python3 -c "import json,sys; [print(f, json.load(open(f))['provenance']['environment']) for f in sys.argv[1:]]" "$out/bench.json" "$out/run/run.json" > "$out/environment.txt" 2>&1
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
cat "$out/summary.txt" "$out/environment.txt"; tail -n 1 "$out/test_gpu_cli.txt"; grep "# environment" "$out/bench_env.txt"
