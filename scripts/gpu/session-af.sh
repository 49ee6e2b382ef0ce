#!/usr/bin/env bash
# One device call (1 GPU), seventh session, fifth: CPML 512^3 (10 cells, every face), the shell
# stream's priority (YEEX_CPML_SHELL_PRIORITY: 0 = the bulk's, -5 = the border lane's; the build
# takes -4), the x boxes folded into the plain kernel (YEEX_CPML_XFUSE=1) on an H200, and the
# single-axis cores (YEEX_CPML_CORES) with each; PEC and the build twice (experiments by
# environment knobs of one build).
#   BUILD_DIR=build/slim scripts/gpu/session-af.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu/lib.sh
for rep in 1 2; do
  cpml_variants $rep xfuse1 YEEX_CPML_XFUSE=1 prio0 YEEX_CPML_SHELL_PRIORITY=0 prio-2 YEEX_CPML_SHELL_PRIORITY=-2 \
    prio-5 YEEX_CPML_SHELL_PRIORITY=-5
done
cpml xfuse1_prio0 512 f32 YEEX_CPML_XFUSE=1 YEEX_CPML_SHELL_PRIORITY=0
cpml xfuse1_prio-5 512 f32 YEEX_CPML_XFUSE=1 YEEX_CPML_SHELL_PRIORITY=-5
cpml cores_prio0 512 f32 YEEX_CPML_CORES=1 YEEX_CPML_SHELL_PRIORITY=0
cpml xfuse1_cores 512 f32 YEEX_CPML_XFUSE=1 YEEX_CPML_CORES=1
pec f64_pec 512 f64
cpml f64_base 512 f64
cpml f64_cores 512 f64 YEEX_CPML_CORES=1
cpml f64_cores_prio0 512 f64 YEEX_CPML_CORES=1 YEEX_CPML_SHELL_PRIORITY=0
cpml f64_prio0 512 f64 YEEX_CPML_SHELL_PRIORITY=0
echo "done ($((SECONDS - t0)) s)" >> "$out/summary.txt"; pack
