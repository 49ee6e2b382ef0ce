#include "src/bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "src/solver/engines.hpp"
#include "src/solver/model.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#endif

namespace yeex {

Deck bench_deck(Index n, Index steps) {
  Deck deck;
  deck.title = "bench: PEC box with one dielectric block";
  deck.grid = {n, n, n};
  deck.cell_size = {1e-3, 1e-3, 1e-3};
  deck.steps = steps;
  const double side = n * 1e-3;
  deck.materials.push_back({"dielectric", 4.0, 0.0, 1.0, false});
  deck.geometry.push_back({ShapeKind::box, "dielectric", {side / 3, side / 3, side / 3}, {2 * side / 3, 2 * side / 3, 2 * side / 3}});
  Source s;
  s.name = "tx";
  s.position = {side / 2 + 0.5e-3, side / 2 + 0.5e-3, side / 2 + 0.5e-3};
  s.waveform = WaveformKind::gaussian;
  s.frequency = 10e9;
  deck.sources.push_back(s);
  deck.output_dir = "";
  return deck;
}

namespace {

using Clock = std::chrono::steady_clock;

template <typename Real>
BenchSample time_engine(const std::string& name, int device, Index size, Index steps, Index warmup, int repeats) {
  const Model model = build_model(bench_deck(size, warmup + steps * repeats));
  EngineSetup<Real> setup = make_engine_setup<Real>(model, 0, size + 1, 1, 1);
  setup.device = device;
  auto engine = make_engine<Real>(name, setup);
  // Never time zeros: start from small pseudo-random fields.
  std::vector<Real> values(setup.layout.elements());
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (Component c : kAllComponents) {
    for (auto& v : values) v = static_cast<Real>(uniform(rng) * (is_electric(c) ? 1.0 : 1.0 / 377.0));
    engine->upload(c, values);
  }
  values = {};

  const NodeRange range = update_nodes(model.grid);
  Index n = 0;
  const auto advance = [&](Index count) {
    for (Index s = 0; s < count; ++s, ++n) {
      engine->update_h(range);
      engine->update_e(range);
      engine->inject_sources(n);
    }
  };
  advance(warmup);
  engine->synchronize();
  std::vector<double> per_step;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    advance(steps);
    engine->synchronize();
    per_step.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / steps);
  }
  std::sort(per_step.begin(), per_step.end());
  BenchSample b;
  b.size = size;
  b.seconds_per_step = per_step[per_step.size() / 2];
  b.min_seconds_per_step = per_step.front();
  b.max_seconds_per_step = per_step.back();
  const double cells = double(model.grid.cells());
  b.gcells_per_second = cells / b.seconds_per_step / 1e9;
  b.effective_gb_per_second = 18.0 * sizeof(Real) * cells / b.seconds_per_step / 1e9;
  return b;
}

}  // namespace

BenchSample bench_engine(const std::string& engine, int precision_bits, int device, Index size, Index steps,
                         Index warmup, int repeats) {
  if (precision_bits == 64) return time_engine<double>(engine, device, size, steps, warmup, repeats);
  return time_engine<float>(engine, device, size, steps, warmup, repeats);
}

double memory_copy_bandwidth(const std::string& engine, int device) {
#if YEEX_HAVE_CUDA
  if (engine == "cuda") return measure_device_copy_bandwidth(device, std::size_t(2) << 30);
#endif
  // Host: a parallel copy of 512 MiB, median of 7.
  const std::size_t n = (std::size_t(512) << 20) / sizeof(double);
  std::vector<double> a(n, 1.0), b(n, 0.0);
  std::vector<double> seconds;
  for (int rep = 0; rep < 7; ++rep) {
    const auto t0 = Clock::now();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) b[i] = a[i];
    seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return 2.0 * n * sizeof(double) / seconds[seconds.size() / 2] / 1e9;
}

}  // namespace yeex
