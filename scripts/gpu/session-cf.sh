#!/usr/bin/env bash
# One device call (1 GPU), eleventh session: the timeline of four half-steps (timing events around
# every launch, YEEX_EXP_TIMELINE=200) of the CPML and PEC runs at 512^3 f32, twice; which Nsight
# tools the machine has, and an nsys trace of the CPML run where nsys exists.
#   BUILD_DIR=build/slim scripts/gpu/session-cf.sh OUT_DIR
source "$(dirname "$0")/lib.sh"
{ command -v nsys ncu; ls -d /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems* /usr/local/cuda/nsight-systems* 2>&1; } > "$out/tools.txt"
one[0]=$b/yeex-exp
for rep in 1 2; do
  cpml "cpml_tl_$rep" 512 f32 YEEX_EXP_TIMELINE=200
  run "pec_tl_$rep" 60 env YEEX_EXP_TIMELINE=200 "${one[@]}" --exchanges overlap --size 512 --precision f32
  cpml "cpml_tl_fork0_$rep" 256 f32 YEEX_EXP_TIMELINE=200
done
nsys_bin=$(command -v nsys || ls /opt/nvidia/nsight-systems*/bin/nsys /usr/local/cuda/bin/nsys 2>/dev/null | head -1)
if [[ -n $nsys_bin ]]; then
  run nsys 180 "$nsys_bin" profile -t cuda -o "$out/prof" --force-overwrite true "$b/yeex-exp" bench --engine cuda --gpus 1 \
    --counts 1 --steps 20 --warmup 5 --repeats 1 --exchanges overlap --size 512 --cpml 10
  run nsys_trace 180 "$nsys_bin" stats -r cuda_gpu_trace -f csv -o "$out/trace" "$out/prof.nsys-rep"
  rm -f "$out"/prof.sqlite
fi
pack
