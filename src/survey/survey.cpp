#include "src/survey/survey.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "src/runtime/placement.hpp"

namespace yeex {

std::vector<Index> survey_sizes(const std::string& engine) {
  if (engine == "cuda") return {128, 256, 512};
  return {16, 24, 32};
}

namespace {

// 1, 2, ..., most up to 4; above, the powers of 2 and the most.
std::vector<int> survey_counts(int most) {
  std::vector<int> counts;
  for (int n = 1; n <= most; n = n < 4 ? n + 1 : n * 2) counts.push_back(n);
  if (counts.back() != most) counts.push_back(most);
  return counts;
}

BenchConfig bench_base(const SurveyConfig& c) {
  BenchConfig b;
  b.engine = c.engine;
  b.precision_bits = c.precision_bits;
  b.devices = c.devices;
  b.exchanges = c.exchanges;
  b.halo_depth = 2;
  b.steps = c.steps;
  b.warmup = c.warmup;
  b.repeats = c.repeats;
  return b;
}

// The distinct link types between the pool's GPUs, each with its first pair.
std::vector<std::pair<std::string, std::pair<int, int>>> link_classes(const Topology& t,
                                                                      const std::vector<int>& devices) {
  std::vector<std::pair<std::string, std::pair<int, int>>> classes;
  for (std::size_t a = 0; a < devices.size(); ++a)
    for (std::size_t b = a + 1; b < devices.size(); ++b) {
      const std::string link = boundary_links(t, {devices[a], devices[b]}).front();
      if (std::none_of(classes.begin(), classes.end(), [&](const auto& c) { return c.first == link; }))
        classes.push_back({link, {devices[a], devices[b]}});
    }
  return classes;
}

double cells(const GridShape& g) { return double(g.nx) * double(g.ny) * double(g.nz); }

}  // namespace

std::vector<SurveyPhase> plan_survey(const SurveyConfig& c) {
  const bool cuda = c.engine == "cuda";
  const int most = cuda ? static_cast<int>(c.devices.size()) : c.slabs;
  const std::vector<Index> sizes = c.sizes.empty() ? survey_sizes(c.engine) : c.sizes;
  const Index medium = sizes[sizes.size() / 2];
  std::vector<SurveyPhase> phases;
  const auto scaling = [&](Index size) {
    SurveyPhase p;
    p.name = "scaling-" + std::to_string(size);
    p.kind = "scaling";
    p.pinned = c.pin;
    p.bench = bench_base(c);
    p.bench.sizes = {size};
    p.bench.counts = survey_counts(most);
    p.bench.strong = p.bench.weak = true;
    phases.push_back(p);
  };
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) scaling(sizes[i]);
  if (cuda && most > 1) {
    SurveyPhase off;
    off.name = "peer-off";
    off.kind = "peer-off";
    off.pinned = c.pin;
    off.bench = bench_base(c);
    off.bench.sizes = {medium};
    off.bench.counts = survey_counts(most);
    off.bench.strong = off.bench.weak = true;
    off.bench.peer_access = false;
    phases.push_back(off);
    for (const auto& [link, pair] : link_classes(c.topology, c.devices))
      for (bool peer : {true, false}) {
        SurveyPhase p;
        p.name = "link-" + link + (peer ? "" : "-peer-off");
        p.kind = "link-class";
        p.link_class = link;
        p.pinned = c.pin;
        p.bench = bench_base(c);
        p.bench.devices = {pair.first, pair.second};
        p.bench.sizes = {medium};
        p.bench.counts = {1, 2};
        p.bench.peer_access = peer;
        phases.push_back(p);
      }
    if (c.pin) {
      SurveyPhase p;
      p.name = "unpinned";
      p.kind = "unpinned";
      p.pinned = false;
      p.bench = bench_base(c);
      p.bench.sizes = {medium};
      p.bench.counts = {1, most};
      p.bench.exchanges = {"host-staged"};
      phases.push_back(p);
    }
  }
  if (sizes.size() > 1) scaling(sizes.back());
  return phases;
}

double estimate_phase_seconds(const SurveyPhase& phase, double seconds_per_cell_step, double setup_seconds) {
  const BenchConfig& b = phase.bench;
  double total = 0;
  for (const BenchRow& row : plan_bench(b)) {
    if (row.exchange != "-" && !row_unavailable(b, row).empty()) continue;
    const double per_device = cells(row.grid) / row.count;
    total += setup_seconds + double(b.warmup + b.steps * b.repeats) * per_device * seconds_per_cell_step;
  }
  return total;
}

void run_survey(const SurveyConfig& c, std::vector<SurveyPhase>& phases, double spent, const SurveyProgress& progress) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&] { return spent + std::chrono::duration<double>(Clock::now() - start).count(); };
  const bool cuda = c.engine == "cuda";
  // Priors until the first rows are measured: a GPU at 5 Gcells/s, a CPU slab at 0.05.
  double per_cell_step = cuda ? 2e-10 : 2e-8;
  double setup = cuda ? 0.5 : 0.01;
  int planned = 0, done = 0;
  for (auto& p : phases)
    for (const BenchRow& row : plan_bench(p.bench))
      if (row.exchange == "-" || row_unavailable(p.bench, row).empty()) ++planned;
  const std::vector<std::vector<int>> plan = thread_pinning();
  for (std::size_t i = 0; i < phases.size(); ++i) {
    SurveyPhase& p = phases[i];
    p.estimated_seconds = estimate_phase_seconds(p, per_cell_step, setup);
    const double left = c.budget_seconds - elapsed();
    if (i > 0 && p.estimated_seconds > left) {  // the first phase always runs: a report needs it
      p.skipped = "over budget: about " + std::to_string(int(std::ceil(p.estimated_seconds))) + " s, " +
                  std::to_string(int(std::max(0.0, left))) + " s left";
      continue;
    }
    if (cuda) set_thread_pinning(p.pinned ? local_cpus(c.topology, p.bench.devices) : std::vector<std::vector<int>>{});
    const auto phase_start = Clock::now();
    p.rows = run_bench(p.bench, [&](const BenchRow& row) {
      if (row.skipped.empty()) ++done;
      progress(p, row, done, planned);
    });
    p.seconds = std::chrono::duration<double>(Clock::now() - phase_start).count();
    // Recalibrate from what ran: the slowest 1-device rate, the mean setup.
    double setups = 0;
    int measured = 0;
    for (const BenchRow& row : p.rows) {
      if (!row.skipped.empty()) continue;
      setups += row.setup_seconds;
      ++measured;
      if (row.exchange == "-" && row.seconds_per_step > 0)
        per_cell_step = std::max(per_cell_step * 0.5, row.seconds_per_step / cells(row.grid));
    }
    if (measured > 0) setup = std::max(setup * 0.5, setups / measured + 0.01);
  }
  set_thread_pinning(plan);
}

nlohmann::json to_json(const BenchRow& r) { return bench_row_json(r); }

nlohmann::json to_json(const SurveyPhase& p) {
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchRow& r : p.rows) rows.push_back(to_json(r));
  return {{"name", p.name},
          {"kind", p.kind},
          {"link_class", p.link_class},
          {"devices", p.bench.devices},
          {"counts", p.bench.counts},
          {"sizes", p.bench.sizes},
          {"exchanges", p.bench.exchanges},
          {"peer_access", p.bench.peer_access},
          {"pinned", p.pinned},
          {"strong", p.bench.strong},
          {"weak", p.bench.weak},
          {"steps_per_repeat", p.bench.steps},
          {"warmup_steps", p.bench.warmup},
          {"repeats", p.bench.repeats},
          {"estimated_seconds", p.estimated_seconds},
          {"seconds", p.seconds},
          {"status", p.skipped.empty() ? "ran" : "skipped"},
          {"skipped", p.skipped},
          {"rows", rows}};
}

std::vector<ComputeBaseline> compute_baselines(const std::vector<SurveyPhase>& phases) {
  std::vector<ComputeBaseline> out;
  for (const SurveyPhase& p : phases) {
    if (p.kind != "scaling") continue;
    for (const BenchRow& r : p.rows)
      if (r.exchange == "-" && r.skipped.empty() && r.seconds_per_step > 0) {
        out.push_back({r.size, r.grid, r.seconds_per_step});
        break;
      }
  }
  return out;
}

nlohmann::json model_check(const SurveyConfig& c, const std::vector<SurveyPhase>& phases,
                           const std::optional<P2PSweep>& sweep, const std::optional<LinkMatrices>& links) {
  nlohmann::json out = nlohmann::json::array();
  const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
  for (const SurveyPhase& p : phases) {
    const BenchRow* base = nullptr;
    for (const BenchRow& r : p.rows)
      if (r.exchange == "-" && r.skipped.empty()) base = &r;
    for (const BenchRow& r : p.rows) {
      if (r.exchange == "-" || !r.skipped.empty() || r.count < 2) continue;
      const std::vector<int> devices(p.bench.devices.begin(),
                                     p.bench.devices.begin() + std::min<std::size_t>(r.count, p.bench.devices.size()));
      double from_sweep = NAN, from_links = NAN, efficiency = NAN;
      if (sweep && c.engine == "cuda" && p.bench.peer_access && r.exchange != "host-staged" &&
          devices.size() == std::size_t(r.count))
        from_sweep =
            predicted_exchange_seconds(*sweep, r.grid, devices, r.halo_depth, std::size_t(c.precision_bits / 8));
      if (links && base && devices.size() == std::size_t(r.count)) {
        std::vector<int> positions;
        for (int d : devices)
          for (std::size_t i = 0; i < links->gpus.size(); ++i)
            if (links->gpus[i] == std::to_string(d)) positions.push_back(static_cast<int>(i));
        if (positions.size() == devices.size()) {
          const std::string exchange = p.bench.peer_access ? r.exchange : "host-staged";
          const ComputeBaseline b{r.size, r.scaling == "weak" ? base->grid : r.grid, base->seconds_per_step};
          const Prediction pr = predict_row(*links, b, r.scaling, exchange, positions, r.halo_depth, c.precision_bits);
          if (pr.skipped.empty()) {
            from_links = pr.exchange_seconds;
            efficiency = pr.efficiency;
          }
        }
      }
      out.push_back({{"phase", p.name},
                     {"scaling", r.scaling},
                     {"size", r.size},
                     {"exchange", r.exchange},
                     {"devices", r.count},
                     {"peer_access", p.bench.peer_access},
                     {"measured_exchange_seconds_per_step",
                      r.exchange_per_step > 0 ? nlohmann::json(r.exchange_per_step) : nlohmann::json()},
                     {"measured_seconds_per_step", r.seconds_per_step},
                     {"measured_efficiency", number(r.efficiency)},
                     {"sweep_exchange_seconds_per_step", number(from_sweep)},
                     {"model_exchange_seconds_per_step", number(from_links)},
                     {"model_efficiency", number(efficiency)}});
    }
  }
  return out;
}

}  // namespace yeex
