// The cuda engine. One thread per node, blocks of 64 x 2 nodes in (x, y) by default (the float
// sweeps of a run without CPML: two nodes per thread, yee_pair_sweep_kernel): x is the
// fastest index, so a warp reads 128 contiguous bytes of each array; the +-1 neighbours in y and
// z come from L1/L2 (a z-plane of all six components is a few MB at 512^2, well inside the L2).
// Coefficients come from a small class table in global memory (cached in L1), looked up
// through one byte per node, a phase's in 16-byte loads (PhaseCoefficients). Work goes to two
// streams per engine, one per Lane (bulk at low, border at high priority); a CPML run's sweeps are
// split into a plain and a CPML part (cpml_split, see sweep).
//
// This file is the engine class: construction, the lanes and their marks, the Engine contract and
// how a sweep is cut into launches. The kernels and their launch shapes live in sweep_kernels.cuh
// (plain and node-pair sweeps), cpml_sweep.cuh (the split sweep's shell boxes and strips),
// pushing_sweeps.cuh (graph's pushing sweeps), dispersion_pass.cuh (dispersive materials' pass
// after the E sweep), tfsf_pass.cuh (plane waves' corrections), sources_probes.cuh and
// health_scan.cuh, all in this
// one translation unit; field_arena.hpp places the fields, launch.cuh launches.
#include "kernels/cuda/cuda_engine.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cuda/cpml_sweep.cuh"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_array.hpp"
#include "kernels/cuda/dispersion_pass.cuh"
#include "kernels/cuda/field_arena.hpp"
#include "kernels/cuda/health_scan.cuh"
#include "kernels/cuda/launch.cuh"
#include "kernels/cuda/pushing_sweeps.cuh"
#include "kernels/cuda/sources_probes.cuh"
#include "kernels/cuda/sweep_kernels.cuh"
#include "kernels/cuda/tfsf_pass.cuh"

namespace yeex {
namespace {

template <typename Real>
class CudaEngine final : public Engine<Real> {
 public:
  CudaEngine(const EngineSetup<Real>& setup, const CudaEngineOptions& options)
      : layout_(setup.layout),
        device_(setup.device),
        steps_(setup.steps),
        source_count_(static_cast<int>(setup.sources.size())),
        probe_count_(static_cast<int>(setup.probes.size())),
        probe_slots_(setup.probe_slots),
        fork_nodes_(options.shell_fork_nodes >= 0 ? options.shell_fork_nodes : kShellForkNodes),
        pairs_(options.node_pairs && pairs_fit(layout_)) {
    if (!layout_.narrow_planes())
      throw std::invalid_argument("cuda engine: a plane of " + std::to_string(layout_.pitch_z) +
                                  " elements; the sweep kernels take at most 2^31 - 1");
    if (const std::string why = cuda_device_unsupported(device_); !why.empty()) throw std::invalid_argument(why);
    if (options.arena_unit != 0 &&
        std::find(std::begin(kSlotUnits), std::end(kSlotUnits), options.arena_unit) == std::end(kSlotUnits))
      throw std::invalid_argument("cuda engine: a field arena slot unit of " + std::to_string(options.arena_unit) +
                                  " bytes; the units are 2, 32 and 1024 MiB");
    YEEX_CUDA(cudaSetDevice(device_));
    dependent_launch_ = dependent_launch(device_, options.dependent_launches, launch_choice_);
    int lowest = 0, highest = 0;
    YEEX_CUDA(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    YEEX_CUDA(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, lowest));
    YEEX_CUDA(cudaStreamCreateWithPriority(&border_stream_, cudaStreamNonBlocking, highest));
    // Above the bulk stream, below the border stream (lower numbers are higher priorities).
    YEEX_CUDA(cudaStreamCreateWithPriority(&shell_stream_, cudaStreamNonBlocking, std::min(highest + 1, lowest)));
    for (cudaEvent_t& e : marks_) YEEX_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    for (cudaEvent_t* e : {&shell_fork_, &shell_join_, &lane_fork_, &lane_join_})
      YEEX_CUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    for (cudaEvent_t& e : stamps_) YEEX_CUDA(cudaEventCreate(&e));
    storage_.allocate(layout_.elements(), setup.material_class, options.arena_unit);
    classes_ = DeviceArray<CellCoefficients<Real>>(setup.classes.data(), setup.classes.size());
    const std::vector<PhaseCoefficients<Real>> phases = phase_table(setup.classes);
    phases_ = DeviceArray<PhaseCoefficients<Real>>(phases.data(), phases.size());
    std::vector<PointSource> sources = setup.sources;
    source_rounds_ = number_rounds(sources);
    sources_ = DeviceArray<PointSource>(sources.data(), sources.size());
    host_sources_ = sources;
    samples_ = DeviceArray<Real>(setup.source_samples.data(), setup.source_samples.size());
    probes_ = DeviceArray<ProbePoint>(setup.probes.data(), setup.probes.size());
    probe_buffer_ = DeviceArray<Real>(setup.probes.size() * setup.probe_slots);
    cursor_ = DeviceArray<Cursor>(1);
    flag_ = DeviceArray<unsigned>(1);
    cpml_.faces = static_cast<int>(setup.cpml.size());
    for (std::size_t f = 0; f < setup.cpml.size(); ++f) {
      CpmlFace<Real>& face = cpml_.face[f] = setup.cpml[f].geometry;
      cpml_tables_[f] = DeviceArray<CpmlProfile<Real>>(setup.cpml[f].table.data(), setup.cpml[f].table.size());
      cpml_psi_[f] = DeviceArray<Real>(4 * face.box());
      YEEX_CUDA(cudaMemset(cpml_psi_[f].get(), 0, 4 * face.box() * sizeof(Real)));
      face.table = cpml_tables_[f].get();
      face.psi = cpml_psi_[f].get();
    }
    set_cpml_interior(cpml_);
    dispersion_setup_ = setup.dispersion;
    if (!dispersion_setup_.empty()) {
      const DispersionSetup<Real>& d = dispersion_setup_;
      dispersion_rows_ = DeviceArray<DispersiveRow>(d.rows.data(), d.rows.size());
      dispersion_set_of_ = DeviceArray<std::int8_t>(d.set_of.data(), d.set_of.size());
      dispersion_sets_ = DeviceArray<PoleSet<Real>>(d.sets.data(), d.sets.size());
      const std::size_t values = static_cast<std::size_t>(3 * d.states * d.entries);
      dispersion_state_ = DeviceArray<Real>(values);
      YEEX_CUDA(cudaMemset(dispersion_state_.get(), 0, values * sizeof(Real)));
      dispersion_ = {d.states,
                     d.entries,
                     dispersion_rows_.get(),
                     dispersion_set_of_.get(),
                     dispersion_sets_.get(),
                     dispersion_state_.get()};
      // The pass's tables in shared memory (dispersion_pass.cuh); more than the 48 KiB a block
      // has without opting in only with hundreds of dispersive materials in float64.
      dispersion_shared_ = d.sets.size() * sizeof(PoleSet<Real>) + d.set_of.size();
      if (dispersion_shared_ > 48 * 1024)
        YEEX_CUDA(cudaFuncSetAttribute(dispersion_kernel<Real>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(dispersion_shared_)));
    }
    // TF/SF: the nodes stay on the host too (the pass's range lookup, cuda_tfsf_nodes).
    tfsf_host_[0] = setup.tfsf.h_nodes, tfsf_host_[1] = setup.tfsf.e_nodes;
    for (int field = 0; field < 2; ++field)
      tfsf_nodes_[field] = DeviceArray<TfsfNode>(tfsf_host_[field].data(), tfsf_host_[field].size());
    tfsf_terms_ = DeviceArray<TfsfTerm<Real>>(setup.tfsf.terms.data(), setup.tfsf.terms.size());
    tfsf_incident_ = DeviceArray<Real>(setup.tfsf.incident.data(), setup.tfsf.incident.size());
    tfsf_width_ = setup.tfsf.width;
    tfsf_steps_ = setup.tfsf.steps;
    // Folded sources are added inside the sweep, before the TF/SF pass, unfolded ones after it: a
    // source on a corrected node would take other bits. So a run with plane waves does not fold.
    fold_sources_ =
        options.fold_sources && source_count_ > 0 && source_count_ <= 32 && cpml_.faces == 0 && setup.tfsf.empty();
    // The placement trial last: it times the engine's own sweeps, so everything they read is set.
    if (storage_.needs_trial()) storage_.choose_placement(device_, [this] { return time_steps(); });
  }
  ~CudaEngine() override {
    cudaSetDevice(device_);
    for (cudaStream_t s : {stream_, border_stream_, shell_stream_}) {
      cudaStreamSynchronize(s);
      cudaStreamDestroy(s);
    }
    for (cudaGraphExec_t g : recordings_) cudaGraphExecDestroy(g);
    for (cudaEvent_t e : marks_) cudaEventDestroy(e);
    for (cudaEvent_t e : {shell_fork_, shell_join_, lane_fork_, lane_join_}) cudaEventDestroy(e);
    for (cudaEvent_t e : stamps_) cudaEventDestroy(e);
    for (cudaEvent_t e : trace_events_) cudaEventDestroy(e);
    if (trace_anchor_) cudaEventDestroy(trace_anchor_);
    if (trace_stream_) cudaStreamDestroy(trace_stream_);
  }

  std::string name() const override { return "cuda"; }
  // "dependent launches (compute capability 9.0); field arena in 2M slots (timed: ...); node pairs"
  std::string choices() const override {
    const bool pairs = std::is_same_v<Real, float> && cpml_.faces == 0 && pairs_;
    return launch_choice_ + "; " + storage_.choice() + "; " + (pairs ? "node pairs" : "one node a thread");
  }
  const FieldLayout& layout() const override { return layout_; }

  int device() const override { return device_; }

  void update_h(const NodeRange& r, Lane lane) override {
    sweep<true>(r, stream(lane));
    tfsf_pass(0, r, stream(lane));
  }
  void update_e(const NodeRange& r, Lane lane) override {
    sweep<false>(r, stream(lane));
    disperse(r, stream(lane));
    tfsf_pass(1, r, stream(lane));
  }

  void fold_sources(Index step) override {
    tfsf_step_ = step, tfsf_cursor_ = nullptr;
    arm_fold(samples_.get() + step * source_count_, nullptr);
  }
  void fold_sources_at_cursor() override {
    tfsf_cursor_ = cursor_.get();
    arm_fold(samples_.get(), cursor_.get());
  }
  void inject_sources(Index step) override { launch_sources(samples_.get() + step * source_count_, nullptr); }
  void inject_sources_at_cursor() override { launch_sources(samples_.get(), cursor_.get()); }

  void sample_probes(Index slot) override {
    if (probe_count_ == 0) return;
    YEEX_CUDA(cudaSetDevice(device_));
    launch_kernel(sample_probes_kernel<Real>, (probe_count_ + 127) / 128, 128, stream_, pointers(), probes_.get(),
                  probe_count_, probe_buffer_.get() + slot * probe_count_);
  }

  void sample_probes_at_cursor() override {
    YEEX_CUDA(cudaSetDevice(device_));
    const int threads = std::clamp((probe_count_ + 31) / 32 * 32, 32, 1024);
    launch_kernel(sample_probes_at_cursor_kernel<Real>, 1, threads, stream_, pointers(), probes_.get(), probe_count_,
                  probe_buffer_.get(), cursor_.get());
  }
  void set_cursor(Index step, Index slot) override {
    YEEX_CUDA(cudaSetDevice(device_));
    launch_kernel(set_cursor_kernel, 1, 1, stream_, cursor_.get(), step, slot);
  }

  // Recording: a CUDA graph captured from the border stream, the bulk stream forked into it at the
  // start and joined back at the end (the CPML shell stream joins and leaves through the sweep's
  // own events); the capture is this thread's alone (each GPU's thread records its own engine).
  bool can_record() const override { return true; }
  void record_begin() override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaStreamBeginCapture(border_stream_, cudaStreamCaptureModeThreadLocal));
    YEEX_CUDA(cudaEventRecord(lane_fork_, border_stream_));
    YEEX_CUDA(cudaStreamWaitEvent(stream_, lane_fork_, 0));
  }
  int record_end() override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(lane_join_, stream_));
    YEEX_CUDA(cudaStreamWaitEvent(border_stream_, lane_join_, 0));
    cudaGraph_t graph = nullptr;
    YEEX_CUDA(cudaStreamEndCapture(border_stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    // The kernels keep the priorities of the streams they were captured from (the border lane's
    // sweeps and pushes ahead of the bulk's), not the launch stream's for all.
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagUseNodePriority);
    cudaGraphDestroy(graph);
    YEEX_CUDA(made);
    recordings_.push_back(exec);
    return static_cast<int>(recordings_.size()) - 1;
  }
  void replay(int recording) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(lane_fork_, stream_));
    YEEX_CUDA(cudaStreamWaitEvent(border_stream_, lane_fork_, 0));
    YEEX_CUDA(cudaGraphLaunch(recordings_.at(static_cast<std::size_t>(recording)), border_stream_));
    YEEX_CUDA(cudaEventRecord(lane_join_, border_stream_));
    YEEX_CUDA(cudaStreamWaitEvent(stream_, lane_join_, 0));
  }

  void fetch_probes(Index slots, std::vector<Real>& out) override {
    out.resize(slots * probe_count_);
    if (out.empty()) return;
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(
        cudaMemcpyAsync(out.data(), probe_buffer_.get(), out.size() * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }

  void copy_out(Component c, Index offset, Index count, Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(host, field(c) + offset, count * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  void copy_in(Component c, Index offset, Index count, const Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(field(c) + offset, host, count * sizeof(Real), cudaMemcpyHostToDevice, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  Real* field_data(Component c) override { return field(c); }
  // A stamp: the border lane joined into the bulk lane, then a timing event on the bulk lane.
  void stamp(int m) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(lane_join_, border_stream_));
    YEEX_CUDA(cudaStreamWaitEvent(stream_, lane_join_, 0));
    YEEX_CUDA(cudaEventRecord(stamps_.at(static_cast<std::size_t>(m)), stream_));
  }
  double seconds_between(int a, int b) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventSynchronize(stamps_.at(static_cast<std::size_t>(b))));
    float ms = 0;
    YEEX_CUDA(
        cudaEventElapsedTime(&ms, stamps_.at(static_cast<std::size_t>(a)), stamps_.at(static_cast<std::size_t>(b))));
    return 1e-3 * ms;
  }

  // Trace points: timing events from a pool (made as a batch first needs them, reused by the next
  // batches) recorded on the lane's stream. The first point of a batch also records an anchor on
  // an otherwise idle stream and spins until the GPU has passed it: the host's clock then is the
  // anchor's time, and each point lies the events' elapsed time after it.
  int trace_mark(Lane lane) override {
    YEEX_CUDA(cudaSetDevice(device_));
    if (trace_used_ == 0) {
      if (!trace_stream_) {
        YEEX_CUDA(cudaStreamCreateWithFlags(&trace_stream_, cudaStreamNonBlocking));
        YEEX_CUDA(cudaEventCreate(&trace_anchor_));
      }
      YEEX_CUDA(cudaEventRecord(trace_anchor_, trace_stream_));
      cudaError_t state = cudaErrorNotReady;
      while ((state = cudaEventQuery(trace_anchor_)) == cudaErrorNotReady) {}
      YEEX_CUDA(state);
      trace_anchor_us_ =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    if (trace_used_ == trace_events_.size()) {
      cudaEvent_t e = nullptr;
      YEEX_CUDA(cudaEventCreate(&e));
      trace_events_.push_back(e);
    }
    YEEX_CUDA(cudaEventRecord(trace_events_[trace_used_], stream(lane)));
    return static_cast<int>(trace_used_++);
  }
  std::vector<double> trace_times() override {
    std::vector<double> times(trace_used_);
    if (trace_used_ == 0) return times;
    YEEX_CUDA(cudaSetDevice(device_));
    for (std::size_t i = 0; i < trace_used_; ++i) {
      YEEX_CUDA(cudaEventSynchronize(trace_events_[i]));
      float ms = 0;
      YEEX_CUDA(cudaEventElapsedTime(&ms, trace_anchor_, trace_events_[i]));
      times[i] = trace_anchor_us_ + 1e3 * ms;
    }
    trace_used_ = 0;
    return times;
  }

  // One scan kernel over the six arrays on the bulk stream, one flag back.
  bool fields_finite() override {
    synchronize();
    YEEX_CUDA(cudaMemsetAsync(flag_.get(), 0, sizeof(unsigned), stream_));
    launch_non_finite_scan(device_, stream_, pointers(), layout_.elements(), flag_.get());
    unsigned flag = 0;
    YEEX_CUDA(cudaMemcpyAsync(&flag, flag_.get(), sizeof flag, cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
    return flag == 0;
  }
  CpmlView<Real> cpml() const override { return cpml_; }
  std::vector<StateChunk<Real>> dispersion_chunks(Index k_begin, Index k_end) const override {
    return dispersion_plane_chunks(dispersion_setup_, dispersion_, layout_.origin_z, k_begin, k_end);
  }
  void read_memory(const Real* from, Index count, Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(host, from, count * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  void write_memory(Real* to, Index count, const Real* host) override {
    synchronize();
    YEEX_CUDA(cudaMemcpyAsync(to, host, count * sizeof(Real), cudaMemcpyHostToDevice, stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }
  void* native_stream(Lane lane) override { return stream(lane); }
  void mark(Lane lane, int m) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaEventRecord(marks_.at(static_cast<std::size_t>(m)), stream(lane)));
  }
  void follow(Lane lane, int m) override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaStreamWaitEvent(stream(lane), marks_.at(static_cast<std::size_t>(m)), 0));
  }
  void synchronize() override {
    YEEX_CUDA(cudaSetDevice(device_));
    YEEX_CUDA(cudaStreamSynchronize(border_stream_));
    YEEX_CUDA(cudaStreamSynchronize(stream_));
  }

  // SweepPush: one launch of the pushing kernel over r, a plane of blocks per node plane.
  template <bool UpdateH>
  void sweep_pushing(const NodeRange& r, const SweepPush<Real>& push) {
    if (cpml_.faces != 0) throw std::invalid_argument("cuda engine: a pushing sweep needs a run without CPML");
    if (!dispersion_setup_.empty())
      throw std::invalid_argument("cuda engine: a pushing sweep needs a run without dispersive materials");
    if (r.empty()) return;
    YEEX_CUDA(cudaSetDevice(device_));
    const SourceFold<Real> fold = UpdateH ? SourceFold<Real>{} : take_fold(r);
    launch_pushing_sweep<Real, UpdateH>(dependent_launch_, stream_, operands(), takes_pairs(r), r, push, fold);
    tfsf_pass(UpdateH ? 0 : 1, r, stream_);  // graph pushes no plane that holds a corrected node
  }

  const std::vector<TfsfNode>& tfsf_nodes(int field) const { return tfsf_host_[field]; }

  CudaEngineView<Real> view() {
    return {pointers(),     storage_.classes(),
            classes_.get(), static_cast<int>(classes_.size()),
            layout_,        sources_.get(),
            source_count_,  source_rounds_,
            samples_.get(), probes_.get(),
            probe_count_,   probe_buffer_.get(),
            device_,        stream_,
            cpml_};
  }

 private:
  // The dispersion pass over the dispersive nodes of r, after r's E sweep on the same stream.
  void disperse(const NodeRange& r, cudaStream_t stream) {
    if (dispersion_setup_.empty() || r.empty()) return;
    const auto [first, last] = dispersive_rows(dispersion_setup_, layout_.origin_z, r.k0, r.k1);
    if (last == first) return;
    const FieldPointers<Real> f = pointers();
    const Index rows = last - first;
    const unsigned grid = static_cast<unsigned>(std::min<Index>(rows, Index(1) << 20));
    const int sets = static_cast<int>(dispersion_setup_.sets.size());
    const int class_count = static_cast<int>(dispersion_setup_.set_of.size() / 3);
    launch_kernel_shared(dispersion_kernel<Real>, grid, dim3(kDispersionNodes, 3), dispersion_shared_, stream, f.ex,
                         f.ey, f.ez, storage_.classes(), layout_, dispersion_, sets, class_count, first, rows, r);
  }

  // Every engine kernel goes through here (launch.cuh), with the engine's dependent_launch_.
  template <typename... Params, typename... Args>
  void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t on, Args&&... args) {
    yeex::launch_kernel(dependent_launch_, kernel, grid, block, on, std::forward<Args>(args)...);
  }
  template <typename... Params, typename... Args>
  void launch_kernel_shared(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared, cudaStream_t on,
                            Args&&... args) {
    yeex::launch_kernel_shared(dependent_launch_, kernel, grid, block, shared, on, std::forward<Args>(args)...);
  }

  // The TF/SF pass after a sweep over r (tfsf_pass.cuh): the corrected nodes of r's planes (one
  // run of the sorted list), field 0 after H, 1 after E, with the open step's row.
  void tfsf_pass(int field, const NodeRange& r, cudaStream_t on) {
    const std::vector<TfsfNode>& nodes = tfsf_host_[field];
    if (nodes.empty() || r.empty()) return;
    if (!tfsf_cursor_ && (tfsf_step_ < 0 || tfsf_step_ >= tfsf_steps_))
      throw std::logic_error("cuda engine: TF/SF step out of the table");
    const auto by_offset = [](const TfsfNode& node, Index offset) { return node.offset < offset; };
    const auto first = std::lower_bound(nodes.begin(), nodes.end(), layout_.plane_offset(r.k0), by_offset);
    const auto last = std::lower_bound(first, nodes.end(), layout_.plane_offset(r.k1), by_offset);
    const int count = static_cast<int>(last - first);
    if (count == 0) return;
    YEEX_CUDA(cudaSetDevice(device_));
    launch_kernel(tfsf_kernel<Real>, blocks(count, 128), 128, on, pointers(),
                  tfsf_nodes_[field].get() + (first - nodes.begin()), count, tfsf_terms_.get(), tfsf_incident_.get(),
                  tfsf_width_, field, tfsf_step_, static_cast<const Cursor*>(tfsf_cursor_), layout_, r);
  }

  // The sources the E sweeps of the step did not fold in (arm_fold), in rounds.
  void launch_sources(const Real* samples, const Cursor* cursor) {
    if (source_count_ == 0) return;
    unsigned folded = 0;
    if (fold_.armed) {
      if (fold_.samples != samples || fold_.cursor != cursor)
        throw std::logic_error("cuda engine: the sources of another step than the one folded");
      folded = fold_.folded;
      fold_ = Fold{};
      if (folded == (source_count_ == 32 ? ~0u : (1u << source_count_) - 1)) return;  // all added
    }
    YEEX_CUDA(cudaSetDevice(device_));
    for (int round = 0; round < source_rounds_; ++round)  // one, unless sources share a node
      launch_kernel(inject_sources_kernel<Real>, (source_count_ + 127) / 128, 128, stream_, pointers(), sources_.get(),
                    source_count_, samples, round, cursor, folded);
  }

  // Sources folded into the plain and pushing E sweeps (Engine::fold_sources): where the engine
  // has 1-32 sources and no CPML (its sweeps take other kernels), fold_sources arms fold_; each E
  // sweep until the step's inject_sources then takes the armed step's sources in its range
  // (take_fold) and inject_sources adds the rest: a kernel fewer a step, which counts on small
  // grids (docs/performance.md#source-folding). CudaEngineOptions::fold_sources (a test seam)
  // turns it off.
  void arm_fold(const Real* samples, const Cursor* cursor) {
    if (fold_sources_) fold_ = Fold{true, samples, cursor, 0};
  }
  // The armed step's sources not folded yet whose nodes lie in r, up to kFoldSources, now folded.
  // In the order of their index: the first one that does not fit ends the list, so that sources
  // sharing a node keep their order.
  SourceFold<Real> take_fold(const NodeRange& r) {
    SourceFold<Real> fold;
    if (!fold_.armed) return fold;
    fold.samples = fold_.samples, fold.cursor = fold_.cursor, fold.row = source_count_;
    for (int s = 0; s < source_count_; ++s) {
      const PointSource& source = host_sources_[static_cast<std::size_t>(s)];
      if (fold_.folded >> s & 1u || !contains(r, source.offset)) continue;
      if (fold.count == kFoldSources) break;
      fold.offset[fold.count] = source.offset, fold.component[fold.count] = source.component;
      fold.coefficient[fold.count] = static_cast<Real>(source.coefficient), fold.column[fold.count] = s;
      ++fold.count;
      fold_.folded |= 1u << s;
    }
    return fold;
  }
  // Whether the node at array offset `offset` lies in r.
  bool contains(const NodeRange& r, Index offset) const {
    const auto [i, j, k] = layout_.node(offset);
    return r.i0 <= i && i < r.i1 && r.j0 <= j && j < r.j1 && r.k0 <= k && k < r.k1;
  }

  Real* field(Component c) const { return storage_.field(static_cast<int>(c)); }
  FieldPointers<Real> pointers() const {
    return {storage_.field(0), storage_.field(1), storage_.field(2),
            storage_.field(3), storage_.field(4), storage_.field(5)};
  }
  SweepOperands<Real> operands() const { return {pointers(), storage_.classes(), phases_.get(), layout_}; }

  // Seconds a step of both sweeps over every node takes, the least of five runs of a few steps
  // after one.
  double time_steps() {
    const NodeRange all{0, layout_.nodes_x - 1, 0, layout_.nodes_y - 1, 0, layout_.nodes_z - 1};
    const Index steps = std::clamp<Index>((Index(1) << 29) / std::max<Index>(all.count(), 1), 2, 16);
    const std::vector<float> ms = timed_runs_ms(stream_, 1, 5, [&] {
      for (Index s = 0; s < steps; ++s) sweep<true>(all, stream_), sweep<false>(all, stream_);
    });
    return 1e-3 * *std::min_element(ms.begin(), ms.end()) / static_cast<double>(steps);
  }

  cudaStream_t stream(Lane lane) const { return lane == Lane::border ? border_stream_ : stream_; }

  // Whether a float sweep over r takes node pairs (yee_pair_sweep_kernel and the pushing kernel's
  // Pairs form): pairs_fit, and r starts on an even node and holds an even count in x.
  bool takes_pairs(const NodeRange& r) const { return pairs_ && r.i0 % 2 == 0 && (r.i1 - r.i0) % 2 == 0; }

  // Without CPML one launch of the plain kernel over r. With CPML the split sweep
  // (kernels/cpml.hpp): the plain kernel over the nodes of no slab, the CPML kernel over the shell
  // boxes (the nodes are disjoint, so their order does not matter). On the border lane, and where
  // the shell is smaller than fork_nodes_, all on `stream`. Else the shell boxes go to
  // shell_stream_, forked from `stream` and joined back into it (so what follows on the lane
  // follows them too), at a higher priority: the block scheduler then hands their blocks out
  // first, and they share the SMs with the plain kernel's. Alone, a shell kernel holds few blocks
  // per SM and its memory traffic stays well below the plain kernel's; beside the plain kernel's
  // blocks the SMs keep more loads in flight, and the shells' ramps and tails overlap the plain
  // kernel (docs/performance.md#cpml-split). The two boxes of an axis go in one launch, side by
  // side along their axis (see kNarrowShellThreads). A forked shell cuts its z and y boxes into
  // single-axis cores and strips, the strips in as few launches as their block shapes allow
  // (yee_strip_kernel), before the x boxes. In float there are no x boxes: the plain kernel sweeps
  // whole rows and its warps that meet an x face take the CPML path (kWholeRows).
  template <bool UpdateH>
  void sweep(const NodeRange& r, cudaStream_t stream) {
    if (r.empty()) return;
    YEEX_CUDA(cudaSetDevice(device_));
    const FieldPointers<Real> f = pointers();
    // One box, or two along grid axis `axis` (second non-empty, the same extents across it; the
    // kernel's sweep_pair_axis): the grid holds the first box's blocks, then the second's.
    const auto launch = [&](auto kernel, const NodeRange& box, dim3 block, cudaStream_t on,
                            const NodeRange& second = NodeRange{}, int axis = 2,
                            const SourceFold<Real>& fold = SourceFold<Real>{}) {
      SweepBoxes boxes;
      boxes.box[0] = box, boxes.box[1] = second;
      dim3 grid(blocks(box.i1 - box.i0, block.x), blocks(box.j1 - box.j0, block.y), blocks(box.k1 - box.k0, block.z));
      unsigned& along = axis == 0 ? grid.x : axis == 1 ? grid.y : grid.z;
      boxes.split = along;
      if (!second.empty()) {
        const Index extent[3] = {second.i1 - second.i0, second.j1 - second.j0, second.k1 - second.k0};
        const unsigned size[3] = {block.x, block.y, block.z};
        along += blocks(extent[axis], size[axis]);
      }
      launch_kernel(kernel, grid, block, on, f.ex, f.ey, f.ez, f.hx, f.hy, f.hz, storage_.classes(), phases_.get(),
                    layout_, boxes, cpml_, fold);
    };
    if (cpml_.faces == 0) {
      // The E sweep takes the kernels' Fold form where it folds sources in (take_fold).
      const SourceFold<Real> fold = UpdateH ? SourceFold<Real>{} : take_fold(r);
      if constexpr (std::is_same_v<Real, float>)
        if (takes_pairs(r)) {
          const auto kernel = fold.count ? yee_pair_sweep_kernel<false, true> : yee_pair_sweep_kernel<UpdateH>;
          return launch_kernel(kernel, pair_grid(r), dim3(kPairLanes, kPairRows, 1), stream, f.ex, f.ey, f.ez, f.hx,
                               f.hy, f.hz, storage_.classes(), phases_.get(), layout_, r, fold);
        }
      if (fold.count)
        return launch(yee_sweep_kernel<Real, false, false, 0, 0, true>, r, kSweepBlock, stream, {}, 2, fold);
      return launch(yee_sweep_kernel<Real, UpdateH, false, 0, 0>, r, kSweepBlock, stream);
    }
    // The nodes of r outside the aligned plain box: the shell boxes' (cpml_split partitions r),
    // x boxes included. With whole rows the x boxes' nodes go to the plain kernel, but the fork
    // threshold (tuned before whole rows) still counts them.
    const Index shell_nodes = r.count() - cpml_plain_box(cpml_, r, split_align_).count();
    const bool fork = stream == stream_ && shell_nodes > 0 && shell_nodes >= fork_nodes_;
    const CpmlSplit split = cpml_split(cpml_, r, split_align_, fork, kWholeRows<Real>);
    const cudaStream_t shells = fork ? shell_stream_ : stream;
    if (fork) {
      YEEX_CUDA(cudaEventRecord(shell_fork_, stream));
      YEEX_CUDA(cudaStreamWaitEvent(shell_stream_, shell_fork_, 0));
    }
    // The strips of a split with cores, by block shape, kStripBoxes to a launch.
    std::vector<NodeRange> strips;
    const auto launch_strips = [&] {
      yeex::launch_strips<Real, UpdateH>(dependent_launch_, shells, operands(), cpml_, strips);
    };
    for (int b = 0; b < split.shells; ++b) {
      const int axes = split.axes[b];
      if (split.cores && (axes == 7 || axes == 5 || axes == 3)) {
        strips.push_back(split.shell[b]);
        continue;
      }
      if (axes == 1) launch_strips();  // before the x boxes
      // The two boxes of an axis (the same kernel and block shape) in one launch, placed one after
      // the other along that axis in the grid.
      const NodeRange& first = split.shell[b];
      const dim3 block = shell_block(first);
      const int axis = pair_axis(axes);
      NodeRange second{};
      if (b + 1 < split.shells && split.axes[b + 1] == axes && same_shape(shell_block(split.shell[b + 1]), block) &&
          same_across(first, split.shell[b + 1], axis))
        second = split.shell[++b];
      if (axes == 1)
        launch(yee_sweep_kernel<Real, UpdateH, true, kXBoxMinBlocks<Real>, 1>, first, block, shells, second, axis);
      else if (axes == 2)
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 2>, first, block, shells, second, axis);
      else if (axes == 3)
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 3>, first, block, shells, second, axis);
      else if (axes == 4)
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 4>, first, block, shells, second, axis);
      else
        launch(yee_sweep_kernel<Real, UpdateH, true, kShellMinBlocks, 7>, first, block, shells, second, axis);
    }
    launch_strips();
    if (split.plain_axes == 1)
      launch(yee_sweep_kernel<Real, UpdateH, false, 0, 1>, split.plain, kSweepBlock, stream);
    else if (!split.plain.empty())
      launch(yee_sweep_kernel<Real, UpdateH, false, 0, 0>, split.plain, kSweepBlock, stream);
    if (fork) {
      YEEX_CUDA(cudaEventRecord(shell_join_, shell_stream_));
      YEEX_CUDA(cudaStreamWaitEvent(stream, shell_join_, 0));
    }
  }

  FieldLayout layout_;
  int device_;
  Index steps_;
  int source_count_, probe_count_;
  int source_rounds_ = 0;  // number_rounds (kernels/engine.hpp)
  Index probe_slots_;
  Index split_align_ = cpml_split_align(sizeof(Real));
  Index fork_nodes_;                      // the smallest CPML shell that forks (kShellForkNodes)
  bool pairs_;                            // yee_pair_sweep_kernel for the float sweeps of a run without CPML
  bool dependent_launch_ = false;         // launch_kernel's programmatic dependent launches (dependent_launch())
  std::string launch_choice_;             // for choices()
  cudaStream_t stream_ = nullptr;         // Lane::bulk, lowest priority
  cudaStream_t border_stream_ = nullptr;  // Lane::border, highest priority
  cudaStream_t shell_stream_ = nullptr;   // a bulk sweep's CPML shell boxes, between the two (see sweep)
  cudaEvent_t shell_fork_ = nullptr, shell_join_ = nullptr;
  cudaEvent_t lane_fork_ = nullptr, lane_join_ = nullptr;        // the lanes into and out of a recording
  std::vector<cudaGraphExec_t> recordings_;                      // record_end's, by index
  DeviceArray<Cursor> cursor_;                                   // set_cursor's (made on the engine's GPU)
  DeviceArray<unsigned> flag_;                                   // fields_finite's
  std::array<cudaEvent_t, Engine<Real>::kTimeStamps> stamps_{};  // stamp's, with timing
  std::array<cudaEvent_t, kLaneMarks> marks_{};  // Engine::mark, timing disabled (cheaper to record and wait)
  std::vector<cudaEvent_t> trace_events_;        // trace_mark's pool, with timing
  std::size_t trace_used_ = 0;                   // points of the batch trace_times has not returned yet
  cudaStream_t trace_stream_ = nullptr;          // idle but for the anchors
  cudaEvent_t trace_anchor_ = nullptr;           // the batch's first point's anchor
  double trace_anchor_us_ = 0;                   // its time on the host's steady clock, microseconds
  FieldStorage<Real> storage_;                   // the fields and class bytes (field_arena.hpp)
  DeviceArray<CellCoefficients<Real>> classes_;  // for view() (coop's kernel)
  DeviceArray<PhaseCoefficients<Real>> phases_;  // the sweep kernels' (phase_table)
  DeviceArray<PointSource> sources_;
  std::vector<PointSource> host_sources_;  // sources_, for take_fold
  // The folded step (arm_fold): its samples and cursor as inject_sources will name them, and a bit
  // for each source an E sweep took (take_fold).
  struct Fold {
    bool armed = false;
    const Real* samples = nullptr;
    const Cursor* cursor = nullptr;
    unsigned folded = 0;
  } fold_;
  bool fold_sources_ = false;  // whether fold_sources folds (arm_fold)
  DeviceArray<Real> samples_;
  DeviceArray<ProbePoint> probes_;
  DeviceArray<Real> probe_buffer_;
  CpmlView<Real> cpml_;
  // TF/SF (kernels/tfsf.hpp): [0] H's nodes, [1] E's; the open step (fold_sources) or the cursor.
  std::array<std::vector<TfsfNode>, 2> tfsf_host_;
  std::array<DeviceArray<TfsfNode>, 2> tfsf_nodes_;
  DeviceArray<TfsfTerm<Real>> tfsf_terms_;
  DeviceArray<Real> tfsf_incident_;
  Index tfsf_width_ = 0, tfsf_steps_ = 0, tfsf_step_ = 0;
  const Cursor* tfsf_cursor_ = nullptr;
  std::array<DeviceArray<CpmlProfile<Real>>, kMaxCpmlFaces> cpml_tables_;
  std::array<DeviceArray<Real>, kMaxCpmlFaces> cpml_psi_;
  DispersionSetup<Real> dispersion_setup_;  // its rows and plane index on the host (disperse, dispersion_chunks)
  DispersionView<Real> dispersion_;         // device pointers
  DeviceArray<DispersiveRow> dispersion_rows_;
  DeviceArray<std::int8_t> dispersion_set_of_;
  DeviceArray<PoleSet<Real>> dispersion_sets_;
  DeviceArray<Real> dispersion_state_;
  std::size_t dispersion_shared_ = 0;  // bytes of the pass's shared tables
};

}  // namespace

template <typename Real>
std::unique_ptr<Engine<Real>> make_cuda_engine(const EngineSetup<Real>& setup, const CudaEngineOptions& options) {
  return std::make_unique<CudaEngine<Real>>(setup, options);
}
template std::unique_ptr<Engine<float>> make_cuda_engine<float>(const EngineSetup<float>&, const CudaEngineOptions&);
template std::unique_ptr<Engine<double>> make_cuda_engine<double>(const EngineSetup<double>&, const CudaEngineOptions&);

template <typename Real>
void cuda_sweep_pushing(Engine<Real>& engine, bool update_h, const NodeRange& range, const SweepPush<Real>& push) {
  auto* cuda = dynamic_cast<CudaEngine<Real>*>(&engine);
  if (!cuda) throw std::invalid_argument("engine '" + engine.name() + "' is not the cuda engine");
  if (update_h)
    cuda->template sweep_pushing<true>(range, push);
  else
    cuda->template sweep_pushing<false>(range, push);
}
template void cuda_sweep_pushing<float>(Engine<float>&, bool, const NodeRange&, const SweepPush<float>&);
template void cuda_sweep_pushing<double>(Engine<double>&, bool, const NodeRange&, const SweepPush<double>&);

template <typename Real>
CudaEngineView<Real> cuda_engine_view(Engine<Real>& engine) {
  auto* cuda = dynamic_cast<CudaEngine<Real>*>(&engine);
  if (!cuda) throw std::invalid_argument("engine '" + engine.name() + "' is not the cuda engine");
  return cuda->view();
}
template CudaEngineView<float> cuda_engine_view<float>(Engine<float>&);
template CudaEngineView<double> cuda_engine_view<double>(Engine<double>&);

template <typename Real>
std::vector<TfsfNode> cuda_tfsf_nodes(Engine<Real>& engine) {
  auto* cuda = dynamic_cast<CudaEngine<Real>*>(&engine);
  if (!cuda) throw std::invalid_argument("engine '" + engine.name() + "' is not the cuda engine");
  std::vector<TfsfNode> nodes = cuda->tfsf_nodes(0);
  nodes.insert(nodes.end(), cuda->tfsf_nodes(1).begin(), cuda->tfsf_nodes(1).end());
  return nodes;
}
template std::vector<TfsfNode> cuda_tfsf_nodes<float>(Engine<float>&);
template std::vector<TfsfNode> cuda_tfsf_nodes<double>(Engine<double>&);

template <typename Real>
std::vector<PointSource> host_sources(const CudaEngineView<Real>& view) {
  std::vector<PointSource> sources(static_cast<std::size_t>(view.source_count));
  if (sources.empty()) return sources;
  YEEX_CUDA(cudaSetDevice(view.device));
  YEEX_CUDA(cudaMemcpy(sources.data(), view.sources, sources.size() * sizeof(PointSource), cudaMemcpyDeviceToHost));
  return sources;
}
template std::vector<PointSource> host_sources<float>(const CudaEngineView<float>&);
template std::vector<PointSource> host_sources<double>(const CudaEngineView<double>&);

}  // namespace yeex
