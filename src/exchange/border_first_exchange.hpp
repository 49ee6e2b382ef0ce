// The border-first schedule: the step loop of backends that hide their halo transfers behind the
// bulk of the sweeps (overlap, host-staged and b2r on GPUs, nccl, mpi). It is written once here; a
// backend supplies only its transport: how the transfers of one phase are issued on a GPU's
// border lane, and how that lane waits until the planes sent to it have landed.
//
// In a step that exchanges (every step for R = 1, the first substep of a block for R > 1) each
// sweep is cut into borders and bulk by the halo plan's border split (border_split in
// decomposition/halo_plan.hpp): the border planes are those a transfer of the step reads or
// writes, or that read a received plane; the bulk touches none of them. Subdomain s issues, in
// this order on the host (lanes: kernels/engine.hpp; marks: Engine::mark/follow):
//
//   border lane (high priority)                 bulk lane (low priority)
//                                               mark bulk_done
//   follow bulk_done
//   issue, await the phase before H
//   H over the lower and upper borders
//   issue the phase before E (R = 1)
//                                               H over the bulk
//                                               mark bulk_h_done
//   await the phase before E
//   follow bulk_h_done
//   E over the lower and upper borders
//   mark border_e_done
//                                               E over the bulk
//                                               follow border_e_done
//                                               sources (n), probes (n - first)
//
// A step that does not exchange (R > 1, substeps 1..R-1; every step of a run on one subdomain,
// whose plan has no transfers) sweeps H and E, then sources and probes, on the bulk lane alone.
// A neighbour that does not exist means no border on that side; a slab too thin to have a bulk
// does everything on the border lane.
//
// Why every read sees what the single-domain run's read sees (same sweeps, same sources, every
// node updated once per half step: the split is a partition of the sweep range):
//   transfers and borders: they run on the border lane in the order of the halo plan's step
//     loop (phase before H, H, phase before E, E), so each transfer reads and writes the plane
//     versions that loop gives it;
//   transfers and the bulk: by the split, a bulk sweep reads no plane the step receives and
//     writes no plane it sends, so it may run at any time during the transfers;
//   transfers and earlier steps: the border lane follows bulk_done, which stands for every
//     earlier sweep and source on both lanes (the bulk lane followed border_e_done before its
//     sources): sends read final planes, receives overwrite ghost planes nobody reads any more;
//   border and bulk sweeps of one step: border E reads the new H of both parts (it follows
//     bulk_h_done, which also orders it after the bulk H that read the E planes it overwrites);
//     bulk E reads only bulk H planes and overwrites no E plane a border H reads (the split
//     makes every E plane that reads a border H plane border), so it follows the bulk H on its
//     own lane: no cross-lane wait in front of it, and its kernel launches as a dependent launch
//     of the bulk H's. H of step n+1 follows all of step n (border: bulk_done; bulk: its own
//     order, border_e_done before the sources). Without the cross-lane wait in front of the bulk
//     E, small grids run faster (docs/performance.md#border-split);
//   sources and probes follow every sweep of the step (bulk follows border_e_done). Sources the
//     engine folds into the E sweeps (Engine::fold_sources, armed at the top of each step) are
//     added by the sweep that updates their node, on its lane: on the border lane before
//     border_e_done, which every later reader of the node follows.
// The host never waits for a GPU in the step loop: marks and follows only order the lanes.
//
// Transports whose await() holds the host until the planes have landed (MPI: awaits_on_host())
// get the same work on the same lanes, issued to the engine in another order: each bulk sweep
// between the issue and the await of the phase before it, so that it runs while the host waits:
//
//   issue the phase before the block, before H
//   H over the bulk (in slices, progress(s) after each)
//   await them
//   H over the lower and upper borders
//   issue the phase before E
//   E over the bulk (in slices, progress(s) after each)
//   await it
//   E over the lower and upper borders, then sources and probes
//
// Each lane sees what it sees in the diagram above, and the marks and follows stand where they
// stand there; on an engine with one queue (the host engine) the sweeps run in the host's order,
// which the split allows: the bulk reads no plane a transfer of the step receives or a border
// sweep writes and writes none they read (bulk E reads only bulk H planes). A bulk sweep cut into
// slices along z updates each node once, as the whole sweep does.
//
// Replay (the graph backend): where the transport's issue() and await() hold no host barrier and
// decide nothing per step (replayable(): GPUs ordered by monotonic flags on the GPUs), the steps
// issue the same work every block of R steps, but for the step's sources and probe slot. Those
// then come from the engine's cursor (Engine::set_cursor, once per call), and each subdomain
// records one run of kReplaySteps steps (rounded up to whole blocks) once, the first time a call
// has that many left at the start of a block, and replays it from then on (a CUDA graph: one
// launch instead of some twenty API calls a step). The steps before the first recording are
// issued directly, through the same cursor, so that every kernel a recording holds has run once.
// Replay changes when the work is issued, not what it is: the same sweeps, transfers and waits in
// the same order on each lane. Steps in a trace window (yeex run --trace) are issued directly,
// never recorded or replayed: a replay is one launch, whose phases no mark could separate.
//
// Pushing sweeps (the graph backend at halo depth 1 without CPML, on small planes;
// graph_exchange.cu says when it takes them): the border split above costs a GPU that holds one
// slab the boundaries of four extra kernels a step and their cross-lane events, which nothing
// overlaps (docs/performance.md#graph-pushing-limit). A transport that can
// push a plane from inside the sweep that computes it sweeps each step that exchanges itself, on
// the bulk lane alone: H as one kernel whose first blocks take the plane the step sends up (waiting
// first for the E planes it reads, which also says the receiver has read the ghost plane they
// overwrite), store it into the receiver and signal; then E likewise with the plane it sends down;
// then sources and probes. What a kernel waits for was signalled by a neighbour's kernel of an
// earlier half step, whose waits in turn go further back: no cycle, no deadlock, whatever the block
// scheduler does.
//
// Transport contract (the subclass):
//   start(s): at the top of every advance() call, by every subdomain's thread.
//   issue(s, phase): enqueues on s's border lane the phase's transfers s takes part in: its
//     sends read its planes as they stand at that point of the lane, its receives write its
//     ghost planes no earlier than that point;
//   await(s, phase): work issued on s's border lane afterwards runs after every plane the phase
//     sends to s has landed.
//   Both are called only for phases that have transfers in the plan, the same for every
//   subdomain, so that barriers inside them match; ordering against other GPUs' lanes is the
//   transport's business (NCCL's matched send/receive, or events between GPUs).
//   awaits_on_host(): await() returns once the planes have landed; the schedule then issues the
//     bulk sweeps as above, in bulk_slices(s) slices, calling progress(s) after each.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "src/exchange/halo_exchange.hpp"

namespace yeex {

template <typename Real>
class BorderFirstExchange : public HaloExchange<Real> {
 public:
  // Steps a recording holds at least, by default (whole blocks of R steps; --graph-steps sets it):
  // long enough that a replay's launch is small beside the steps it holds, short enough that a call
  // of a few dozen steps replays.
  static constexpr Index kReplaySteps = 32;
  // Throws std::invalid_argument unless every engine of this process exists.
  explicit BorderFirstExchange(ExchangeContext<Real> context);
  void advance(int s, Index first, Index count) final;

 protected:
  virtual void start(int s) { (void)s; }
  virtual void issue(int s, HaloPhase phase) = 0;
  virtual void await(int s, HaloPhase phase) { (void)s, (void)phase; }
  // Whether the plan has transfers in any phase (a run on one subdomain has none).
  bool exchanges_any() const { return exchanges_any_; }
  // Whether the steps may be recorded and replayed (see Replay above).
  virtual bool replayable() const { return false; }
  // At the end of every advance() call, by every subdomain's thread.
  virtual void finish(int s) { (void)s; }
  // Pushing sweeps (see above): whether the transport sweeps every step that exchanges itself,
  // and that step's H and E sweeps of s (local node ranges), issued on the bulk lane.
  virtual bool pushing_sweeps() const { return false; }
  virtual void sweep_pushing(int s, const NodeRange& h, const NodeRange& e) { (void)s, (void)h, (void)e; }
  // A transport whose await() waits on the host (see above): the bulk sweeps go between the issue
  // and the await of the phase before them, cut into bulk_slices(s) slices along z with
  // progress(s) after each (where messages move only inside the transport's calls).
  virtual bool awaits_on_host() const { return false; }
  virtual int bulk_slices(int s) const {
    (void)s;
    return 1;
  }
  virtual void progress(int s) { (void)s; }

 private:
  void step(int s, Index n, Index first, bool cursor);
  void exchanging_step(int s, Index n);

  Index replay_block_ = 0;                         // steps a recording holds
  std::vector<int> recording_;                     // [subdomain]: its recorded steps (Engine::record_end), -1: none yet
  std::vector<Index> direct_steps_;                // [subdomain]: steps issued directly through the cursor
  std::vector<BorderSplit> splits_;                // [subdomain], local nodes; only this process's subdomains
  std::array<bool, kHaloPhaseCount> exchanges_{};  // [phase]: the plan has transfers in it
  bool exchanges_any_ = false;                     // in some phase
};

}  // namespace yeex
