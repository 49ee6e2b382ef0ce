// Engine: the contract between the solver and one compute back end (host loops, CUDA kernels).
//
// An engine owns the six field arrays of one subdomain plus its material classes, and advances
// them with the cell functions of kernels/yee_stencil.hpp. It never decides physics: the solver
// hands it a fully resolved EngineSetup (coefficients, source samples, probe offsets).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "decomposition/grid.hpp"
#include "kernels/cpml.hpp"
#include "kernels/dispersion.hpp"
#include "kernels/field_layout.hpp"
#include "kernels/tfsf.hpp"
#include "kernels/yee_stencil.hpp"

namespace yeex {

// A soft current source at one E component: E[offset] -= coefficient * samples[step].
struct PointSource {
  Component component = Component::Ez;
  Index offset = 0;          // array offset in the engine's layout
  double coefficient = 0.0;  // cb(material) * amplitude * dl / dV
  // Sources that share a node and component are added one after the other, in their order: a
  // device engine's thread per source would race on the node (one update lost). So a device
  // engine adds them in rounds, round r every source whose `round` is r (number_rounds).
  int round = 0;  // earlier sources with the same node and component
};

// Sets each source's round (see PointSource); returns the number of rounds (0 without sources).
inline int number_rounds(std::vector<PointSource>& sources) {
  std::unordered_map<Index, int> seen;  // sources so far by node and component
  int rounds = 0;
  for (PointSource& source : sources) {
    source.round = seen[source.offset * kComponentCount + static_cast<Index>(source.component)]++;
    rounds = std::max(rounds, source.round + 1);
  }
  return rounds;
}

struct ProbePoint {
  Component component = Component::Ez;
  Index offset = 0;
};

template <typename Real>
struct EngineSetup {
  FieldLayout layout;
  std::vector<std::uint8_t> material_class;     // layout.elements() entries
  std::vector<CellCoefficients<Real>> classes;  // indexed by material_class
  std::vector<PointSource> sources;
  std::vector<Real> source_samples;  // [step][source], steps * sources.size()
  Index steps = 0;                   // rows of source_samples
  std::vector<ProbePoint> probes;
  Index probe_slots = 1;                  // samples buffered before fetch_probes
  int device = 0;                         // GPU ordinal for device engines
  std::vector<CpmlFaceSetup<Real>> cpml;  // CPML slabs in face order (kernels/cpml.hpp); empty: none
  DispersionSetup<Real> dispersion;       // dispersive nodes and their poles (kernels/dispersion.hpp); empty: none
  TfsfSetup<Real> tfsf;                   // plane waves' corrections (kernels/tfsf.hpp); empty: none
};

// Work queues of an engine. A device engine runs `bulk` at low and `border` at high priority
// (the overlap and nccl backends compute halo planes on `border` while `bulk` sweeps the
// interior); the host engine has one queue and ignores the lane.
enum class Lane : int { bulk = 0, border = 1 };
// Marks that order one engine's lanes (Engine::mark, Engine::follow): 0 <= mark < kLaneMarks.
inline constexpr int kLaneMarks = 4;

template <typename Real>
class Engine {
 public:
  virtual ~Engine() = default;

  virtual std::string name() const = 0;
  // What the engine chose for this run and why, for the run's report ("" for nothing).
  virtual std::string choices() const { return ""; }
  virtual const FieldLayout& layout() const = 0;
  // GPU ordinal of a device engine, -1 for the host.
  virtual int device() const = 0;

  // H^{n-1/2} -> H^{n+1/2} and E^n -> E^{n+1} over `range` (node indices of this layout),
  // CPML corrections, (E) the dispersion pass and the TF/SF corrections of step n (kernels/tfsf.hpp)
  // of the range's nodes included; n is the step fold_sources opened (below).
  virtual void update_h(const NodeRange& range, Lane lane = Lane::bulk) = 0;
  virtual void update_e(const NodeRange& range, Lane lane = Lane::bulk) = 0;
  // Adds the sources' step-`step` samples (J at (step+1/2) dt) to E.
  virtual void inject_sources(Index step) = 0;
  // Opens step `step`: every step loop calls fold_sources(step) (or fold_sources_at_cursor(), for
  // the cursor's step) before the step's first sweep; the sweeps up to the next one apply that
  // step's TF/SF corrections. Sources folded into the E sweep: after fold_sources(step), the E
  // sweeps issued up to the next inject_sources(step) may each add the step's samples of the
  // sources whose nodes they update, right after the update; inject_sources then adds the others.
  // fold_sources_at_cursor() is the same for the cursor's step (below) and
  // inject_sources_at_cursor(). The same bits as the sources added after the sweeps, provided
  // nothing reads E at a source's node in between (the schedules move E planes before H, after
  // the sources); on a device engine, a kernel fewer a step. The defaults fold nothing.
  virtual void fold_sources(Index step) { (void)step; }
  virtual void fold_sources_at_cursor() { fold_sources(host_cursor_[0]); }
  // Records every probe into buffer slot `slot` (0 <= slot < probe_slots).
  virtual void sample_probes(Index slot) = 0;
  // Copies slots [0, slots) out as [slot][probe] and makes the buffer free again.
  virtual void fetch_probes(Index slots, std::vector<Real>& out) = 0;

  // Copies `count` elements from array offset `offset` of component c to or from host memory,
  // after all work issued so far; returns when the copy is done.
  virtual void copy_out(Component c, Index offset, Index count, Real* host) = 0;
  virtual void copy_in(Component c, Index offset, Index count, const Real* host) = 0;
  // The array of component c in the engine's own memory (device memory for a device engine).
  virtual Real* field_data(Component c) = 0;
  // The CPML faces with pointers into the engine's memory (faces = 0 without CPML), and copies
  // of raw engine memory (psi chunks, see cpml_plane_chunks) to or from the host, after all work
  // issued so far.
  virtual CpmlView<Real> cpml() const = 0;
  // The pole state of dispersive nodes (kernels/dispersion.hpp) on local planes [k_begin, k_end),
  // one chunk per state array (none without dispersive nodes), for B+2R transfers and checkpoints.
  virtual std::vector<StateChunk<Real>> dispersion_chunks(Index k_begin, Index k_end) const = 0;
  // Whether the engine holds dispersive nodes.
  bool has_dispersion() const {
    const FieldLayout& L = layout();
    return !dispersion_chunks(-L.origin_z, L.planes - L.origin_z).empty();
  }
  virtual void read_memory(const Real* engine_memory, Index count, Real* host) = 0;
  virtual void write_memory(Real* engine_memory, Index count, const Real* host) = 0;
  // The native queue of a lane (a cudaStream_t for the cuda engine, nullptr for the host).
  virtual void* native_stream(Lane lane = Lane::bulk) = 0;
  // Order between the lanes, without the host waiting: mark(lane, m) makes mark m stand for the
  // work issued so far on `lane` (as a cudaEventRecord does); follow(lane, m) makes the work
  // issued on `lane` from then on run after the work m stood for at the time of the call (a
  // cudaStreamWaitEvent; nothing if m was never marked). No-ops on an engine with one queue.
  virtual void mark(Lane lane, int m) = 0;
  virtual void follow(Lane lane, int m) = 0;
  // Waits for all work issued so far.
  virtual void synchronize() = 0;

  // Recorded steps (the graph backend's replay, src/exchange/border_first_exchange.hpp): between
  // record_begin() and record_end() the work issued on both lanes is recorded instead of run;
  // replay(recording) runs it after the work issued so far on both lanes and before what is issued
  // later (on the cuda engine: a CUDA graph). A recorded launch keeps its arguments, so a replayed
  // step takes its step and slot from a cursor in the engine's memory: set_cursor(step, slot) sets
  // it in the order of the work, inject_sources_at_cursor() and sample_probes_at_cursor() use it,
  // and the latter moves it on by one step and one slot. An engine that cannot record says so in
  // can_record(); the defaults keep the cursor on the host and refuse to record.
  virtual bool can_record() const { return false; }
  virtual void record_begin() { throw std::logic_error(name() + " engine: cannot record its work"); }
  virtual int record_end() { throw std::logic_error(name() + " engine: cannot record its work"); }
  virtual void replay(int recording) {
    (void)recording;
    throw std::logic_error(name() + " engine: cannot replay recorded work");
  }
  virtual void set_cursor(Index step, Index slot) { host_cursor_ = {step, slot}; }
  virtual void inject_sources_at_cursor() { inject_sources(host_cursor_[0]); }
  virtual void sample_probes_at_cursor() {
    sample_probes(host_cursor_[1]);
    ++host_cursor_[0], ++host_cursor_[1];
  }

  // Time stamps around the steady-state loop (time_model): stamp(m) records time stamp m
  // (0 <= m < kTimeStamps) after all work issued so far on both lanes, in the order of the work;
  // seconds_between(a, b) waits for both and returns the time from a to b. A device engine stamps
  // with CUDA events (the GPU's clock, as the work runs); the default waits for the work and reads
  // the host's clock.
  static constexpr int kTimeStamps = 2;
  virtual void stamp(int m) {
    synchronize();
    host_stamps_.at(static_cast<std::size_t>(m)) = std::chrono::steady_clock::now();
  }
  virtual double seconds_between(int a, int b) {
    return std::chrono::duration<double>(host_stamps_.at(static_cast<std::size_t>(b)) -
                                         host_stamps_.at(static_cast<std::size_t>(a)))
        .count();
  }

  // Trace points (yeex run --trace, src/runtime/trace.hpp): trace_mark(lane) notes a time point
  // on `lane` after the work issued there so far and returns its number; trace_times() waits for
  // every point noted since its last call and returns their times (index = number) in
  // microseconds on the host's steady clock, and forgets them. The default, for an engine whose
  // work is done when its call returns: the host's clock at the call. A device engine records
  // timing events and maps them onto the host's clock, so that every GPU shares one time axis.
  virtual int trace_mark(Lane lane) {
    (void)lane;
    trace_points_.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count());
    return static_cast<int>(trace_points_.size()) - 1;
  }
  virtual std::vector<double> trace_times() {
    std::vector<double> times;
    times.swap(trace_points_);
    return times;
  }

  // Whether every value of the six field arrays is finite (pads and ghost planes included: pads
  // hold zero, ghosts copies of a neighbour's nodes), after all work issued so far: the solver's
  // health check between chunks of steps. The default scans the arrays where they are on a host
  // engine, and copies of them otherwise; a device engine does better on the device.
  virtual bool fields_finite() {
    std::vector<Real> copy;
    for (Component c : kAllComponents) {
      const Real* values = nullptr;
      if (device() < 0) {
        synchronize();
        values = field_data(c);
      } else {
        copy.resize(layout().elements());
        download(c, copy);
        values = copy.data();
      }
      bool finite = true;  // no early exit in the inner loop: it vectorises
      for (Index at = 0; at < layout().elements() && finite; at += 4096)
        for (Index e = at; e < std::min(at + 4096, layout().elements()); ++e) finite &= std::isfinite(values[e]);
      if (!finite) return false;
    }
    return true;
  }

  // Whole arrays (layout().elements() entries), pads and ghosts included.
  void download(Component c, std::span<Real> host) { copy_out(c, 0, layout().elements(), host.data()); }
  void upload(Component c, std::span<const Real> host) { copy_in(c, 0, layout().elements(), host.data()); }

 private:
  std::array<Index, 2> host_cursor_{};                                            // step, slot (the default cursor)
  std::array<std::chrono::steady_clock::time_point, kTimeStamps> host_stamps_{};  // the default stamps
  std::vector<double> trace_points_;  // the default trace points, microseconds
};

}  // namespace yeex
