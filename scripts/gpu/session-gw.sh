#!/usr/bin/env bash
# Twenty-third session, call 1 (all GPUs): (a) session 22's last commit (build yeex-base, ded7d4d:
# b2r's events branch through make_peer_transport) under test_multi_gpu's b2r and contract cases;
# (b) an experiment build (yeex): coop's long sweeps in drawn units instead of bands
# (YEEX_COOP_DRAW_ROWS rows of 32 nodes a unit, drawn by every warp from a counter; 0: bands), its
# coop tests with bands forced on the tests' small grids (so every sweep draws), then coop on one
# GPU at 512^3 (f32, f64, CPML f32) and weak 512^3 a GPU, base against each row count.
#   BUILD_DIR=build/slim scripts/gpu/session-gw.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run base_tests 200 "$b/tests/gpu/test_multi_gpu-base" --gtest_color=no --gtest_brief=1 --gtest_filter='*B2r*:*b2r*:*EitherPeer*:*Contract*'
pack
run drawn_tests 200 env YEEX_COOP_BAND=2 YEEX_COOP_DRAW_ROWS=3 "$b/tests/gpu/test_multi_gpu" --gtest_color=no --gtest_brief=1 --gtest_filter='*Coop*:*coop*'
pack
knob_versus r YEEX_COOP_DRAW_ROWS 2 0 2 4 8 16
pack
args=("${coop_one_512[@]}")
for v in "--precision f64" "--cpml 10"; do
  tag=$(echo "$v" | tr -d ' -')
  run "one_${tag}_base" 60 "$b/yeex-base" "${args[@]}" $v
  for rows in 0 4 8; do run "one_${tag}_r$rows" 60 env YEEX_COOP_DRAW_ROWS=$rows "$b/yeex" "${args[@]}" $v; done
done
pack
weak_versus r YEEX_COOP_DRAW_ROWS 4 8
tail -n 3 "$out/base_tests.txt" "$out/drawn_tests.txt"
grep -H "coop \|engine\| cuda " "$out"/one*.txt "$out"/weak*.txt | grep -v "#" | sed "s|$out/||" | cut -c1-150
