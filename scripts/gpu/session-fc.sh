#!/usr/bin/env bash
# Seventeenth session, call 5 (one GPU): yeex-p2p's refusals and its atomic --json (2617773). The
# four gpu test binaries (test_gpu_cli with its new yeex-p2p case), then yeex-p2p's default suite
# with --json (the 2-GPU tests skipped on one GPU, the others measured), its topology, and the
# refused --test ce-unidir.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
gpu_test_pair test_gpu_cli test_cuda_engine test_multi_gpu test_topology_gpu
run p2p_suite 300 "$b/yeex-p2p" --size 64M --sweep 4:64M --json "$out/p2p.json"
run p2p_topo 60 "$b/yeex-p2p" topo --json "$out/topo.json"
run p2p_refused 60 "$b/yeex-p2p" --test ce-unidir --json "$out/never.json"
pack
grep -h "PASSED\|FAILED" "$out"/test_*.txt
grep -E "^#|GB/s|us" "$out/p2p_suite.txt" | head -40
cat "$out/p2p_refused.txt"; ls "$out"
python3 -c "import json; d = json.load(open('$out/p2p.json')); print('p2p.json:', [r['test'] for r in d['results']], 'skipped', [s['test'] for s in d['skipped']])"
cat "$out/summary.txt"
