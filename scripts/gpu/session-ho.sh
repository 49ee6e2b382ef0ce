#!/usr/bin/env bash
# Twenty-fourth session, call 6 (all GPUs): node pairs as the cuda engine's default for runs
# without CPML (yee_pair_sweep_kernel, float and double; YEEX_CUDA_PAIRS=0 turns them off). Every
# gpu test of the build; the checksums of the default deck and of odd-sized ones (widths that end
# on a pair's first node) with pairs and without, one slab and several; the engine on one GPU with
# and without, in turn: 512^3 f32 and f64 twice, 640^3, 511^3, 256^3 f32; weak 512^3 on 1 and all
# GPUs, every backend.
#   BUILD_DIR=build/slim scripts/gpu/session-ho.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
gpu_tests
pack
# The default deck, and the same 0.128 m box on other cell counts.
for cells in "64 64 64" "47 33 20" "9 5 7" "130 3 17"; do
  read -r nx ny nz <<< "$cells"
  sed -e "s/^cells = \[64, 64, 64\]/cells = [$nx, $ny, $nz]/" \
    -e "s|^cell_size = \[2e-3, 2e-3, 2e-3\]|cell_size = [$(awk "BEGIN{print 0.128/$nx}"), $(awk "BEGIN{print 0.128/$ny}"), $(awk "BEGIN{print 0.128/$nz}")]|" \
    inputs/dipole_box.toml > "$out/deck.toml"
  for pairs in 1 0; do
    for p in f32 f64; do
      for split in "--gpus 1" "--gpus 1 --subdomains 3 --exchange overlap" "--exchange graph --halo-depth 2"; do
        # shellcheck disable=SC2086 # $split holds several options
        env YEEX_CUDA_PAIRS=$pairs "$b/yeex" run "$out/deck.toml" --engine cuda --precision $p $split --output "$out/o" 2>&1 |
          grep checksum | sed "s/^/[$cells] pairs=$pairs $p [$split] /" >> "$out/bits.txt"
        rm -rf "$out/o"
      done
    done
  done
done
pack
eng=(bench --engine cuda --gpus 1 --counts 1 --steps 100 --warmup 20 --repeats 5 --exchanges overlap)
for rep in 1 2; do
  for pairs in 0 1; do
    run "p${pairs}_512_$rep" 60 env YEEX_CUDA_PAIRS=$pairs "$b/yeex" "${eng[@]}" --size 512
    run "p${pairs}_512_f64_$rep" 60 env YEEX_CUDA_PAIRS=$pairs "$b/yeex" "${eng[@]}" --size 512 --precision f64
  done
done
for size in 640 511 256; do
  for pairs in 0 1; do run "p${pairs}_$size" 60 env YEEX_CUDA_PAIRS=$pairs "$b/yeex" "${eng[@]}" --size $size; done
done
pack
all_gpus yeex
run weak 300 "${x[@]}" --exchanges "$all" --scaling weak --size 512
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "^## |PASSED|FAILED|SKIPPED \[" "$out/gpu_tests.txt" | head -20
awk '{k=$0; sub(/pairs=[01] /,"",k); sub(/checksum.*/,"",k); print k, $NF}' "$out/bits.txt" | sort | uniq | awk '{key=$0; sub(/ [^ ]*$/,"",key); n[key]++} END{for (k in n) if (n[k]>1) print "DIFFERS:", k; print length(n), "configurations"}'
grep -H "overlap \| - \|coop \|b2r \|graph \|nccl \|p2p \|host-staged " "$out"/p*.txt "$out"/weak.txt | grep -v "#" | sed "s|$out/||" | awk '{print $1, $2, $4, $5, $6, $7, $12, $13}'
