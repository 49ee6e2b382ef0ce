#include "src/solver/solver.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <limits>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <utility>
#include <stdexcept>

#include "io/probe_writer.hpp"
#include "io/snapshot_writer.hpp"
#include "src/runtime/clock.hpp"
#include "src/runtime/interrupts.hpp"
#include "src/solver/engines.hpp"
#include "src/exchange/registry.hpp"
#include "src/solver/checkpointing.hpp"
#include "src/solver/cpml_setup.hpp"
#include "src/solver/field_stats.hpp"
#include "src/solver/progress.hpp"

namespace yeex {
namespace {

// An empty device list means GPU 0 alone.
RunConfig with_device_list(RunConfig config) {
  if (config.devices.empty()) config.devices = {0};
  return config;
}

// Uniform in [-1, 1): output `index` of SplitMix64 seeded with `stream` (Steele, Lea and Flood
// 2014), whose n-th output needs no other, so values are drawn in any order.
double pseudo_uniform(std::uint64_t stream, std::uint64_t index) {
  std::uint64_t z = stream + (index + 1) * 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;  // 53 bits in [0, 2), shifted
}

// One run of the time loop. This process holds the subdomains in local_ (threads mode: all of
// them, one team thread each; MPI mode: subdomain r on rank r) and meets the other processes
// through group_ (in threads mode a group of one, where every collective is a no-op): the loop
// below is the same in both modes.
template <typename Real>
class Run {
 public:
  Run(const Model& model, const RunConfig& config)
      : model_(model),
        config_(with_device_list(config)),
        group_(config_.processes ? *config_.processes : self_),
        decomposition_(model.grid, exchange_request(config_).subdomains, config_.halo_depth),
        local_(local_subdomains()),
        team_(static_cast<int>(local_.size())) {
    if (group_.size() > 1 && (config_.checkpoint.file || config_.checkpoint.resume))
      throw std::invalid_argument("checkpoints are written and resumed in threads mode only");
    const auto t0 = Clock::now();
    const SlabDecomposition& d = decomposition_;
    ExchangeContext<Real> context;
    context.decomposition = &d;
    context.plan = halo_plan(d, config_.halo_depth);
    context.team = &team_;
    context.local = local_;
    context.processes = config_.processes;
    context.peer_access = config_.peer_access;
    context.options = config_.exchange_options;
    context.trace = config_.trace;
    engines_.resize(d.size());
    probe_counts_.assign(d.size(), 0);
    // Each subdomain's thread builds its engine: the GPUs' contexts, allocations and uploads (the
    // host slabs' zero fills) at once.
    team_.run([&](int member) {
      const int s = local_[member];
      const SlabSubdomain& sub = d.subdomain(s);
      EngineSetup<Real> setup = make_engine_setup<Real>(model, sub.k_begin, sub.stored_planes, sub.ghost,
                                                        config_.probe_slots, source_planes(d, s, config_.halo_depth));
      if (config_.engine == "cuda") setup.device = config_.devices[config_.processes ? 0 : member];
      probe_counts_[s] = setup.probes.size();
      engines_[s] = make_engine<Real>(config_.engine, setup, config_.cuda_engine);
    });
    for (auto& e : engines_) context.engines.push_back(e.get());
    exchange_name_ = config_.planned_exchange.empty() ? chosen_exchange(config_) : config_.planned_exchange;
    exchange_ = make_exchange<Real>(exchange_name_, std::move(context));
    for (int s : local_) engines_[s]->synchronize();
    if (group_.rank() == 0) open_snapshots();
    result_.seconds_setup = group_.max(seconds_since(t0));
  }

  RunResult execute() {
    const Model& m = model_;
    result_.engine = config_.engine;
    result_.exchange = exchange_name_;
    result_.subdomains = decomposition_.size();
    result_.halo_depth = config_.halo_depth;
    if (config_.engine == "cuda") result_.devices = config_.devices;
    result_.precision_bits = config_.precision_bits;
    result_.steps = m.steps;
    result_.cells = m.grid.cells();
    result_.probes = {m.deck.title, m.dt, m.steps, m.cell, {}};
    for (const auto& p : m.probes) {
      ProbeRecord r{p.name, p.position, p.node, p.components, {}};
      r.series.assign(p.components.size(), {});
      // Without an output folder rank 0 keeps the whole series (probe_storage_bytes counts them at
      // their length, not a vector's growth); with one, ProbeWriter holds a chunk at a time.
      if (group_.rank() == 0 && !config_.output_dir)
        for (auto& series : r.series) series.reserve(m.steps);
      result_.probes.probes.push_back(std::move(r));
    }
    // With an output folder rank 0 writes the series as they come, a chunk at a time, instead of
    // holding them (result_.probes keeps the probes without their series).
    if (config_.output_dir && group_.rank() == 0 && !m.probes.empty())
      probe_file_ = std::make_unique<ProbeWriter>(*config_.output_dir / kProbeFileName, result_.probes);

    Index first = 0;  // the step a resumed run starts from
    if (config_.checkpoint.resume) timed_output([&] { first = restore(); });
    Progress progress(config_.progress && group_.rank() == 0, m.steps, m.grid.cells());
    Index chunk = 8;                            // grows so that a chunk takes about a quarter of a second
    double since_check = 0, check_seconds = 0;  // stepping since the last health check; what it took
    for (Index n = first; n < m.steps;) {
      const Index count =
          std::min({chunk, config_.probe_slots, m.steps - n, steps_to_next_snapshot(n), steps_to_next_energy(n),
                    steps_to_next_checkpoint(n), config_.check_every > 0 ? config_.check_every : m.steps,
                    steps_to_trace_boundary(n)});
      const auto t0 = Clock::now();
      // ---- every subdomain's thread advances its slab by `count` steps ----
      team_.run([&](int member) {
        const int s = local_[member];
        exchange_->advance(s, n, count);
        engines_[s]->synchronize();
      });
      // The slowest process's time: every rank then picks the same next chunk.
      const double seconds = group_.max(seconds_since(t0));
      result_.seconds_stepping += seconds;
      time_trace_window(n, count, seconds);
      chunk = std::clamp<Index>(static_cast<Index>(count * 0.25 / std::max(seconds, 1e-6)), 1, config_.probe_slots);
      steps_done_ = n + count;
      // The health check is due once the steps since the last one took kCheckSpacing times what
      // that check took, however long the chunks: its share of the loop stays below
      // 1/kCheckSpacing for any box on any engine. Always after the last step, and after every
      // chunk with --check-every.
      since_check += seconds;
      if (config_.check_every > 0 || steps_done_ == m.steps || since_check >= kCheckSpacing * check_seconds) {
        check_seconds = check_finite();
        since_check = 0;
      }
      timed_output([&] { drain_probes(count, n); });
      n += count;
      timed_output([&] { record_energy(n); });
      for (std::size_t s = 0; s < model_.deck.snapshots.size(); ++s)
        if (n % m.deck.snapshots[s].every == 0) timed_output([&] { write_snapshot(s, n); });
      if (checkpoint_due(n)) timed_output([&] { save(n); });
      if (progress.due()) progress.show(n);
      // A signal under an InterruptWatch (src/runtime/interrupts.hpp): every process stops here,
      // after the same chunk, and unwinding removes the files begun.
      if (const int signal = static_cast<int>(group_.max(static_cast<double>(interrupt_signal()))))
        throw RunInterrupted(signal, n, m.steps);
    }
    timed_output([&] { finish(); });
    result_.exchange_choices = exchange_->choices();
    result_.engine_choices = engine_choices();
    for (int s : local_) {
      const ExchangeTimes& t = exchange_->times()[s];
      result_.seconds_exchange = std::max(result_.seconds_exchange, t.exchange);
      result_.seconds_wait = std::max(result_.seconds_wait, t.wait);
    }
    result_.seconds_exchange = group_.max(result_.seconds_exchange);
    result_.seconds_wait = group_.max(result_.seconds_wait);
    result_.seconds_output = group_.max(result_.seconds_output);
    result_.seconds_checks = group_.max(result_.seconds_checks);
    result_.gcells_per_second = result_.seconds_stepping > 0
                                    ? double(m.grid.cells()) * (m.steps - first) / result_.seconds_stepping / 1e9
                                    : 0.0;
    return result_;
  }

  // The trace window (RunConfig::trace) and its untraced reference, each its own chunks: the
  // steps to the next of their boundaries from step n.
  Index steps_to_trace_boundary(Index n) const {
    Index steps = std::numeric_limits<Index>::max();
    if (!config_.trace) return steps;
    const auto [begin, end] = untraced_reference();
    for (Index boundary : {Index(config_.trace->first()), Index(config_.trace->end()), begin, end})
      if (boundary > n) steps = std::min(steps, boundary - n);
    return steps;
  }
  // As many steps as the window right after it, or right before it where the run ends with it.
  std::pair<Index, Index> untraced_reference() const {
    const Index first = config_.trace->first(), end = config_.trace->end(), count = config_.trace->count();
    if (end < model_.steps) return {end, std::min(end + count, model_.steps)};
    return {std::max<Index>(0, first - count), first};
  }
  // After the chunk of steps [n, n + count), `seconds` long: the window's phases added to the
  // trace (outside the time), and its time or the reference's kept.
  void time_trace_window(Index n, Index count, double seconds) {
    if (!config_.trace) return;
    const auto [begin, end] = untraced_reference();
    if (config_.trace->meets(n, count)) {
      team_.run([&](int member) { exchange_->resolve_trace(local_[member]); });
      result_.traced_steps += count;
      result_.traced_seconds += seconds;
    } else if (n >= begin && n + count <= end) {
      result_.untraced_steps += count;
      result_.untraced_seconds += seconds;
    }
  }

  StepTiming time_steps(Index warmup, Index steps, int repeats, bool verify) {
    StepTiming t;
    if (config_.trace) config_.trace->set_window(0, 0);  // nothing traced before the traced repeat
    const auto t0 = Clock::now();
    randomise_fields();
    t.seconds_setup = result_.seconds_setup + group_.max(seconds_since(t0));
    // stamped: each slab's engine stamps the start and the end of its work (Engine::stamp).
    const auto advance = [&](Index first, Index count, bool stamped = false) {
      team_.run([&](int member) {
        const int s = local_[member];
        if (stamped) engines_[s]->stamp(0);
        for (Index n = first; n < first + count; n += config_.probe_slots) {
          exchange_->advance(s, n, std::min(config_.probe_slots, first + count - n));
          engines_[s]->fetch_probes(0, scratch_[s]);  // frees the probe buffer without copying
        }
        if (stamped) engines_[s]->stamp(1);
        engines_[s]->synchronize();
      });
    };
    advance(0, warmup);
    if (verify) {  // the same bits after the warm-up on every split and backend
      checksum_fields();
      t.checksum = result_.checksum;
    }
    // The backend's own settling (coop's kernel-form trials), untimed, as far as the model's
    // source samples reach (time_model's callers leave kSettlingSlack steps for it).
    double settle = 0;
    for (int s : local_) settle = std::max(settle, static_cast<double>(exchange_->settling_steps(s)));
    const Index traced = config_.trace ? steps : 0;  // the traced repeat's
    t.settling_steps =
        std::min(static_cast<Index>(group_.max(settle)), model_.steps - (warmup + steps * repeats + traced));
    if (t.settling_steps > 0) advance(warmup, t.settling_steps);
    warmup += t.settling_steps;
    t.exchange = exchange_name_;
    t.subdomains = decomposition_.size();
    const std::vector<ExchangeTimes> before = exchange_->times();
    // A repeat lasts as long as its slowest slab's work between its stamps (CUDA events on the
    // cuda engine); the host's clock around the whole repeat is kept beside it.
    for (int r = 0; r < repeats; ++r) {
      group_.barrier();
      const auto t0 = Clock::now();
      advance(warmup + r * steps, steps, true);
      t.host_seconds_per_step.push_back(group_.max(seconds_since(t0)) / steps);
      double slowest = 0;
      for (int s : local_) slowest = std::max(slowest, engines_[s]->seconds_between(0, 1));
      t.seconds_per_step.push_back(group_.max(slowest) / steps);
    }
    if (config_.trace) {  // after the timed repeats, so that none of them is traced
      const Index first = warmup + repeats * steps;
      config_.trace->set_window(first, steps);
      group_.barrier();
      advance(first, steps, true);
      team_.run([&](int member) { exchange_->resolve_trace(local_[member]); });
      double slowest = 0;
      for (int s : local_) slowest = std::max(slowest, engines_[s]->seconds_between(0, 1));
      t.traced_seconds_per_step = group_.max(slowest) / steps;
    }
    t.exchange_choices = exchange_->choices();
    for (int s : local_) {
      const ExchangeTimes& after = exchange_->times()[s];
      t.exchange_per_step = std::max(t.exchange_per_step, (after.exchange - before[s].exchange) / (steps * repeats));
      t.wait_per_step = std::max(t.wait_per_step, (after.wait - before[s].wait) / (steps * repeats));
    }
    t.exchange_per_step = group_.max(t.exchange_per_step);
    t.wait_per_step = group_.max(t.wait_per_step);
    return t;
  }

 private:
  // What this process's engines chose: one text where they agree, else "subdomain s: ..." for each.
  std::string engine_choices() const {
    std::vector<std::string> each;
    for (int s : local_) each.push_back(engines_[s]->choices());
    if (std::all_of(each.begin(), each.end(), [&](const std::string& c) { return c == each.front(); }))
      return each.empty() ? "" : each.front();
    std::string text;
    for (std::size_t m = 0; m < each.size(); ++m)
      text += (m ? " | " : "") + ("subdomain " + std::to_string(local_[m]) + ": ") + each[m];
    return text;
  }

  std::vector<int> local_subdomains() const {
    if (config_.processes) return {group_.rank()};
    std::vector<int> all(decomposition_.size());
    for (int s = 0; s < decomposition_.size(); ++s) all[s] = s;
    return all;
  }
  // The rank that holds subdomain s.
  int rank_of(int s) const { return config_.processes ? s : 0; }

  // Small pseudo-random fields (never time zeros), uniform in [-1, 1) (E) and that over 377 (H),
  // at every node the sweeps update (update_nodes), zero elsewhere (pads, the inert last planes),
  // as the pad rule wants; each value a function of (component, global node) alone
  // (pseudo_uniform), so that every split starts from the same fields (a ghost plane holds its
  // neighbour's values: bench --verify compares the bits) and all are drawn at once, one team
  // thread per subdomain and OpenMP within it (one sequential generator took most of the ~20 s of
  // setup of a 4 x 512^3 row). They go up in pieces that stay in cache, from one small buffer.
  void randomise_fields() {
    const GridShape g = model_.grid;
    team_.run([&](int member) {
      const int s = local_[member];
      Engine<Real>& engine = *engines_[s];
      const FieldLayout& L = engine.layout();
      const Index n = L.elements(), piece = std::min<Index>(n, Index(1) << 20);
      std::vector<Real> values(piece);
      for (Component c : kAllComponents) {
        const std::uint64_t stream = 12345 * kComponentCount + static_cast<int>(c);
        const double scale = is_electric(c) ? 1.0 : 1.0 / 377.0;
        for (Index first = 0; first < n; first += piece) {
          const Index count = std::min(piece, n - first);
#pragma omp parallel for schedule(static)
          for (Index e = 0; e < count; ++e) {
            const auto [i, j, local_k] = L.node(first + e);
            const Index k = decomposition_.global_k(s, local_k);
            const bool swept = i >= 0 && i < g.nx && j >= 0 && j < g.ny && k >= 0 && k < g.nz;
            const auto node = static_cast<std::uint64_t>((k * (g.ny + 1) + j) * (g.nx + 1) + i);
            values[e] = swept ? static_cast<Real>(scale * pseudo_uniform(stream, node)) : Real(0);
          }
          engine.copy_in(c, first, count, values.data());
        }
      }
    });
    scratch_.resize(engines_.size());
  }

  Index steps_to_next_snapshot(Index n) const {
    Index next = std::numeric_limits<Index>::max();
    for (const auto& s : model_.deck.snapshots) next = std::min(next, s.every - n % s.every);
    return next;
  }

  // Energy needs the state after step n (E^n, H^{n-1/2}) and after step n + 1 (H^{n+1/2}).
  Index steps_to_next_energy(Index n) const {
    const Index every = config_.energy_every;
    if (every <= 0) return std::numeric_limits<Index>::max();
    return n > 0 && n % every == 0 ? 1 : every - n % every;
  }

  // After step n: completes W^{n-1} if its state was kept, then keeps E^n and H^{n-1/2} when W^n
  // is due.
  void record_energy(Index n) {
    const Index every = config_.energy_every;
    if (every <= 0) return;
    const auto whole = [&](int s, Component c) { return std::vector<Real>(downloaded(s, c)); };
    if (!energy_state_.empty() && energy_step_ == n - 1) {
      double joules = 0.0;
      for (int s : local_) {
        const auto& kept = energy_state_[s];
        const std::vector<Real> hx = whole(s, Component::Hx), hy = whole(s, Component::Hy),
                                hz = whole(s, Component::Hz);
        joules += discrete_energy<Real>(model_, engines_[s]->layout(), decomposition_.global_k(s, 0),
                                        decomposition_.to_local(s, decomposition_.owned_nodes(s)),
                                        {kept[0], kept[1], kept[2]}, {kept[3], kept[4], kept[5]}, {hx, hy, hz});
      }
      if (group_.size() > 1) {  // MPI mode: the ranks' parts summed on rank 0 in z order, as above
        const std::vector<std::vector<double>> parts = gather_to_root(std::vector<double>{joules});
        joules = 0.0;
        for (const auto& part : parts) joules += part.front();
      }
      result_.energy.push_back({n - 1, joules});
      energy_state_.clear();
    }
    if (n % every == 0 && n < model_.steps) {
      energy_step_ = n;
      energy_state_.assign(decomposition_.size(), {});
      for (int s : local_)
        for (Component c : kAllComponents) energy_state_[s].push_back(whole(s, c));
    }
  }

  template <typename Work>
  void timed_output(Work work) {
    const auto t0 = Clock::now();
    work();
    result_.seconds_output += seconds_since(t0);
  }

  // ---- checkpoints (src/solver/checkpointing.hpp) ----
  Index steps_to_next_checkpoint(Index n) const {
    const Index every = config_.checkpoint.file ? config_.checkpoint.every_steps : 0;
    if (every <= 0) return std::numeric_limits<Index>::max();
    return every - n % every;
  }
  // After step n: at a multiple of the steps asked, or once the wall time asked has passed (the
  // slowest process's clock, so that every rank agrees); never after the last step.
  bool checkpoint_due(Index n) {
    const CheckpointConfig& c = config_.checkpoint;
    if (!c.file || n >= model_.steps) return false;
    if (c.every_steps > 0 && n % c.every_steps == 0) return true;
    return c.every_seconds > 0 && group_.max(seconds_since(last_checkpoint_)) >= c.every_seconds;
  }
  CheckpointedRun<Real> checkpointed(std::vector<std::pair<Index, double>>* energy) {
    return {model_,
            config_,
            decomposition_,
            engines_,
            [this](Component c, const NodeRange& r) { return gather_box(c, r); },
            probe_file_.get(),
            &result_.probes,
            snapshots_,
            energy};
  }
  void save(Index n) {
    std::vector<std::pair<Index, double>> energy;
    for (const EnergySample& e : result_.energy) energy.emplace_back(e.step, e.joules);
    save_checkpoint<Real>(checkpointed(&energy), n);
    last_checkpoint_ = Clock::now();
  }
  // The state of config_.checkpoint.resume; returns its step. The energy kept for W^n when n is
  // due is the fields as they stand, so it is kept again from the restored fields.
  Index restore() {
    std::vector<std::pair<Index, double>> energy;
    const Index n = restore_checkpoint<Real>(checkpointed(&energy), CheckpointReader(*config_.checkpoint.resume));
    for (const auto& [step, joules] : energy) result_.energy.push_back({step, joules});
    steps_done_ = steps_finite_ = n;
    record_energy(n);
    last_checkpoint_ = Clock::now();
    return n;
  }

  // Appends `slots` buffered samples, the first taken after step `first_step`. Each engine holds
  // the probes of its own planes, in the model's order; each process sends its samples, slot by
  // slot and in the model's order, to rank 0, which files them under their probes.
  void drain_probes(Index slots, Index first_step) {
    std::vector<std::vector<Real>> values(engines_.size());
    for (int s : local_) engines_[s]->fetch_probes(slots, values[s]);
    if (model_.probes.empty()) return;
    std::vector<double> mine;
    std::vector<std::size_t> column(engines_.size(), 0);
    for (Index slot = 0; slot < slots; ++slot) {
      std::fill(column.begin(), column.end(), 0);
      for (std::size_t p = 0; p < model_.probes.size(); ++p) {
        const int s = owner(model_.probes[p].node[2]);
        if (!engines_[s]) continue;
        for (std::size_t c = 0; c < model_.probes[p].components.size(); ++c)
          mine.push_back(values[s][slot * probe_counts_[s] + column[s]++]);
      }
    }
    const std::vector<std::vector<double>> by_rank = gather_to_root(mine);
    if (group_.rank() != 0) return;
    std::vector<std::size_t> next(by_rank.size(), 0);
    std::vector<double> samples;  // one step's, every series in order
    for (Index slot = 0; slot < slots; ++slot) {
      samples.clear();
      for (std::size_t p = 0; p < result_.probes.probes.size(); ++p) {
        auto& probe = result_.probes.probes[p];
        const int r = rank_of(owner(model_.probes[p].node[2]));
        for (auto& series : probe.series) {
          const double v = by_rank[r][next[r]++];
          if (!std::isfinite(v))
            throw std::runtime_error("the fields blew up: probe '" + probe.name + "' reads " + std::to_string(v) +
                                     " after step " + std::to_string(first_step + slot + 1));
          if (probe_file_)
            samples.push_back(v);
          else
            series.push_back(v);
        }
      }
      if (probe_file_) probe_file_->append(samples);
    }
  }

  // Every process's `mine`, in rank order, on rank 0 (an empty list elsewhere).
  template <typename T>
  std::vector<std::vector<T>> gather_to_root(const std::vector<T>& mine) const {
    if (group_.size() == 1) return {mine};
    std::vector<std::vector<T>> all;
    for (const auto& bytes : group_.gather(std::as_bytes(std::span<const T>(mine)), 0)) {
      all.emplace_back(bytes.size() / sizeof(T));
      std::memcpy(all.back().data(), bytes.data(), bytes.size());
    }
    return all;
  }

  int owner(Index global_k) const {
    for (int s = 0; s < decomposition_.size(); ++s)
      if (decomposition_.owned_nodes(s).k0 <= global_k && global_k < decomposition_.owned_nodes(s).k1) return s;
    return decomposition_.size() - 1;
  }

  // The health check between chunks: every slab's six arrays scanned on its engine (on the GPU
  // for the cuda engine), in parallel. A slab that holds a NaN or an Inf is downloaded to name the
  // node (downloaded() throws), and the message names the steps since the last check: the fields
  // were finite after steps_finite_, not after steps_done_ (--check-every 1 narrows it to the
  // step). Returns the seconds it took, the slowest process's, so that every rank spaces the
  // checks alike. Spacing: docs/performance.md#host-cpml-and-checks.
  static constexpr double kCheckSpacing = 100;
  double check_finite() {
    const auto t0 = Clock::now();
    std::vector<char> finite(local_.size(), 1);
    team_.run([&](int member) { finite[member] = engines_[local_[member]]->fields_finite(); });
    for (std::size_t member = 0; member < local_.size(); ++member) {
      if (finite[member]) continue;
      const int s = local_[member];
      for (Component c : kAllComponents) downloaded(s, c);
      throw std::runtime_error("the fields blew up: a ghost plane of slab " + std::to_string(s) +
                               " holds a value that is not finite after step " + std::to_string(steps_done_) +
                               steps_finite_note());
    }
    steps_finite_ = steps_done_;
    const double seconds = seconds_since(t0);
    result_.seconds_checks += seconds;
    return group_.max(seconds);
  }

  // Where the last health check passed before the steps of a blow-up report.
  std::string steps_finite_note() const {
    if (steps_finite_ + 1 >= steps_done_) return "";
    return " (finite after step " + std::to_string(steps_finite_) + "; --check-every 1 finds the step)";
  }

  // Subdomain s's whole array of component c, checked for NaN/Inf on its own nodes.
  const std::vector<Real>& downloaded(int s, Component c) { return downloaded(s, c, host_); }
  // The same into `into`.
  const std::vector<Real>& downloaded(int s, Component c, std::vector<Real>& into) {
    Engine<Real>& engine = *engines_[s];
    into.resize(engine.layout().elements());
    engine.download(c, into);
    const NodeRange own = decomposition_.to_local(s, decomposition_.owned_nodes(s));
    if (const auto bad = find_non_finite<Real>(into, engine.layout(), own))
      throw std::runtime_error("the fields blew up: " + std::string(component_name(c)) + " is not finite at node (" +
                               std::to_string((*bad)[0]) + ", " + std::to_string((*bad)[1]) + ", " +
                               std::to_string(decomposition_.global_k(s, (*bad)[2])) + ") after step " +
                               std::to_string(steps_done_) + steps_finite_note());
    return into;
  }

  // The nodes of global range r that subdomain s owns, in its local coordinates (may be empty).
  NodeRange local_part(int s, NodeRange r) const {
    const NodeRange own = decomposition_.owned_nodes(s);
    r.k0 = std::max(r.k0, own.k0);
    r.k1 = std::min(r.k1, own.k1);
    if (r.k1 < r.k0) r.k1 = r.k0;
    return decomposition_.to_local(s, r);
  }

  NodeRange snapshot_range(const Snapshot& s) const {
    NodeRange r = all_nodes(model_.grid);
    if (s.plane_axis) {
      const int a = *s.plane_axis;
      const Index node = std::llround(s.plane_position / model_.cell[a]);
      (a == 0 ? r.i0 : a == 1 ? r.j0 : r.k0) = node;
      (a == 0 ? r.i1 : a == 1 ? r.j1 : r.k1) = node + 1;
    }
    return r;
  }

  // Rank 0 alone writes snapshot files (MPI mode gathers the pieces there).
  void open_snapshots() {
    if (!config_.output_dir) return;
    for (const auto& s : model_.deck.snapshots) {
      const NodeRange r = snapshot_range(s);
      SnapshotGeometry g{{r.i1 - r.i0, r.j1 - r.j0, r.k1 - r.k0},
                         {r.i0 * model_.cell[0], r.j0 * model_.cell[1], r.k0 * model_.cell[2]},
                         model_.cell,
                         model_.dt,
                         s.plane_axis};
      snapshots_.push_back(
          std::make_unique<SnapshotWriter>(*config_.output_dir, s.name, g, s.components, config_.precision_bits));
    }
  }

  // z is the slowest index, so the slabs' pieces concatenated in order form the whole box: this
  // process's slabs in order, then (MPI mode) the ranks' pieces in rank order on rank 0, which
  // writes one file for the whole grid.
  void write_snapshot(std::size_t s, Index step) {
    if (!config_.output_dir) return;
    const Snapshot& spec = model_.deck.snapshots[s];
    for (Component c : spec.components) {
      const std::vector<Real> box = gather_box(c, snapshot_range(spec));
      if (group_.rank() == 0) snapshots_[s]->write(step, c, std::span<const Real>(box));
    }
  }

  // Component c over the nodes of global range r, x fastest, on rank 0 (snapshots, checkpoints).
  std::vector<Real> gather_box(Component c, const NodeRange& r) {
    std::vector<Real> box;
    for (int d : local_) {
      const NodeRange part = local_part(d, r);
      if (part.empty()) continue;
      const std::vector<Real> piece = extract<Real>(downloaded(d, c), engines_[d]->layout(), part);
      box.insert(box.end(), piece.begin(), piece.end());
    }
    if (group_.size() > 1) {
      std::vector<std::vector<Real>> pieces = gather_to_root(box);
      box.clear();
      for (const auto& piece : pieces) box.insert(box.end(), piece.begin(), piece.end());
    }
    return box;
  }

  // The end of a run: the checksums (checksum_fields), then rank 0 commits its snapshots and
  // writes the probe file.
  void finish() {
    checksum_fields();
    if (!config_.output_dir || group_.rank() != 0) return;
    for (auto& s : snapshots_) {
      s->commit();
      result_.files.push_back(s->h5_path());
      result_.files.push_back(s->xdmf_path());
    }
    if (probe_file_) {
      probe_file_->commit();
      result_.files.push_back(probe_file_->path());
    }
  }

  // The checksums of the fields as they stand (result_.component_checksums, result_.checksum):
  // each component's hash chained over the slabs in z order, the same value as one slab holding
  // everything. In MPI mode the running hash goes from rank to rank (component by component, so
  // the ranks work as a pipeline), and the last rank's values are everyone's.
  // FNV is sequential within a component, so in threads mode the six components are hashed at
  // once, each into its own buffer, where six of the largest array take at most a quarter of the
  // host's memory (512^3 on 2 GPUs: about 1 s against 5; bench --verify hashes every row); a
  // failure is reported as the components in order would. MPI mode keeps them in order, each
  // passed from rank to rank.
  void checksum_fields() {
    const int rank = group_.rank(), ranks = group_.size();
    const auto hash = [&](Component c, std::uint64_t sum, std::vector<Real>& buffer) {
      for (int s : local_)
        sum = checksum<Real>(downloaded(s, c, buffer), engines_[s]->layout(),
                             decomposition_.to_local(s, decomposition_.owned_nodes(s)), sum);
      return sum;
    };
    std::size_t largest = 0;
    for (int s : local_)
      largest = std::max(largest, static_cast<std::size_t>(engines_[s]->layout().elements()) * sizeof(Real));
    if (checksum_components_at_once(largest, ranks, config_.engine)) {
      std::array<std::exception_ptr, kComponentCount> failed;
#pragma omp parallel for schedule(dynamic, 1) num_threads(kComponentCount)
      for (int c = 0; c < kComponentCount; ++c) {
        try {
          std::vector<Real> buffer;
          result_.component_checksums[c] = hash(static_cast<Component>(c), kChecksumSeed, buffer);
        } catch (...) {
          failed[c] = std::current_exception();
        }
      }
      for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
    } else {
      for (Component c : kAllComponents) {
        const int tag = static_cast<int>(c);
        std::uint64_t sum = hash(c, rank == 0 ? kChecksumSeed : receive_u64(group_, rank - 1, tag), host_);
        if (rank + 1 < ranks) send_u64(group_, sum, rank + 1, tag);
        result_.component_checksums[static_cast<int>(c)] = sum;
      }
      for (auto& sum : result_.component_checksums) sum = broadcast_u64(group_, sum, ranks - 1);
    }
    result_.checksum = combine_checksums(result_.component_checksums);
  }

  const Model& model_;
  RunConfig config_;
  SingleProcessGroup self_;    // threads mode's group
  const ProcessGroup& group_;  // config_.processes, or self_
  SlabDecomposition decomposition_;
  std::vector<int> local_;                              // the subdomains of this process, in z order
  ThreadTeam team_;                                     // one thread per local subdomain
  std::vector<std::unique_ptr<Engine<Real>>> engines_;  // [subdomain]; null where another rank holds it
  std::vector<std::size_t> probe_counts_;               // probes (components) each engine samples
  std::string exchange_name_;
  std::unique_ptr<HaloExchange<Real>> exchange_;
  std::vector<std::unique_ptr<SnapshotWriter>> snapshots_;    // rank 0 only
  std::unique_ptr<ProbeWriter> probe_file_;                   // rank 0, with an output folder and probes
  std::vector<Real> host_;                                    // one whole array, reused for every download
  std::vector<std::vector<Real>> scratch_;                    // per subdomain, for time_steps
  std::vector<std::vector<std::vector<Real>>> energy_state_;  // per subdomain: E^n, H^{n-1/2} (kAllComponents order)
  Index energy_step_ = 0;                                     // the n of energy_state_
  Index steps_done_ = 0;                                      // steps the fields have taken (for messages)
  Index steps_finite_ = 0;                                    // the last step a health check passed
  Clock::time_point last_checkpoint_ = Clock::now();          // or the start: --checkpoint-every TIME
  RunResult result_;
};

}  // namespace

RunResult run_model(const Model& model, const RunConfig& config) {
  if (config.precision_bits == 64) return Run<double>(model, config).execute();
  return Run<float>(model, config).execute();
}

StepTiming time_model(const Model& model, const RunConfig& config, Index warmup, Index steps, int repeats,
                      bool verify) {
  if (model.steps < warmup + steps * (repeats + (config.trace ? 1 : 0)))
    throw std::invalid_argument(
        "time_model: the model has fewer steps than warmup + steps * repeats (and a traced "
        "repeat)");
  if (config.precision_bits == 64) return Run<double>(model, config).time_steps(warmup, steps, repeats, verify);
  return Run<float>(model, config).time_steps(warmup, steps, repeats, verify);
}

}  // namespace yeex
