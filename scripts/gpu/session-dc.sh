#!/usr/bin/env bash
# Thirteenth session, call 7 (one GPU): where b2r's last percent goes, without a link. The
# 512 x 512 x 1024 box of session-db.sh on 1 and 2 slabs of the one GPU under Nsight Systems (20
# steps): the kernels' total time and count by name, per run (b2r R = 2 and overlap). Then the
# rates of b2r R = 2 with its pushes by copies (YEEX_PEER_PUSH=copy) and of R = 4, 200 steps.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
echo "nsys: ${NSYS:-none}" >> "$out/summary.txt"
sed -e 's/^cells = \[512, 512, 512\]/cells = [512, 512, 1024]/' -e 's/^cell_size = \[1e-3, 1e-3, 1e-3\]/cell_size = [1e-3, 1e-3, 0.5e-3]/' \
  inputs/bench_box.toml > "$out/box2.toml"
if [[ -n $NSYS ]]; then
  for x in "b2r --halo-depth 2" overlap; do
    for n in 1 2; do
      name="$(echo "$x" | tr -d ' -' | sed 's/halodepth/R/')_$n"
      # shellcheck disable=SC2086 # "$x" carries the backend and its options
      run "nsys_$name" 120 "$NSYS" profile -t cuda -o "$out/$name" --force-overwrite true "$b/yeex" run "$out/box2.toml" \
        --engine cuda --output "$out/o" --subdomains $n --exchange $x --steps 20
      rm -rf "$out/o"
      run "stats_$name" 120 "$NSYS" stats -q --report cuda_gpu_kern_sum --format csv "$out/$name.nsys-rep"
      rm -f "$out/$name.sqlite"
    done
  done
  pack
fi
for n in 1 2; do
  run "copy_R2_$n" 90 env YEEX_PEER_PUSH=copy "$b/yeex" run "$out/box2.toml" --engine cuda --output "$out/o" --subdomains $n --exchange b2r --halo-depth 2 --steps 200
  run "b2r_R4_$n" 90 "$b/yeex" run "$out/box2.toml" --engine cuda --output "$out/o" --subdomains $n --exchange b2r --halo-depth 4 --steps 200
  rm -rf "$out/o"
done
grep -H "stepping" "$out"/*_R*.txt | sed "s|$out/||"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"
rm -f "$out"/*.nsys-rep; pack
for f in "$out"/stats_*.txt; do echo "== $f"; head -12 "$f"; done
