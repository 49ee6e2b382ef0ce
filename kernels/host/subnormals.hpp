// Subnormal numbers flushed to zero in the calling CPU thread (FTZ/DAZ), for the engines that
// sweep on the CPU (host, kokkos on a host backend).
//
// Ahead of a wavefront the fields decay through the subnormal range, where x86 arithmetic is tens
// of times slower: without the flush a 200^3 box ran at 80 instead of 282 Mcells/s on 2 cores
// (results/gprmax_comparison.md). Values below 1e-38 (f32) carry no physics; GPUs handle them at
// full speed, so the cuda engine keeps them. Every CPU engine flushes, so that they agree bit
// for bit.
#pragma once

#if defined(__SSE__)
#include <immintrin.h>
#endif

namespace yeex {

// Sets FTZ (bit 15) and DAZ (bit 6) of this thread's MXCSR.
inline void flush_subnormals_to_zero() {
#if defined(__SSE__)
  _mm_setcsr(_mm_getcsr() | 0x8040u);
#endif
}

}  // namespace yeex
