#!/usr/bin/env bash
# Twenty-fifth session, call 6 (all GPUs): test_gpu_cli again (its bench test read its JSON through
# a dangling reference in call 5: fixed), then bench --verify at size on 1 and all GPUs, every
# backend: weak 512^3 a GPU and strong 256^3 (the bits of every row against its grid's first).
#   BUILD_DIR=build/slim scripts/gpu/session-hw.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh "$1"
machine_info
run gpu_cli 120 "$b/tests/gpu/test_gpu_cli" --gtest_color=no
all_gpus yeex
run weak_verify 240 "${x[@]}" --exchanges "$all" --scaling weak --size 512 --verify --markdown "$out/weak.md" --json "$out/weak.json"
run strong_verify 120 "${x[@]}" --exchanges "$all" --scaling strong --size 256 --verify --markdown "$out/strong.md" --json "$out/strong.json"
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
grep -E "OK|FAILED|PASSED" "$out/gpu_cli.txt"
cat "$out/weak.md" "$out/strong.md"
grep -hE "  (first|same|DIFFERS)$" "$out/weak_verify.txt" "$out/strong_verify.txt" | awk '{print $1, $2, $4, $5, $NF}'
python3 -c "
import json, sys
for f in sys.argv[1:]:
    for r in json.load(open(f))['rows']:
        print(f.split('/')[-1], r['exchange'], r['devices'], r['checksum_after_warmup'], 'setup %.1f s' % r['setup_seconds'])" "$out/weak.json" "$out/strong.json"
cat "$out/summary.txt"
