// coop's sweep plan (src/exchange/coop_plan.hpp): the tile cursor its persistent kernel runs, the
// bands of a long sweep, and where the sweep sources are added. The GPU side (the fields, bit for
// bit, under every split and form) is tests/gpu/test_multi_gpu.cpp's coop cases.
#include "src/exchange/coop_plan.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

// The keys (tile_key) of the tiles block `block` sweeps, in its order: the kernel's walk (TileCursor
// from the block's first tile, advance() until the sweep's end; a block past the last tile sweeps
// none). A walk longer than the sweep's tiles stops there (a broken cursor fails, never hangs).
std::vector<unsigned> walk(const SweepPlan& s, unsigned block) {
  std::vector<unsigned> keys;
  if (block >= s.tiles) return keys;
  for (TileCursor at(s, block); at.k < s.nz && keys.size() <= s.tiles; at.advance(s))
    keys.push_back(tile_key(s, at.tile_x, at.tile_y, at.k));
  return keys;
}

struct Box {
  Index nx, ny, nz;  // the subdomain's nodes
  NodeRange range;   // the sweep's, local
};

FieldLayout layout_of(const Box& b) { return FieldLayout::make(b.nx, b.ny, b.nz, 1, sizeof(float)); }

const std::vector<Box>& boxes() {
  static const std::vector<Box> list = {{41, 37, 12, {0, 40, 0, 36, 0, 12}},   // tiles cut off in x and y
                                        {64, 64, 8, {0, 64, 0, 64, 0, 8}},     // whole tiles
                                        {33, 9, 5, {1, 32, 1, 8, 1, 4}},       // a box inside the array
                                        {129, 65, 3, {0, 129, 0, 65, 2, 3}}};  // one plane
  return list;
}

// Block b sweeps tiles b, b + blocks, b + 2 blocks, ... in the sweep's order, and the blocks
// together every tile once: the cursor's carries (make_sweep_plan's step in tiles) hold for every
// box, tile shape, grid and direction, grids of one block and of more blocks than tiles included.
TEST(CoopPlan, EveryBlockWalksItsTilesInSweepOrder) {
  for (const Box& box : boxes())
    for (int block_size : {1024, 512, 256})
      for (unsigned blocks : {1u, 3u, 7u, 64u, 132u, 1000u})
        for (bool downward : {false, true})
          for (int pair : {1, 2}) {
            const SweepPlan s = make_sweep_plan(layout_of(box), box.range, blocks, downward, block_size, pair);
            SCOPED_TRACE(::testing::Message()
                         << "box " << box.nx << " x " << box.ny << " x " << box.nz << ", blocks of " << block_size
                         << ", " << blocks << " blocks, downward " << downward << ", " << pair << " node(s) a thread");
            ASSERT_EQ(s.tiles_x, (box.range.i1 - box.range.i0 + kTileX * pair - 1) / (kTileX * pair));
            ASSERT_EQ(s.tiles, s.tiles_x * s.tiles_y * s.nz);
            std::vector<int> seen(s.tiles, 0);
            for (unsigned b = 0; b < blocks; ++b) {
              const std::vector<unsigned> keys = walk(s, b);
              for (std::size_t n = 0; n < keys.size(); ++n) {
                ASSERT_EQ(keys[n], b + n * blocks);
                ++seen[keys[n]];
              }
              if (b < s.tiles) EXPECT_GE(keys.back() + blocks, s.tiles);  // it stops after its last tile
            }
            for (unsigned key = 0; key < s.tiles; ++key) EXPECT_EQ(seen[key], 1) << "tile " << key;
          }
}

// Node pairs where a box starts on an even node and holds an even count in x, in rows of float
// arrays that start on an even element (8-byte pairs); anything else sweeps one node a thread.
TEST(CoopPlan, PairsFitEvenBoxesOfEvenRows) {
  const FieldLayout L = FieldLayout::make(64, 8, 8, 1, sizeof(float));
  ASSERT_EQ(L.origin_x % 2, 0);
  EXPECT_TRUE(pairs_fit(L, {0, 64, 0, 8, 0, 8}));
  EXPECT_TRUE(pairs_fit(L, {2, 10, 1, 7, 3, 4}));
  EXPECT_FALSE(pairs_fit(L, {1, 63, 0, 8, 0, 8}));  // starts on an odd node
  EXPECT_FALSE(pairs_fit(L, {0, 63, 0, 8, 0, 8}));  // an odd count
  FieldLayout odd = L;
  odd.pitch_y += 1;
  EXPECT_FALSE(pairs_fit(odd, {0, 64, 0, 8, 0, 8}));  // rows on odd elements
}

// The node thread t of the block that sweeps tile `key` updates (the kernel's update_tile_node; with
// pairs the first of its two).
Index node_of(const SweepPlan& s, const FieldLayout& L, int block_size, unsigned key, unsigned t) {
  const int tile_y = block_size / kTileX;
  const unsigned tx = key % s.tiles_x, ty = key / s.tiles_x % s.tiles_y, k = key / s.tiles_x / s.tiles_y;
  const Index i = (Index(tx) * kTileX + t % kTileX) * s.pair, j = Index(ty) * tile_y + t / kTileX;
  const Index plane = s.downward ? Index(s.nz) - 1 - k : k;
  return s.first_offset + i + j * L.pitch_y + plane * L.pitch_z;
}

PointSource source_at(const FieldLayout& L, Index i, Index j, Index k, Component c = Component::Ez) {
  PointSource source;
  source.component = c;
  source.offset = L.offset(i, j, k);
  return source;
}

// The sweep sources: each source's tile and thread are those whose update writes its node, so the
// thread that adds it after the sweep is the one that stored the value (no other thread's store
// to wait for). Sources sharing a node share the place.
TEST(CoopPlan, SweepSourcesNameTheThreadThatUpdatesTheirNode) {
  for (const Box& box : boxes())
    for (int block_size : {1024, 512, 256})
      for (bool downward : {false, true})
        for (int pair : {1, 2}) {
          const FieldLayout L = layout_of(box);
          const SweepPlan s = make_sweep_plan(L, box.range, 132, downward, block_size, pair);
          SCOPED_TRACE(::testing::Message() << "blocks of " << block_size << ", " << pair << " node(s) a thread");
          const NodeRange& r = box.range;
          const std::vector<PointSource> sources = {
              source_at(L, r.i0, r.j0, r.k0), source_at(L, r.i1 - 1, r.j1 - 1, r.k1 - 1, Component::Ex),
              source_at(L, (r.i0 + r.i1) / 2, r.j1 - 1, r.k0, Component::Ey), source_at(L, r.i0, r.j0, r.k0)};
          const std::vector<SweepSourcePlace> places = sweep_source_places(L, s, block_size / kTileX, sources);
          ASSERT_EQ(places.size(), sources.size());
          for (std::size_t q = 0; q < sources.size(); ++q) {
            ASSERT_LT(places[q].key, s.tiles);
            ASSERT_LT(places[q].thread, static_cast<unsigned>(block_size));
            const Index first = node_of(s, L, block_size, places[q].key, places[q].thread);  // of the thread's pair
            EXPECT_TRUE(sources[q].offset >= first && sources[q].offset < first + s.pair) << "source " << q;
          }
          EXPECT_EQ(places[0].key, places[3].key);
          EXPECT_EQ(places[0].thread, places[3].thread);
        }
}

// Where the E sweep cannot add the sources itself, the list is empty and they go in rounds: more
// than kSweepSources of them, or one outside the sweep (a ghost plane, a node the sweep skips).
// None at all: empty too.
TEST(CoopPlan, SweepSourcesFallBackToTheRounds) {
  const Box box{41, 37, 12, {0, 40, 0, 36, 0, 12}};
  const FieldLayout L = layout_of(box);
  const SweepPlan s = make_sweep_plan(L, box.range, 132, false, 1024);
  const PointSource inside = source_at(L, 3, 4, 5);
  EXPECT_EQ(sweep_source_places(L, s, 32, {inside}).size(), 1u);
  EXPECT_TRUE(sweep_source_places(L, s, 32, {}).empty());
  EXPECT_TRUE(sweep_source_places(L, s, 32, std::vector<PointSource>(kSweepSources + 1, inside)).empty());
  EXPECT_EQ(sweep_source_places(L, s, 32, std::vector<PointSource>(kSweepSources, inside)).size(),
            static_cast<std::size_t>(kSweepSources));
  EXPECT_TRUE(sweep_source_places(L, s, 32, {inside, source_at(L, 3, 4, -1)}).empty());  // a ghost plane
  EXPECT_TRUE(sweep_source_places(L, s, 32, {source_at(L, 40, 4, 5)}).empty());          // x beyond the sweep
  EXPECT_TRUE(sweep_source_places(L, s, 32, {source_at(L, 3, 36, 5)}).empty());          // y beyond it
}

// Bands (see band_planes): none on a short sweep; else about 64 planes of 512^2 floats, within a
// factor of two the planes whose tiles the blocks share most evenly, the nearest to the span among
// equals: the measured cases of its comment (512^3 in float: 396 blocks, 256 tiles a plane, 99
// planes; 264 blocks, 66; the 256 x 256 x 4096 deck, 297; in double 58 and, with CPML, 29), a
// span in proportion to the L2 (the same on the 60 MiB of the GPU it was measured on; twice on
// twice the L2), and BandRule's fixed bands.
TEST(CoopPlan, BandsSpanAboutSixtyFourPlanesOf512SquaredSharedEvenly) {
  constexpr Index kFloatPlane = Index(512) * 512 * 4;
  EXPECT_EQ(band_planes(256, 512, 396, kFloatPlane), 99u);           // 64 tiles a block
  EXPECT_EQ(band_planes(256, 512, 264, kFloatPlane), 66u);           // 33 planes share evenly: 66 nearer than 33, 99
  EXPECT_EQ(band_planes(64, 4096, 396, kFloatPlane / 4), 297u);      // 256^2 planes: a span of 256 planes
  EXPECT_EQ(band_planes(512, 512, 396, 2 * kFloatPlane), 58u);       // double: a span of 32 planes
  EXPECT_EQ(band_planes(1024, 512, 396, 2 * kFloatPlane), 29u);      // double with CPML (tiles of 256)
  EXPECT_EQ(band_planes(400, 160, 396, Index(640) * 640 * 4), 82u);  // 640^3 over 4 GPUs: least idle, 82 of 21-82
  EXPECT_EQ(band_planes(16, 32, 132, Index(128) * 128 * 4), 0u);     // 128^3 over 4 GPUs: 4 tiles a block
  EXPECT_EQ(band_planes(256, 247, 396, kFloatPlane), 0u);            // just under kBandMinTiles a block
  EXPECT_EQ(band_planes(256, 248, 396, kFloatPlane), 99u);           // just over
  for (unsigned blocks : {132u, 264u, 396u, 660u, 1000u})
    for (unsigned tiles : {16u, 64u, 100u, 256u, 400u, 1024u}) {
      const unsigned planes = 4096;
      const Index plane_bytes = Index(tiles) * 1024 * 4;  // tiles of 1024 floats
      const Index span = std::max<Index>(1, (kBandBytes + plane_bytes / 2) / plane_bytes);
      const Index first = (span + 1) / 2, last = std::min<Index>(2 * span, planes);
      const unsigned band = band_planes(tiles, planes, blocks, plane_bytes);
      SCOPED_TRACE(std::to_string(blocks) + " blocks, " + std::to_string(tiles) + " tiles a plane");
      if (Index(tiles) * planes < kBandMinTiles * blocks) {
        EXPECT_EQ(band, 0u);
        continue;
      }
      EXPECT_GE(Index(band), first);
      EXPECT_LE(Index(band), last);
      // No band of the range leaves a smaller idle share at its grid.sync().
      const auto idle = [blocks, tiles](Index p) {
        const Index t = p * tiles;
        return double((t + blocks - 1) / blocks * blocks - t) / double((t + blocks - 1) / blocks * blocks);
      };
      for (Index p = first; p <= last; ++p) EXPECT_LE(idle(band), idle(p) + 1e-12);
    }
  EXPECT_EQ(make_sweep_plan(layout_of({512, 512, 512, {0, 512, 0, 512, 0, 512}}), {0, 512, 0, 512, 0, 512}, 396, false,
                            512, 2)
                .band_planes,
            99u);
  EXPECT_EQ(make_sweep_plan(layout_of({512, 512, 512, {0, 512, 0, 512, 0, 512}}), {0, 512, 0, 512, 0, 512}, 396, false,
                            512, 1, 8)
                .band_planes,
            58u);
  EXPECT_EQ(band_span_bytes(Index(60) << 20), kBandBytes);
  EXPECT_EQ(band_span_bytes(Index(120) << 20), 2 * kBandBytes);
  EXPECT_EQ(band_planes(256, 512, 396, kFloatPlane, {band_span_bytes(Index(60) << 20)}), 99u);
  EXPECT_EQ(band_planes(256, 512, 396, kFloatPlane / 2, {band_span_bytes(Index(30) << 20)}),
            99u);  // half the L2, half the plane
  EXPECT_EQ(band_planes(16, 32, 132, Index(128) * 128 * 4, {kBandBytes, 5}), 5u);
  EXPECT_EQ(band_planes(256, 512, 396, kFloatPlane, {kBandBytes, 0}), 0u);
  EXPECT_EQ(make_sweep_plan(layout_of({512, 512, 512, {0, 512, 0, 512, 0, 512}}), {0, 512, 0, 512, 0, 512}, 396, false,
                            512, 2, 4, {kBandBytes, 7})
                .band_planes,
            7u);
}

}  // namespace
}  // namespace yeex
