#!/usr/bin/env bash
# Twelfth session, call 6 (one GPU): coop's CPML kernel at more blocks per SM. It takes 79
# registers in float, so 3 blocks of 256 threads per SM (768 threads, against the plain kernel's
# 2048). BUILD_DIR/yeex-cpmlN: kMinBlocksPerSm<float, true> = N (ptxas: 4 -> 64 registers, 8 B
# stack; 5 -> 48, 80 B; 6 -> 40, 152 B; 8 -> 32, 224 B). Each: the CPML deck's bits under coop on
# one slab and on 4 slabs of the GPU, against this build; coop at 512^3 with 10-cell CPML, twice.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
cpml_deck
for bin in yeex yeex-cpml4 yeex-cpml5 yeex-cpml6 yeex-cpml8; do
  for slabs in 1 4; do
    "$b/$bin" run "$out/deck.toml" --gpus 1 --subdomains $slabs --exchange coop --output "$out/o" 2>&1 | grep checksum |
      sed "s/^/$bin $slabs /" >> "$out/bits.txt"
    rm -rf "$out/o"
  done
done
pack
args=(bench --engine cuda --gpus 1 --counts 1 --warmup 20 --exchanges coop --size 512 --cpml 10 --steps 50 --repeats 5)
for rep in 1 2; do
  for bin in yeex yeex-cpml4 yeex-cpml5 yeex-cpml6 yeex-cpml8; do run "${bin}_cpml512_$rep" 60 "$b/$bin" "${args[@]}"; done
  pack
done
grep -H "coop " "$out"/*_cpml512_*.txt | sed 's|.*/||' > "$out/rates.txt"
pack
