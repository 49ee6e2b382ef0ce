// coop's sweep plan (src/exchange/coop_kernel.cuh): how the persistent kernel's blocks walk a
// subdomain's sweep in tiles, where the bands of a long sweep end, and which block and thread of
// the E sweep update each source's node (the sweep sources). Host logic, and the tile cursor the
// kernel runs, in a header of their own so that the CPU tests check them
// (tests/unit/test_coop_plan.cpp).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "decomposition/grid.hpp"
#include "kernels/engine.hpp"
#include "kernels/field_layout.hpp"

#if defined(__CUDACC__)
#define YEEX_COOP_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define YEEX_COOP_HOST_DEVICE inline
#endif

namespace yeex {

// A sweep over a box of nodes in tiles of 32 x (kBlockSize / 32) nodes (x, y) of one plane (64 x
// (kBlockSize / 32) with node pairs, two nodes a thread: SweepPlan::pair), one
// tile per block at a time, tiles in x, then y, then plane order: the order in which the engine's
// sweep kernel runs its blocks. A block's y neighbours then mostly lie in its own tile (served by
// L1) and the blocks at work cover a few contiguous rows (z neighbours in L2); striding through
// the box one node per thread, a block a row, every y neighbour would come from L2.
constexpr int kTileX = 32;
constexpr unsigned kBandPlanes = 64;
constexpr int kSweepSources = 4;

// The loop divides nothing: a block's tile advances by the grid's block count, worked out on the
// host as a step in (tile x, tile y, plane) with carries. The planes run upwards, or downwards
// (the H sweep, whose top plane is the one it sends).
struct SweepPlan {
  unsigned tiles = 0;                 // in the box; 0: nothing to do
  unsigned tiles_x = 1, tiles_y = 1;  // per row, per plane
  int pair = 1;                       // nodes a thread updates in x: 1, or 2 (node pairs, a tile 2 kTileX wide)
  unsigned step_x = 0, step_y = 0, step_z = 0;  // the grid's block count in tiles
  int nx = 0, ny = 0;                           // box extent in x and y
  unsigned nz = 0;                              // and in planes
  bool downward = false;                        // planes from the top down
  unsigned band_planes = 0;                     // see sweep (0: no bands)
  unsigned border_tiles = 0;                    // the first plane's tiles when a neighbour gets that plane, else 0
  unsigned publish_band =
      0;  // a sent plane's publication: after the band that ends here, else tile by tile (see sweep)
  Index i0 = 0, j0 = 0, k0 = 0;  // the box's first node (local)
  Index first_offset = 0;        // array offset of the box's first node
};

// Planes per band of a sweep (see sweep) over `planes` planes of `plane_bytes` bytes (a field
// array's) in `tiles_per_plane` tiles by `blocks` blocks. A band spans about `rule.span_bytes` of an
// array (the blocks drift apart in memory, not in planes): kBandBytes on a GPU whose L2 holds
// kBandL2Bytes, in proportion to the L2 elsewhere (band_span_bytes; docs/performance.md#coop-band-span).
// Within a factor of two of that span it takes the planes whose tiles the blocks share most evenly
// (the least idle share at the band's grid.sync(), where every block has spent
// ceil(tiles / blocks) tiles' time), then the nearest to the span. Where
// blocks / gcd(blocks, tiles_per_plane) planes fit, every block sweeps as many tiles as any other.
// A short sweep has no bands: its blocks have no time to drift apart, and a band's grid.sync()
// costs more than it saves; so bands from kBandMinTiles tiles per block.
constexpr Index kBandBytes = Index(kBandPlanes) * 512 * 512 * 4;
constexpr Index kBandL2Bytes = Index(60) << 20;
constexpr Index kBandMinTiles = 160;

// The span of a band on a GPU of `l2_bytes` of L2 cache.
inline Index band_span_bytes(Index l2_bytes) { return kBandBytes * l2_bytes / kBandL2Bytes; }

struct BandRule {
  Index span_bytes = kBandBytes;  // band_span_bytes of the GPU
  int fixed = -1;                 // >= 0: bands of that many planes (0: none), a test seam
};

inline unsigned band_planes(unsigned tiles_per_plane, unsigned planes, unsigned blocks, Index plane_bytes,
                            const BandRule& rule = {}) {
  if (rule.fixed >= 0) return static_cast<unsigned>(rule.fixed);
  if (Index(tiles_per_plane) * planes < kBandMinTiles * blocks) return 0;
  const Index span = std::max<Index>(1, (rule.span_bytes + plane_bytes / 2) / std::max<Index>(1, plane_bytes));
  const Index first = (span + 1) / 2, last = std::min<Index>(2 * span, planes);
  if (last < first) return planes;                // one band: the whole sweep
  Index best = 0, best_idle = 1, best_slots = 1;  // the best band so far and its idle share (1: none yet)
  for (Index band = first; band <= last; ++band) {
    const Index tiles = band * tiles_per_plane, slots = (tiles + blocks - 1) / blocks * blocks;
    const Index idle = slots - tiles;  // idle share idle / slots
    if (idle * best_slots < best_idle * slots ||
        (idle * best_slots == best_idle * slots && std::abs(band - span) < std::abs(best - span)))
      best = band, best_idle = idle, best_slots = slots;
  }
  return static_cast<unsigned>(best);
}

// The plan of a sweep over the local nodes r by `blocks` blocks of `block_size` threads (tiles of
// pair kTileX x block_size / kTileX nodes, `pair` nodes a thread in x), planes upwards or `downward`,
// of arrays of `real_bytes` bytes a value.
inline SweepPlan make_sweep_plan(const FieldLayout& L, const NodeRange& r, unsigned blocks, bool downward,
                                 int block_size, int pair = 1, int real_bytes = 4, const BandRule& bands = {}) {
  const int tile_y = block_size / kTileX, tile_x = kTileX * pair;
  SweepPlan s;
  s.pair = pair;
  if (r.empty()) return s;
  s.nx = static_cast<int>(r.i1 - r.i0);
  s.ny = static_cast<int>(r.j1 - r.j0);
  s.nz = static_cast<unsigned>(r.k1 - r.k0);
  s.downward = downward;
  s.tiles_x = static_cast<unsigned>((s.nx + tile_x - 1) / tile_x);
  s.tiles_y = static_cast<unsigned>((s.ny + tile_y - 1) / tile_y);
  s.band_planes = band_planes(s.tiles_x * s.tiles_y, s.nz, blocks, Index(s.nx) * s.ny * real_bytes, bands);
  const Index tiles = Index(s.tiles_x) * s.tiles_y * (r.k1 - r.k0);
  if (tiles > Index(std::numeric_limits<unsigned>::max()))
    throw std::invalid_argument("coop: a subdomain of " + std::to_string(r.count()) +
                                " nodes has more tiles than 2^32");
  s.tiles = static_cast<unsigned>(tiles);
  s.step_x = blocks % s.tiles_x;
  s.step_y = blocks / s.tiles_x % s.tiles_y;
  s.step_z = blocks / s.tiles_x / s.tiles_y;
  s.i0 = r.i0;
  s.j0 = r.j0;
  s.k0 = r.k0;
  s.first_offset = L.offset(r.i0, r.j0, r.k0);
  return s;
}

// The local plane a sweep runs first.
inline Index first_plane(const SweepPlan& s) { return s.downward ? s.k0 + Index(s.nz) - 1 : s.k0; }

// A tile's place in the order of a sweep (tiles in x, then y, then planes in sweep order).
YEEX_COOP_HOST_DEVICE unsigned tile_key(const SweepPlan& s, unsigned tile_x, unsigned tile_y, unsigned k) {
  return (k * s.tiles_y + tile_y) * s.tiles_x + tile_x;
}

// Whether node pairs fit a sweep over r of layout L: float arrays whose rows start on an even
// element (a pair's 8 bytes aligned), a box that starts on an even node and holds an even count in x.
inline bool pairs_fit(const FieldLayout& L, const NodeRange& r) {
  return L.origin_x % 2 == 0 && L.pitch_y % 2 == 0 && r.i0 % 2 == 0 && (r.i1 - r.i0) % 2 == 0;
}

// Where the E sweep `e` (tiles of e.pair kTileX x tile_y nodes) updates each of `sources`: its tile
// (tile_key) and the thread of the tile's block at its node (of its pair), for the sweep sources
// (add_sweep_sources); none when there are more than kSweepSources sources or one lies outside the
// sweep: then they go in rounds after the sweep (so do sources on a sent E plane: set_up).
struct SweepSourcePlace {
  unsigned key, thread;
};
inline std::vector<SweepSourcePlace> sweep_source_places(const FieldLayout& L, const SweepPlan& e, int tile_y,
                                                         const std::vector<PointSource>& sources) {
  if (sources.size() > static_cast<std::size_t>(kSweepSources)) return {};
  std::vector<SweepSourcePlace> places;
  for (const PointSource& source : sources) {
    const FieldLayout::Node at = L.node(source.offset);
    const Index i = at.i - e.i0, j = at.j - e.j0, k = at.k - e.k0;
    if (i < 0 || i >= e.nx || j < 0 || j >= e.ny || k < 0 || k >= Index(e.nz)) return {};
    const auto plane = static_cast<unsigned>(e.downward ? Index(e.nz) - 1 - k : k);
    const Index tile_x = Index(kTileX) * e.pair;
    places.push_back({tile_key(e, static_cast<unsigned>(i / tile_x), static_cast<unsigned>(j / tile_y), plane),
                      static_cast<unsigned>(i % tile_x / e.pair + j % tile_y * kTileX)});
  }
  return places;
}

// A block's place in a sweep: its tile's (x, y, plane in sweep order). The tile's index in the
// sweep is not kept (registers are scarce): the sweep ends at k = nz, its first plane is k = 0.
struct TileCursor {
  unsigned tile_x, tile_y, k;

  // Block `block`'s first tile: tile `block` of the sweep.
  YEEX_COOP_HOST_DEVICE TileCursor(const SweepPlan& s, unsigned block)
      : tile_x(block % s.tiles_x), tile_y(block / s.tiles_x % s.tiles_y), k(block / s.tiles_x / s.tiles_y) {}

  // The block's next tile: the grid's block count further.
  YEEX_COOP_HOST_DEVICE void advance(const SweepPlan& s) {
    tile_x += s.step_x;
    if (tile_x >= s.tiles_x) {
      tile_x -= s.tiles_x;
      ++tile_y;
    }
    tile_y += s.step_y;
    if (tile_y >= s.tiles_y) {
      tile_y -= s.tiles_y;
      ++k;
    }
    k += s.step_z;
  }
};

}  // namespace yeex
