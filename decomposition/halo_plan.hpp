// The halo plan: which planes of which field components go from which subdomain to which, and
// when; and which planes each subdomain sweeps. Every exchange backend executes this plan with
// its own mechanism; none computes geometry itself.
//
// THE STEP LOOP every solver runs, for each step n (R = halo depth, t = n % R):
//
//   if exchange_due(R, n): transfers(BeforeBlock)      // R > 1 only; empty for R = 1
//   transfers(BeforeH)                                 // R = 1 only; empty for R > 1
//   H sweep over update_ranges(d, s, R, t).h
//   transfers(BeforeE)                                 // R = 1 only; empty for R > 1
//   E sweep over update_ranges(d, s, R, t).e
//   inject the sources whose node plane lies in source_planes(d, s, R)
//
// Synchronisation: a phase's transfers must have landed before the receiver's next sweep, and a
// transfer reads planes that the sender's next sweep of that field overwrites (BeforeH reads E of
// step n-1, BeforeBlock E and H of step n-1, BeforeE H of step n), so the sender must not start
// that sweep before its planes have been read.
//
// What the stencil reads along z (kernels/yee_stencil.hpp): H at plane k reads E at k (all three)
// and k+1 (Ex, Ey) and its own old value; E at k reads the new H at k (all three) and k-1 (Hx, Hy)
// and its own old value. Plane -1 is a zero pad and plane nz is never updated, in every run.
//
// HALO DEPTH R = 1: two phases per step, no redundant work; both sweeps cover the owned planes
// [b, e) = [k_begin, k_end).
//   BeforeH: from the upper neighbour, Ex and Ey of plane e (its first owned plane).
//   BeforeE: from the lower neighbour, Hx and Hy of plane b-1 (its last owned plane).
//
// HALO DEPTH R > 1 (B+2R, Aaby et al. 2010): one exchange of all six components every R steps,
// then R substeps that recompute a shrinking border redundantly. "X valid on [p, q)" means every
// X component of those planes holds what the single-domain run holds at that time.
//   BeforeBlock (before the H sweep of steps n with n % R == 0):
//     from the upper neighbour: E planes [e, e+R), H planes [e, e+R-1);
//     from the lower neighbour: E planes [b-R, b), H planes [b-R, b).
//   Substep t = 0..R-1 sweeps, each range clipped to [0, nz):
//     H over [b-R+t, e+R-1-t),   E over [b-R+t+1, e+R-1-t).
// Proof that the owned planes come out exact. By the reads above, an H sweep over [p, q) leaves H
// valid on [p, q) if E was valid on [p, q+1) and H on [p, q); an E sweep over [p, q) leaves E
// valid on [p, q) if H was valid on [p-1, q) and E on [p, q). Planes a sweep skips go stale.
// Claim: before substep t, E is valid on [b-R+t, e+R-t) and H on [b-R+t, e+R-1-t).
//   t = 0: exactly what the exchange delivers, together with the owned planes [b, e) of E and H.
//   t -> t+1: the H sweep over [b-R+t, e+R-1-t) needs E on [b-R+t, e+R-t) and H on its own
//   range: given, so H becomes valid there. The E sweep over [b-R+t+1, e+R-1-t) needs H on
//   [b-R+t, e+R-1-t): just computed; and E on its own range, inside [b-R+t, e+R-t): given. So E
//   becomes valid on [b-R+(t+1), e+R-(t+1)), and H stays valid on [b-R+t, e+R-1-t), which holds
//   [b-R+(t+1), e+R-1-(t+1)).
// After substep R-1, E is valid on [b, e) and H on [b-1, e): the owned planes, which is all the
// senders of the next exchange need. At every substep both valid ranges hold [b, e), so checksums
// and probes of the owned planes are right after any step (a run need not be a whole number of
// blocks). Clipping is exact: at z = 0 the pad H plane -1 is zero in every run, so validity starts
// at plane 0 for all t; at z = nz the inert plane nz is stored by the last subdomain and read
// there as it is in the single-domain run. A slab at least R planes thick (SlabDecomposition
// checks it) owns every plane it sends, so what it sends is valid at the block boundary.
// Plane b-1 of H is sent although the receiver has just computed it: after an exchange the ghost
// zone then depends on nothing but the neighbours' owned planes (initial fields, restarts), for 3
// plane-components per interface and block.
//
// REQUIREMENT ON THE SOLVER for R > 1: a source whose node plane lies in a subdomain's ghost
// planes must be injected there too, every step, with that step's sample; otherwise the
// redundantly computed border misses it. Injecting into a ghost plane that is stale at that
// substep is harmless: nothing reads it before the next exchange overwrites it. source_planes()
// gives the planes; for R = 1 it is the owned (stored) planes, as in a single-domain run.
//
// THE BORDER SPLIT (backends that overlap the exchange with the sweeps, see
// src/exchange/border_first_exchange.hpp). In a step that exchanges (every step for R = 1, the
// first substep of a block for R > 1) each sweep range is cut along z into a lower border, a bulk
// and an upper border. A plane is border if its update reads a plane that one of the step's
// transfers writes into s, or writes a plane that one of them reads out of s (reads as in the
// stencil above, its own old value included; fields are compared as E or H, not per component).
// An E plane that reads an H border plane is border too, on that border's side: so the bulk E
// sweep reads only planes of the bulk H sweep, and overwrites none that a border H sweep reads
// (those read E at k and k+1 of their H plane k), and it may follow the bulk H sweep on its own
// lane without waiting for the border lane. The bulk, which lies between the borders, therefore
// touches no plane in flight: it can be swept while the transfers run, and the borders before
// and after them. A border plane belongs to the side of the neighbour whose transfer marks it;
// the borders grow to cover every marked plane and, in a slab too thin to keep them apart, meet
// (the bulk is then empty).
//   R = 1: H border = the last owned plane e-1 (reads E of plane e, is sent up), E border = the
//     first owned plane b (reads H of plane b-1, is sent down) and the last, e-1 (reads the H
//     border plane); no border where there is no neighbour.
//   R > 1: H border = [b-R, b+R-1) and [e-R, e+R-1), E border = [b-R+1, b+R) and [e-R, e+R-1),
//     clipped to the sweep ranges: the ghost planes and the R planes sent each way (these E
//     borders already hold every E plane that reads an H border plane).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "decomposition/grid.hpp"
#include "decomposition/slab_decomposition.hpp"

namespace yeex {

enum class HaloPhase : int { BeforeBlock = 0, BeforeH, BeforeE };
inline constexpr int kHaloPhaseCount = 3;
inline constexpr std::array<HaloPhase, kHaloPhaseCount> kAllHaloPhases = {HaloPhase::BeforeBlock, HaloPhase::BeforeH,
                                                                          HaloPhase::BeforeE};

inline constexpr std::string_view phase_name(HaloPhase p) {
  constexpr std::array<std::string_view, kHaloPhaseCount> names = {"before-block", "before-h", "before-e"};
  return names[static_cast<int>(p)];
}

// Copy of some components' planes from one subdomain's owned planes into a neighbour's ghost
// planes. Planes are global; a backend maps them with SlabDecomposition::local_k of each side.
struct HaloTransfer {
  HaloPhase phase = HaloPhase::BeforeH;
  int from = kNoNeighbour, to = kNoNeighbour;
  std::vector<Component> components;
  PlaneRange source;       // planes read in `from`
  PlaneRange destination;  // planes written in `to` (the same global planes)

  // Bytes moved; plane_elements = FieldLayout::pitch_z (equal in every subdomain: same nx, ny).
  std::size_t bytes(std::size_t element_size, Index plane_elements) const {
    return components.size() * static_cast<std::size_t>(source.count() * plane_elements) * element_size;
  }
};

struct HaloPlan {
  Index halo_depth = 1;
  std::array<std::vector<HaloTransfer>, kHaloPhaseCount> by_phase;  // indexed by HaloPhase

  const std::vector<HaloTransfer>& transfers(HaloPhase p) const { return by_phase[static_cast<int>(p)]; }
};

// The H and E sweep ranges of one subdomain at one substep, in global nodes (x: [0,nx), y: [0,ny)).
struct SweepRanges {
  NodeRange h, e;
};

// All transfers of halo depth R (1 <= R <= d.halo_depth()), grouped by phase, ordered by
// receiver, then upper before lower neighbour, then E before H. Throws std::invalid_argument
// for an R the decomposition's ghost planes cannot hold.
HaloPlan halo_plan(const SlabDecomposition& d, Index halo_depth);

// Sweep ranges of subdomain s at substep t = step % R (see the header comment).
SweepRanges update_ranges(const SlabDecomposition& d, int s, Index halo_depth, Index substep);

// A sweep range cut along z into [k0, x) lower border, [x, y) bulk, [y, k1) upper border (any may
// be empty); x and y span the range's full x-y extent.
struct SplitSweep {
  NodeRange lower, bulk, upper;
};
struct BorderSplit {
  SplitSweep h, e;
};

// The border split of subdomain s's sweeps in a step that exchanges, in global nodes (see the
// header comment).
BorderSplit border_split(const SlabDecomposition& d, const HaloPlan& plan, int s);

// Whether step `step` starts a block, i.e. runs the BeforeBlock exchange (every step for R = 1).
inline bool exchange_due(Index halo_depth, Index step) { return step % halo_depth == 0; }

// Global planes where subdomain s injects sources: its stored planes for R = 1, its whole local
// array inside the grid for R > 1 (the requirement above).
PlaneRange source_planes(const SlabDecomposition& d, int s, Index halo_depth);

}  // namespace yeex
