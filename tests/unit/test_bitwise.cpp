// The bitwise contract on the host engine: for one engine and precision, the final fields and
// the probe series are identical bit for bit whatever the number of z-slabs, the exchange
// backend and the halo depth.
#include <gtest/gtest.h>

#include <tuple>

#include "src/solver/solver.hpp"
#include "tests/support/contract_deck.hpp"
#include "tests/support/same_run.hpp"

namespace yeex {
namespace {

template <typename Real>
RunResult run(int subdomains, const std::string& exchange, Index depth) {
  return testing::run_on_slabs<Real>(testing::contract_deck(), subdomains, exchange, depth);
}

class BitwiseContract : public ::testing::TestWithParam<std::tuple<int, std::string, Index>> {};

template <typename Real>
void expect_identical_to_one_slab(int subdomains, const std::string& exchange, Index depth) {
  const RunResult reference = run<Real>(1, "host-staged", 1);
  const RunResult split = run<Real>(subdomains, exchange, depth);
  EXPECT_EQ(split.subdomains, subdomains);
  testing::expect_same_bits(split, reference);
}

TEST_P(BitwiseContract, Float32) {
  const auto& [n, exchange, depth] = GetParam();
  expect_identical_to_one_slab<float>(n, exchange, depth);
}

TEST_P(BitwiseContract, Float64) {
  const auto& [n, exchange, depth] = GetParam();
  expect_identical_to_one_slab<double>(n, exchange, depth);
}

INSTANTIATE_TEST_SUITE_P(HostEngine, BitwiseContract,
                         ::testing::Values(std::tuple{1, "b2r", 2}, std::tuple{2, "host-staged", 1},
                                           std::tuple{3, "host-staged", 1}, std::tuple{4, "host-staged", 1},
                                           std::tuple{2, "b2r", 2}, std::tuple{3, "b2r", 2}, std::tuple{4, "b2r", 2},
                                           std::tuple{2, "b2r", 3}, std::tuple{3, "b2r", 3}, std::tuple{4, "b2r", 3},
                                           std::tuple{2, "b2r", 4}, std::tuple{3, "b2r", 4}),
                         [](const auto& info) {
                           return std::get<1>(info.param).substr(0, 4) + "_" + std::to_string(std::get<0>(info.param)) +
                                  "slabs_R" + std::to_string(std::get<2>(info.param));
                         });

TEST(BitwiseContract, RefusesSplitsThatCannotWork) {
  const GridShape g = testing::contract_deck().grid;
  RunConfig too_many;
  too_many.subdomains = 14;
  EXPECT_THROW(check_run_config(g, too_many), std::invalid_argument);
  RunConfig too_deep;
  too_deep.subdomains = 4;
  too_deep.halo_depth = 4;
  too_deep.exchange = "b2r";
  EXPECT_THROW(check_run_config(g, too_deep), std::invalid_argument);
  RunConfig b2r_without_depth;
  b2r_without_depth.subdomains = 2;
  b2r_without_depth.exchange = "b2r";
  EXPECT_THROW(check_run_config(g, b2r_without_depth), std::invalid_argument);
  RunConfig gpu_backend_on_host;
  gpu_backend_on_host.subdomains = 2;
  gpu_backend_on_host.exchange = "p2p";
  EXPECT_THROW(check_run_config(g, gpu_backend_on_host), std::invalid_argument);
}

}  // namespace
}  // namespace yeex
