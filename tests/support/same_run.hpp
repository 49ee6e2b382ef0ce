// The bitwise contract's comparison, shared by the suites that check it (host slabs, CPML,
// GPUs): two runs of one deck end with the same field bits, overall and per component, and the
// same probe series, sample for sample.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "src/solver/solver.hpp"

namespace yeex::testing {

inline void expect_same_bits(const RunResult& run, const RunResult& reference) {
  EXPECT_EQ(run.checksum, reference.checksum);
  for (std::size_t c = 0; c < kComponentCount; ++c)
    EXPECT_EQ(run.component_checksums[c], reference.component_checksums[c]) << component_name(Component(c));
  ASSERT_EQ(run.probes.probes.size(), reference.probes.probes.size());
  for (std::size_t p = 0; p < run.probes.probes.size(); ++p)
    EXPECT_EQ(run.probes.probes[p].series, reference.probes.probes[p].series) << run.probes.probes[p].name;
}

// `deck` on a CPU engine in `subdomains` z-slabs with `exchange` at halo depth `depth`, with
// room for 16 probe samples between drains (so that a run drains several times).
template <typename Real>
RunResult run_on_slabs(const Deck& deck, int subdomains, const std::string& exchange, Index depth,
                       const std::string& engine = "host") {
  RunConfig config;
  config.engine = engine;
  config.precision_bits = 8 * sizeof(Real);
  config.subdomains = subdomains;
  config.exchange = exchange;
  config.halo_depth = depth;
  config.probe_slots = 16;
  return run_model(build_model(deck), config);
}

}  // namespace yeex::testing
