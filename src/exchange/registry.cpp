#include "src/exchange/registry.hpp"

#include <stdexcept>
#include <string>

#include "decomposition/slab_decomposition.hpp"
#include "src/exchange/host_staged_exchange.hpp"
#if YEEX_HAVE_CUDA
#include "kernels/cuda/cuda_engine.hpp"
#include "src/exchange/coop_exchange.hpp"
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

// The factories of a backend that needs CUDA; null in a build without it (the entry stays in the
// catalogue so that users learn why it cannot run).
#if YEEX_HAVE_CUDA
#define YEEX_GPU_FACTORY(make) make<float>, make<double>
#else
#define YEEX_GPU_FACTORY(make) nullptr, nullptr
#endif
#if YEEX_HAVE_MPI
#define YEEX_MPI_FACTORY(make) make<float>, make<double>
#else
#define YEEX_MPI_FACTORY(make) nullptr, nullptr
#endif

template <typename Real>
using Factory = std::unique_ptr<HaloExchange<Real>> (*)(ExchangeContext<Real>, std::string);

// The staged route through host memory: on GPUs the border-first staged transport (D2H and H2D
// behind the border sweeps), on the host engine the synchronous copies through a buffer.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_staged_exchange(ExchangeContext<Real> context, std::string name) {
#if YEEX_HAVE_CUDA
  if (context.engines.front()->device() >= 0)
    return make_overlap_exchange<Real>(std::move(context), std::move(name), OverlapTransport::staged);
#endif
  return make_host_staged_exchange<Real>(std::move(context), std::move(name));
}

#if YEEX_HAVE_CUDA
// overlap (R = 1) pushes with the copy engines, b2r (R > 1, six components a neighbour) with the
// push kernel; ExchangeOptions::peer_push picks one for both (a test seam). overlap gains nothing
// clear from the kernel (two copies a phase), so it keeps the copy engines, NVIDIA's copy_overlap
// design. `transport_choice`: make_overlap_exchange's.
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_peer_transport(ExchangeContext<Real> context, std::string name,
                                                        std::string transport_choice) {
  using PeerPush = ExchangeOptions::PeerPush;
  const PeerPush push = context.options.peer_push;
  const bool kernel = push == PeerPush::automatic ? context.plan.halo_depth > 1 : push == PeerPush::kernel;
  return make_overlap_exchange<Real>(std::move(context), std::move(name),
                                     kernel ? OverlapTransport::peer_kernel : OverlapTransport::peer,
                                     std::move(transport_choice));
}
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_peer_exchange(ExchangeContext<Real> context, std::string name) {
  return make_peer_transport<Real>(std::move(context), std::move(name), "");
}

template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_graph_exchange(ExchangeContext<Real> context, std::string name) {
  return make_overlap_exchange<Real>(std::move(context), std::move(name), OverlapTransport::peer_flags);
}

// b2r with peer access: graph's transport (the push kernel, the GPUs ordered by counters on the
// GPUs, the steps replayed as CUDA graphs) where every GPU holds one slab, as graph requires; else,
// or with --b2r-transport events (or pushes by the copy engines), overlap's (events and host
// barriers, every step issued by the host). The bits are the same; the run's exchange_choices says
// which. The counters run far ahead at small grids (docs/performance.md#border-split).
template <typename Real>
std::unique_ptr<HaloExchange<Real>> make_b2r_peer_exchange(ExchangeContext<Real> context, std::string name) {
  using B2rTransport = ExchangeOptions::B2rTransport;
  std::vector<int> devices;
  for (const Engine<Real>* e : context.engines) devices.push_back(e->device());
  const ExchangeOptions& options = context.options;
  std::string events;  // why not the counters
  if (options.b2r_transport == B2rTransport::events) events = "--b2r-transport events";
  else if (options.peer_push == ExchangeOptions::PeerPush::copy) events = "pushes by the copy engines";
  else if (most_slabs_per_gpu(devices) > 1) events = "slabs sharing a GPU";  // also with --b2r-transport counters
  if (events.empty())
    return make_overlap_exchange<Real>(std::move(context), std::move(name), OverlapTransport::peer_flags,
                                       "counters on the GPUs, steps replayed as CUDA graphs");
  return make_peer_transport<Real>(std::move(context), std::move(name),
                                   "events and host barriers, steps issued by the host (" + events + ")");
}
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
      return "needs peer access between neighbouring GPUs, and GPU " + std::to_string(r.devices[s]) + " cannot reach GPU " +
             std::to_string(r.devices[s + 1]);
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
  list.push_back({{"host-staged", "device -> pinned host buffer -> device, no peer access: border planes first on a high-priority stream, copied down right behind them and up by the receiver while the bulk sweeps; GPUs ordered by events (host engine: synchronously through a staging buffer)"},
                  [](const ExchangeRequest&) { return std::string(); },
                  make_staged_exchange<float>, make_staged_exchange<double>});
  list.push_back({{"p2p", "cudaMemcpyPeerAsync between GPUs with peer access (through the host with --no-peer), synchronous per half-step"},
                  [](const ExchangeRequest& r) {
                    auto why = needs_peer_copies(r);
                    return why.empty() ? needs_depth_one(r) : why;
                  },
                  YEEX_GPU_FACTORY(make_p2p_exchange)});
  list.push_back({{"overlap", "border planes first on a high-priority stream, pushed to the neighbours by cudaMemcpyPeerAsync while the bulk sweeps; GPUs ordered by events"},
                  [](const ExchangeRequest& r) {
                    auto why = needs_peer_access(r);
                    return why.empty() ? needs_depth_one(r) : why;
                  },
                  YEEX_GPU_FACTORY(make_peer_exchange)});
  list.push_back({{"coop", "one persistent cooperative kernel per GPU: halos stored straight into the neighbours' ghost planes, GPUs ordered by flags; back to the host once per chunk of steps"},
                  [](const ExchangeRequest& r) {
                    auto why = needs_peer_access(r);
                    if (why.empty()) why = needs_depth_one(r);
#if YEEX_HAVE_CUDA
                    if (why.empty()) why = coop_exchange_unavailable(r.devices);
#endif
                    return why;
                  },
                  YEEX_GPU_FACTORY(make_coop_exchange)});
  list.push_back({{"b2r", "B+2R: R ghost planes exchanged once every R steps (--halo-depth R > 1), border recomputed; on GPUs pushed behind the border planes while the bulk sweeps (peer to peer: graph's counters and replayed steps where each GPU holds one slab, else overlap's events; staged through pinned host buffers with --no-peer), staging on the host"},
                  [](const ExchangeRequest& r) -> std::string {
                    if (r.halo_depth < 2) return "needs --halo-depth R with R > 1";
                    return r.engine == "cuda" ? needs_peer_copies(r) : "";
                  },
                  nullptr, nullptr});  // made in make_exchange: the engine's transport with depth R
  list.push_back({{"graph", "overlap's schedule with the push kernel, the GPUs ordered by counters on the GPUs instead of events and host barriers, so that each GPU's steps are recorded once and replayed as a CUDA graph (one launch for 32 steps); any halo depth",
                   true, false},
                  [](const ExchangeRequest& r) -> std::string {
                    if (auto why = needs_peer_access(r); !why.empty()) return why;
                    if (most_slabs_per_gpu(r.devices) > 1)
                      return "needs one GPU per subdomain (each slab's waits spin on its GPU; slabs sharing one could "
                             "wait behind each other in its work queues); --subdomains puts several on one";
                    return "";
                  },
                  YEEX_GPU_FACTORY(make_graph_exchange)});
  list.push_back({{"nccl", "ncclSend/ncclRecv, one group per exchange phase on the high-priority stream right behind the border planes while the bulk sweeps; ordered by streams alone (no barrier); any halo depth",
                   true, true},
#if YEEX_HAVE_NCCL
                  [](const ExchangeRequest& r) -> std::string {
                    if (!r.peer_access) return "NCCL picks its own paths; --no-peer leaves the host-staged paths only";
                    if (auto why = needs_gpu(r); !why.empty()) return why;
                    if (most_slabs_per_gpu(r.devices) > 1)
                      return "NCCL needs one GPU per subdomain (a communicator refuses two ranks on one GPU); "
                             "--subdomains puts several on one";
                    return "";
                  },
                  make_nccl_exchange<float>, make_nccl_exchange<double>});
#else
                  [](const ExchangeRequest&) { return std::string("this build has no NCCL (configure with YEEX_ENABLE_NCCL=ON)"); },
                  nullptr, nullptr});
#endif
  list.push_back({{"mpi", "MPI_Isend/MPI_Irecv of the halo planes between ranks (device buffers with CUDA-aware MPI, else staged through pinned host buffers); any halo depth",
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
    Factory<Real> make;
    if constexpr (sizeof(Real) == 4) make = e.make_f32; else make = e.make_f64;
    if (name == "b2r") {  // a halo depth on the transport of the engine
#if YEEX_HAVE_CUDA
      // with peer access graph's or overlap's pushes (make_b2r_peer_exchange); without, host-staged's.
      if (context.peer_access && context.engines.front()->device() >= 0)
        return make_b2r_peer_exchange<Real>(std::move(context), name);
#endif
      return make_staged_exchange<Real>(std::move(context), name);
    }
    return make(std::move(context), name);
  }
  throw std::invalid_argument("unknown exchange backend '" + name + "'");
}

template std::unique_ptr<HaloExchange<float>> make_exchange<float>(const std::string&, ExchangeContext<float>);
template std::unique_ptr<HaloExchange<double>> make_exchange<double>(const std::string&, ExchangeContext<double>);

}  // namespace yeex
