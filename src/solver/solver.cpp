#include "src/solver/solver.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "io/snapshot_writer.hpp"
#include "src/solver/engines.hpp"
#include "src/solver/field_stats.hpp"

namespace yeex {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Progress line with ETA: carriage-return updates on a terminal, a line every 10 s otherwise.
class Progress {
 public:
  Progress(bool enabled, Index steps, Index cells)
      : enabled_(enabled), tty_(isatty(STDERR_FILENO)), steps_(steps), cells_(cells) {}

  bool due() const { return enabled_ && seconds_since(last_) >= (tty_ ? 0.5 : 10.0) && seconds_since(start_) >= 2.0; }
  void show(Index done) {
    last_ = Clock::now();
    const double elapsed = seconds_since(start_), rate = done / elapsed;
    std::fprintf(stderr, "%sstep %lld/%lld (%3.0f%%)  %.2f Gcells/s  ETA %.0f s%s", tty_ ? "\r" : "",
                 static_cast<long long>(done), static_cast<long long>(steps_), 100.0 * done / steps_,
                 rate * cells_ / 1e9, (steps_ - done) / rate, tty_ ? "   " : "\n");
    shown_ = true;
  }
  ~Progress() {
    if (shown_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_, tty_, shown_ = false;
  Index steps_, cells_;
  Clock::time_point start_ = Clock::now(), last_ = Clock::now();
};

template <typename Real>
class Run {
 public:
  Run(const Model& model, const RunConfig& config) : model_(model), config_(config) {
    const auto t0 = Clock::now();
    EngineSetup<Real> setup = make_engine_setup<Real>(model, 0, model.grid.nz + 1, 1, config.probe_slots);
    setup.device = config.device;
    engine_ = make_engine<Real>(config.engine, setup);
    engine_->synchronize();
    range_ = all_nodes(model.grid);
    update_ = update_nodes(model.grid);
    open_snapshots();
    result_.seconds_setup = seconds_since(t0);
  }

  RunResult execute() {
    const Model& m = model_;
    result_.engine = config_.engine;
    result_.precision_bits = config_.precision_bits;
    result_.steps = m.steps;
    result_.cells = m.grid.cells();
    result_.probes = {m.deck.title, m.dt, m.steps, m.cell, {}};
    for (const auto& p : m.probes) {
      ProbeRecord r{p.name, p.position, p.node, p.components, {}};
      r.series.assign(p.components.size(), {});
      result_.probes.probes.push_back(std::move(r));
    }

    Progress progress(config_.progress, m.steps, m.grid.cells());
    const auto t0 = Clock::now();
    Index slot = 0;
    for (Index n = 0; n < m.steps; ++n) {
      // --- one Yee step: H from E, then E from H, then the sources' currents ---
      engine_->update_h(update_);
      engine_->update_e(update_);
      engine_->inject_sources(n);
      engine_->sample_probes(slot++);
      if (slot == config_.probe_slots || n + 1 == m.steps) {
        timed_output([&] { drain_probes(slot, n + 1 - slot); });
        slot = 0;
      }
      for (std::size_t s = 0; s < snapshots_.size(); ++s)
        if ((n + 1) % m.deck.snapshots[s].every == 0) timed_output([&] { write_snapshot(s, n + 1); });
      if (progress.due()) {
        engine_->synchronize();
        progress.show(n + 1);
      }
    }
    engine_->synchronize();
    result_.seconds_stepping = seconds_since(t0) - result_.seconds_output;
    timed_output([&] { finish(); });
    result_.gcells_per_second =
        result_.seconds_stepping > 0 ? double(m.grid.cells()) * m.steps / result_.seconds_stepping / 1e9 : 0.0;
    return result_;
  }

 private:
  template <typename Work>
  void timed_output(Work work) {
    engine_->synchronize();
    const auto t0 = Clock::now();
    work();
    result_.seconds_output += seconds_since(t0);
  }

  // Appends `slots` buffered samples, the first taken after step `first_step`.
  void drain_probes(Index slots, Index first_step) {
    std::vector<Real> values;
    engine_->fetch_probes(slots, values);
    const std::size_t per_slot = values.size() / std::max<Index>(slots, 1);
    for (Index s = 0; s < slots; ++s) {
      std::size_t column = 0;
      for (auto& probe : result_.probes.probes)
        for (auto& series : probe.series) {
          const double v = values[s * per_slot + column++];
          if (!std::isfinite(v))
            throw std::runtime_error("the fields blew up: probe '" + probe.name + "' reads " + std::to_string(v) +
                                     " after step " + std::to_string(first_step + s + 1));
          series.push_back(v);
        }
    }
  }

  std::vector<Real>& downloaded(Component c) {
    auto& buffer = host_;
    buffer.resize(engine_->layout().elements());
    engine_->download(c, buffer);
    if (const auto bad = find_non_finite<Real>(buffer, engine_->layout(), range_))
      throw std::runtime_error("the fields blew up: " + std::string(component_name(c)) + " is not finite at node (" +
                               std::to_string((*bad)[0]) + ", " + std::to_string((*bad)[1]) + ", " +
                               std::to_string((*bad)[2]) + ")");
    return buffer;
  }

  NodeRange snapshot_range(const Snapshot& s) const {
    NodeRange r = range_;
    if (s.plane_axis) {
      const int a = *s.plane_axis;
      const Index node = std::llround(s.plane_position / model_.cell[a]);
      (a == 0 ? r.i0 : a == 1 ? r.j0 : r.k0) = node;
      (a == 0 ? r.i1 : a == 1 ? r.j1 : r.k1) = node + 1;
    }
    return r;
  }

  void open_snapshots() {
    if (!config_.output_dir) return;
    for (const auto& s : model_.deck.snapshots) {
      const NodeRange r = snapshot_range(s);
      SnapshotGeometry g{{r.i1 - r.i0, r.j1 - r.j0, r.k1 - r.k0},
                         {r.i0 * model_.cell[0], r.j0 * model_.cell[1], r.k0 * model_.cell[2]},
                         model_.cell};
      snapshots_.push_back(std::make_unique<SnapshotWriter>(*config_.output_dir, s.name, g, s.components,
                                                            config_.precision_bits));
    }
  }

  void write_snapshot(std::size_t s, Index step) {
    const Snapshot& spec = model_.deck.snapshots[s];
    const NodeRange r = snapshot_range(spec);
    for (Component c : spec.components) {
      const std::vector<Real> box = extract<Real>(downloaded(c), engine_->layout(), r);
      snapshots_[s]->write(step, step * model_.dt, c, std::span<const Real>(box));
    }
  }

  void finish() {
    for (Component c : kAllComponents)
      result_.component_checksums[static_cast<int>(c)] = checksum<Real>(downloaded(c), engine_->layout(), range_);
    result_.checksum = combine_checksums(result_.component_checksums);
    if (!config_.output_dir) return;
    for (auto& s : snapshots_) {
      s->commit();
      result_.files.push_back(s->h5_path());
      result_.files.push_back(s->xdmf_path());
    }
    if (!result_.probes.probes.empty()) {
      const auto path = *config_.output_dir / "probes.h5";
      write_probe_file(path, result_.probes);
      result_.files.push_back(path);
    }
  }

  const Model& model_;
  RunConfig config_;
  std::unique_ptr<Engine<Real>> engine_;
  NodeRange range_;   // every node: checksums, snapshots, finiteness
  NodeRange update_;  // the nodes the engine sweeps
  std::vector<std::unique_ptr<SnapshotWriter>> snapshots_;
  std::vector<Real> host_;  // one whole array, reused for every download
  RunResult result_;
};

}  // namespace

RunResult run_model(const Model& model, const RunConfig& config) {
  if (config.precision_bits == 64) return Run<double>(model, config).execute();
  return Run<float>(model, config).execute();
}

std::size_t estimate_engine_bytes(const Deck& deck, int precision_bits) {
  const std::size_t real = precision_bits / 8;
  const GridShape& g = deck.grid;
  const FieldLayout L = FieldLayout::make(g.nx + 1, g.ny + 1, g.nz + 1, 1, real);
  const std::size_t elements = static_cast<std::size_t>(L.elements());
  const std::size_t sources = deck.sources.size() * static_cast<std::size_t>(deck.step_count()) * real;
  return elements * (kComponentCount * real + 1) + sources + (std::size_t(1) << 20);
}

}  // namespace yeex
