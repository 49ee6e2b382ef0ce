// Every yeex-p2p test, in the order `--list` prints and a plain run measures them.
#include "src/p2p/p2p_test.hpp"

namespace yeex::p2p {

#if YEEX_HAVE_CUDA
#define YEEX_P2P_FACTORY(f) &f
#else
#define YEEX_P2P_FACTORY(f) nullptr
#endif
#if YEEX_HAVE_NCCL
#define YEEX_P2P_NCCL_FACTORY(f) &f, true
#else
#define YEEX_P2P_NCCL_FACTORY(f) nullptr, true
#endif

const std::vector<P2PTestEntry>& p2p_tests() {
  static const std::vector<P2PTestEntry> tests{
      {"ce-unidir", "copy engine, one direction: cudaMemcpyPeerAsync src->dst, peer access on and off",
       YEEX_P2P_FACTORY(make_ce_unidir_test)},
      {"ce-bidir", "copy engine, both directions at once on two streams (sum of both)",
       YEEX_P2P_FACTORY(make_ce_bidir_test)},
      {"sm-copy", "a copy kernel through peer pointers: dst reads src (pull), src writes dst (push)",
       YEEX_P2P_FACTORY(make_sm_copy_test)},
      {"host-staged", "device -> pinned host -> device per pair; pinned H2D and D2H per GPU",
       YEEX_P2P_FACTORY(make_host_staged_test)},
      {"latency", "time of one 4-byte cudaMemcpyPeerAsync, peer access on", YEEX_P2P_FACTORY(make_latency_test)},
      {"pingpong", "device-initiated one-way latency: kernels on two GPUs bounce a flag through peer memory",
       YEEX_P2P_FACTORY(make_pingpong_test)},
      {"sweep", "cudaMemcpyPeerAsync bandwidth against message size for neighbouring GPUs 0-1, 1-2, ...",
       YEEX_P2P_FACTORY(make_sweep_test)},
      {"nccl-pairs", "ncclSend/ncclRecv between every ordered pair: bandwidth at --size, 4-byte latency",
       YEEX_P2P_NCCL_FACTORY(make_nccl_pairs_test)},
      {"nccl-ring", "ncclSend to the next GPU and ncclRecv from the previous, all at once, over --sweep sizes",
       YEEX_P2P_NCCL_FACTORY(make_nccl_ring_test)},
  };
  return tests;
}

std::vector<std::string> p2p_test_names() {
  std::vector<std::string> names;
  for (const auto& t : p2p_tests()) names.push_back(t.name);
  return names;
}

std::string P2PTestEntry::unavailable(const Machine& machine) const {
  if (!make) {
#if YEEX_HAVE_CUDA
    if (needs_nccl) return "this build has no NCCL (YEEX_ENABLE_NCCL=OFF)";
#endif
    return "no CUDA device is visible (this build has no CUDA)";
  }
  if (machine.gpu_count() == 0) return "no CUDA device is visible";
  return make()->unavailable(machine);
}

}  // namespace yeex::p2p
