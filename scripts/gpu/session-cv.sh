#!/usr/bin/env bash
# Twelfth session, call 12 (an H100): the final build's coop CPML kernel (Lean) on a second kind of
# machine: the gpu tests (coop with CPML on 1..4 slabs among them), the CPML deck's bits under coop,
# coop's CPML rates, and yeex-prev's (before Lean) rates beside them.
set -uo pipefail
source scripts/gpu/lib.sh "$1"
for t in test_multi_gpu test_cuda_engine; do run "$t" 300 "$b/tests/gpu/$t" --gtest_color=no --gtest_brief=1; done
cpml_deck
coop_bits yeex
pack
coop_cpml_rates yeex yeex-prev
