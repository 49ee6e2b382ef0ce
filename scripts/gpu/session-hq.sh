#!/usr/bin/env bash
# Twenty-fourth session, call 8 (all GPUs): the committed form of node pairs (float sweeps without
# CPML take yee_pair_sweep_kernel where a box starts on an even node and holds an even count in x).
# Every gpu test; `yeex validate` on 1 and all GPUs (validate-check.sh); the checksums of the default
# deck and of boxes of other widths (odd ones keep one node a thread; 130 and 66 end inside a warp)
# with pairs and without, one slab, 3 slabs on one GPU, graph R = 2 on all; the engine at 512^3 with
# and without; weak 512^3 on 1 and all GPUs, every backend; strong 640^3, graph and overlap.
#   BUILD_DIR=build/slim scripts/gpu/session-hq.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_tests
pack
OUT=$out/validate YEEX=$b/yeex run validate 240 scripts/gpu/validate-check.sh
pack
for cells in "64 64 64" "47 33 20" "130 3 17" "66 5 7" "2 9 6"; do
  read -r nx ny nz <<< "$cells"
  sed -e "s/^cells = \[64, 64, 64\]/cells = [$nx, $ny, $nz]/" \
    -e "s|^cell_size = \[2e-3, 2e-3, 2e-3\]|cell_size = [$(awk "BEGIN{print 0.128/$nx}"), $(awk "BEGIN{print 0.128/$ny}"), $(awk "BEGIN{print 0.128/$nz}")]|" \
    inputs/dipole_box.toml > "$out/deck.toml"
  for pairs in 1 0; do
    for split in "--gpus 1" "--gpus 1 --subdomains 3 --exchange overlap" "--exchange graph --halo-depth 2"; do
      # shellcheck disable=SC2086 # $split holds several options
      env YEEX_CUDA_PAIRS=$pairs "$b/yeex" run "$out/deck.toml" --engine cuda $split --output "$out/o" 2>&1 |
        grep checksum | sed "s/^/[$cells] pairs=$pairs [$split] /" >> "$out/bits.txt"
      rm -rf "$out/o"
    done
  done
done
pack
eng=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap --size 512)
for pairs in 0 1; do run "p${pairs}_512" 60 env YEEX_CUDA_PAIRS=$pairs "$b/yeex" "${eng[@]}"; done
all_gpus yeex
run weak 300 "${x[@]}" --exchanges "$all" --scaling weak --size 512
run strong640 200 "${x[@]}" --exchanges graph,overlap --scaling strong --size 640
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
cat "$out/validate/summary.txt"
awk '{k=$0; sub(/pairs=[01] /,"",k); sub(/checksum.*/,"",k); print k, $NF}' "$out/bits.txt" | sort | uniq | awk '{key=$0; sub(/ [^ ]*$/,"",key); n[key]++} END{for (k in n) if (n[k]>1) print "DIFFERS:", k; print length(n), "configurations"}'
wc -l < "$out/bits.txt"
grep -H "overlap \| - \|coop \|b2r \|graph \|nccl \|p2p \|host-staged " "$out"/p*.txt "$out"/weak.txt "$out"/strong640.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12, $13}'
