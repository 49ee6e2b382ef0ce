// Single-domain throughput benchmark: a PEC box with one dielectric block, fields filled with
// pseudo-random values, warm-up steps, then the median of timed repeats.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "io/deck.hpp"

namespace yeex {

// The bench problem: n^3 cells of 1 mm, a dielectric block (eps_r 4) over the middle third in
// every axis, one z dipole at the centre.
Deck bench_deck(Index n, Index steps);

struct BenchSample {
  Index size = 0;
  double seconds_per_step = 0;  // median over repeats
  double min_seconds_per_step = 0, max_seconds_per_step = 0;
  double gcells_per_second = 0;
  double effective_gb_per_second = 0;  // 72 B/cell/step in f32, 144 in f64
};

// Times `steps` steps `repeats` times after `warmup` steps.
BenchSample bench_engine(const std::string& engine, int precision_bits, int device, Index size, Index steps,
                         Index warmup, int repeats);
// Copy bandwidth of the engine's memory (GB/s, bytes read + written).
double memory_copy_bandwidth(const std::string& engine, int device);

}  // namespace yeex
