#include "src/exchange/registry.hpp"

#include <stdexcept>
#include <string>

#include "decomposition/slab_decomposition.hpp"
#include "src/exchange/b2r_exchange.hpp"
#include "src/exchange/host_staged_exchange.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/coop_exchange.hpp"
#include "src/exchange/graph_exchange.hpp"
#include "src/exchange/overlap_exchange.hpp"
#include "src/exchange/p2p_exchange.hpp"
#endif
#if YEEX_HAVE_NCCL
#include "src/exchange/nccl_exchange.hpp"
#endif
#if YEEX_HAVE_MPI
#include "src/exchange/mpi_exchange.hpp"
#endif

namespace yeex {
namespace {

template <typename Real>
using Factory = std::unique_ptr<HaloExchange<Real>> (*)(ExchangeContext<Real>, std::string);

// The factory of a backend this build does not hold: never called, as the entry's unavailable()
// says why first (the entry stays in the catalogue so that users learn why it cannot run).
template <typename Real>
std::unique_ptr<HaloExchange<Real>> not_built(ExchangeContext<Real>, std::string name) {
  throw std::invalid_argument("the " + name + " exchange is not part of this build");
}
#if YEEX_HAVE_CUDA
#define YEEX_GPU_FACTORY(make) make<float>, make<double>
#else
#define YEEX_GPU_FACTORY(make) not_built<float>, not_built<double>
#endif
#if YEEX_HAVE_NCCL
#define YEEX_NCCL_FACTORY(make) make<float>, make<double>
#else
#define YEEX_NCCL_FACTORY(make) not_built<float>, not_built<double>
#endif
#if YEEX_HAVE_MPI
#define YEEX_MPI_FACTORY(make) make<float>, make<double>
#else
#define YEEX_MPI_FACTORY(make) not_built<float>, not_built<double>
#endif

struct Entry {
  ExchangeInfo info;
  std::string (*unavailable)(const ExchangeRequest&);  // empty string: can run
  Factory<float> make_f32;
  Factory<double> make_f64;
};

// Requirement checks, shared by the entries.
std::string needs_gpu(const ExchangeRequest& r) {
#if YEEX_HAVE_CUDA
  return r.engine == "cuda" ? "" : "needs the cuda engine (this run uses the " + r.engine + " engine)";
#else
  (void)r;
  return "needs the cuda engine, and this build has no CUDA (configure with YEEX_ENABLE_CUDA=ON)";
#endif
}

std::string needs_peer_access(const ExchangeRequest& r) {
  if (auto why = needs_gpu(r); !why.empty()) return why;
  if (!r.peer_access) return "needs peer access, which --no-peer turns off";
#if YEEX_HAVE_CUDA
  for (std::size_t s = 0; s + 1 < r.devices.size(); ++s)
    if (!can_access_peer(r.devices[s], r.devices[s + 1]))
      return "needs peer access between neighbouring GPUs, and GPU " + std::to_string(r.devices[s]) +
             " cannot reach GPU " + std::to_string(r.devices[s + 1]);
#endif
  return "";
}

// cudaMemcpyPeerAsync runs without peer access too (the driver stages it through the host), so
// p2p and b2r run under --no-peer; with peer access on they need it between neighbours.
std::string needs_peer_copies(const ExchangeRequest& r) {
  if (auto why = needs_gpu(r); !why.empty()) return why;
  return r.peer_access ? needs_peer_access(r) : "";
}

std::string needs_depth_one(const ExchangeRequest& r) {
  return r.halo_depth == 1 ? "" : "exchanges every half-step: runs with --halo-depth 1 only (b2r is the R > 1 backend)";
}

std::vector<Entry> entries() {
  std::vector<Entry> list;
  list.push_back({{"host-staged",
                   "device -> pinned host buffer -> device, no peer access: border planes first on a high-priority "
                   "stream, copied down right behind them and up by the receiver while the bulk sweeps; GPUs ordered "
                   "by events (host engine: synchronously through a staging buffer)"},
                  [](const ExchangeRequest&) { return std::string(); },
                  make_host_staged_exchange<float>,
                  make_host_staged_exchange<double>});
  list.push_back({{"p2p",
                   "cudaMemcpyPeerAsync between GPUs with peer access (through the host with --no-peer), synchronous "
                   "per half-step"},
                  [](const ExchangeRequest& r) {
                    auto why = needs_peer_copies(r);
                    return why.empty() ? needs_depth_one(r) : why;
                  },
                  YEEX_GPU_FACTORY(make_p2p_exchange)});
  list.push_back({{"overlap",
                   "border planes first on a high-priority stream, pushed to the neighbours by cudaMemcpyPeerAsync "
                   "while the bulk sweeps; GPUs ordered by events"},
                  [](const ExchangeRequest& r) {
                    auto why = needs_peer_access(r);
                    return why.empty() ? needs_depth_one(r) : why;
                  },
                  YEEX_GPU_FACTORY(make_overlap_exchange)});
  list.push_back({{"coop",
                   "one persistent cooperative kernel per GPU: halos stored straight into the neighbours' ghost "
                   "planes, GPUs ordered by flags; back to the host once per chunk of steps"},
                  [](const ExchangeRequest& r) {
                    auto why = needs_peer_access(r);
                    if (why.empty()) why = needs_depth_one(r);
#if YEEX_HAVE_CUDA
                    if (why.empty()) why = coop_exchange_unavailable(r.devices);
#endif
                    return why;
                  },
                  YEEX_GPU_FACTORY(make_coop_exchange)});
  list.push_back({{"b2r",
                   "B+2R: R ghost planes exchanged once every R steps (--halo-depth R > 1), border recomputed; on GPUs "
                   "pushed behind the border planes while the bulk sweeps (peer to peer: graph's counters and replayed "
                   "steps where each GPU holds one slab, else overlap's events; staged through pinned host buffers "
                   "with --no-peer), staging on the host"},
                  [](const ExchangeRequest& r) -> std::string {
                    if (r.halo_depth < 2) return "needs --halo-depth R with R > 1";
                    return r.engine == "cuda" ? needs_peer_copies(r) : "";
                  },
                  make_b2r_exchange<float>,
                  make_b2r_exchange<double>});
  list.push_back({{"graph",
                   "overlap's schedule with the push kernel, the GPUs ordered by counters on the GPUs instead of "
                   "events and host barriers, so that each GPU's steps are recorded once and replayed as a CUDA graph "
                   "(one launch for 32 steps); any halo depth",
                   true, false},
                  [](const ExchangeRequest& r) -> std::string {
                    if (auto why = needs_peer_access(r); !why.empty()) return why;
                    if (most_slabs_per_gpu(r.devices) > 1)
                      return "needs one GPU per subdomain (each slab's waits spin on its GPU; slabs sharing one could "
                             "wait behind each other in its work queues); --subdomains puts several on one";
                    return "";
                  },
                  YEEX_GPU_FACTORY(make_graph_exchange)});
  list.push_back({{"nccl",
                   "ncclSend/ncclRecv, one group per exchange phase on the high-priority stream right behind the "
                   "border planes while the bulk sweeps; ordered by streams alone (no barrier); any halo depth",
                   true, true},
                  [](const ExchangeRequest& r) -> std::string {
#if YEEX_HAVE_NCCL
                    if (!r.peer_access) return "NCCL picks its own paths; --no-peer leaves the host-staged paths only";
                    if (auto why = needs_gpu(r); !why.empty()) return why;
                    if (most_slabs_per_gpu(r.devices) > 1)
                      return "NCCL needs one GPU per subdomain (a communicator refuses two ranks on one GPU); "
                             "--subdomains puts several on one";
                    return "";
#else
                    (void)r;
                    return "this build has no NCCL (configure with YEEX_ENABLE_NCCL=ON)";
#endif
                  },
                  YEEX_NCCL_FACTORY(make_nccl_exchange)});
  list.push_back({{"mpi",
                   "MPI_Isend/MPI_Irecv of the halo planes between ranks, in flight while the bulk sweeps (device "
                   "buffers with CUDA-aware MPI, else staged through pinned host buffers); any halo depth",
                   false, true},
                  [](const ExchangeRequest&) -> std::string {
#if YEEX_HAVE_MPI
                    return "";
#else
                    return "this build has no MPI (configure with YEEX_ENABLE_MPI=ON, or install an MPI library)";
#endif
                  },
                  YEEX_MPI_FACTORY(make_mpi_exchange)});
  return list;
}

}  // namespace

std::vector<ExchangeInfo> exchange_catalogue() {
  std::vector<ExchangeInfo> list;
  for (const auto& e : entries()) list.push_back(e.info);
  return list;
}

std::string exchange_unavailable(const std::string& name, const ExchangeRequest& request) {
  for (const auto& e : entries()) {
    if (e.info.name != name) continue;
    if (request.mpi_mode && !e.info.mpi_mode)
      return "runs in threads mode only (one process, one thread per subdomain); under mpirun use nccl or mpi";
    if (!request.mpi_mode && !e.info.threads_mode) {
      const std::string why = e.unavailable(request);  // e.g. no MPI in this build: say that first
      return why.empty() ? "runs in MPI mode only: start yeex with mpirun -np N (one rank per subdomain)" : why;
    }
    return e.unavailable(request);
  }
  std::string known;
  for (const auto& e : entries()) known += (known.empty() ? "" : ", ") + e.info.name;
  return "unknown exchange backend '" + name + "' (known: " + known + "; yeex exchanges says which run here)";
}

std::string default_exchange(const ExchangeRequest& request) {
  // MPI mode: nccl between GPUs; mpi on the host engine, and for one rank (nothing to exchange,
  // no communicator to set up).
  if (request.mpi_mode) return request.subdomains > 1 && exchange_unavailable("nccl", request).empty() ? "nccl" : "mpi";
  // Threads mode: overlap where it can run (on large grids the best backend or close to it:
  // docs/performance.md#border-split), else host-staged (the host engine, --no-peer).
  if (request.halo_depth > 1) return "b2r";
  return exchange_unavailable("overlap", request).empty() ? "overlap" : "host-staged";
}

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_exchange(const std::string& name, ExchangeContext<Real> context) {
  for (const auto& e : entries()) {
    if (e.info.name != name) continue;
    if constexpr (sizeof(Real) == 4)
      return e.make_f32(std::move(context), name);
    else
      return e.make_f64(std::move(context), name);
  }
  throw std::invalid_argument("unknown exchange backend '" + name + "'");
}

template std::unique_ptr<HaloExchange<float>> make_exchange<float>(const std::string&, ExchangeContext<float>);
template std::unique_ptr<HaloExchange<double>> make_exchange<double>(const std::string&, ExchangeContext<double>);

}  // namespace yeex
