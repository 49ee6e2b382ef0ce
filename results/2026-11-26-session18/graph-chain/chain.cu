// A prototype outside the build (eighteenth session): what the per-step chain of the border-first
// schedule costs on several GPUs when each step is issued by the host, as yeex's overlap does it
// (events between GPUs, ordered by two host barriers a step), against the same chain replayed as
// one CUDA graph per GPU per chunk of steps, the GPUs ordered by monotonic flags instead of events.
//
// The step of GPU g (slab of nz planes of nx * ny cells, ghost planes below and above; two arrays,
// "E" and "H"; a sweep reads its own array and the other one at k and at k -/+ 1):
//   border lane: follow bulk_done; push E plane 0 -> lower's upper ghost; signal lower;
//                wait for upper's E; H over plane nz-1; mark border_h; push H plane nz-1 ->
//                upper's lower ghost; signal upper; wait for lower's H; follow bulk_h;
//                E over plane 0; mark border_e
//   bulk lane:   H over planes 0..nz-2; mark bulk_h; follow border_h; E over planes 1..nz-1;
//                follow border_e; source (one cell); mark bulk_done
// issued: "signal" is an event record, "wait" a cudaStreamWaitEvent on the neighbour's event after
// a host barrier (as overlap_exchange.cu). graph: "signal" is a one-thread kernel adding 1 to a
// counter in the receiver's memory through a peer pointer (release, system scope), "wait" a
// one-thread kernel spinning (acquire) until that counter reaches what the receiver has consumed
// plus one; counters only grow, so no host ordering is needed and a chunk is one graph launch.
// The data moved are the real planes; the timing is the point, not the values.
//
//   chain GPUS NX NY NZ STEPS REPEATS [graph-copy]   (µs/step for 1, 2, 4 .. GPUS GPUs)
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#define CHECK(x)                                                                           \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

struct Slab {
  int device = 0;
  size_t plane = 0;  // cells per plane
  int nz = 0;
  float *e = nullptr, *h = nullptr;  // nz + 2 planes each, plane 0 of the slab at offset `plane`
  unsigned long long *flags = nullptr;     // [0]: E planes received from above, [1]: H from below
  unsigned long long *consumed = nullptr;  // what this GPU's waits have passed, per flag
  cudaStream_t border{}, bulk{};
  cudaEvent_t bulk_done{}, border_h{}, bulk_h{}, border_e{}, e_pushed{}, h_pushed{}, fork{}, join{};
  float* at(float* a, int k) const { return a + (size_t(k) + 1) * plane; }  // k = -1 .. nz
};

// a = 0.5 a + 0.25 (b[k] + b[k + shift]) over planes [k0, k1): memory-bound like a Yee sweep.
__global__ void sweep(float* a, const float* b, long long shift, size_t first, size_t count) {
  const size_t i = first + blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < first + count) a[i] = 0.5f * a[i] + 0.25f * (b[i] + b[i + shift]);
}

__global__ void source(float* e, size_t at) { e[at] += 1e-3f; }

// One plane into a neighbour's memory through a peer pointer (the sender's SMs; b2r's push kernel).
__global__ void push(float4* to, const float4* from, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) to[i] = from[i];
}

bool g_kernel_push = false;  // planes by push kernel instead of the copy engines

void send(const Slab& s, float* to, const float* from) {
  if (g_kernel_push) {
    push<<<32, 256, 0, s.border>>>(reinterpret_cast<float4*>(to), reinterpret_cast<const float4*>(from), s.plane / 4);
    CHECK(cudaGetLastError());
  } else {
    CHECK(cudaMemcpyAsync(to, from, s.plane * sizeof(float), cudaMemcpyDefault, s.border));
  }
}

__global__ void signal(unsigned long long* remote) {
  __threadfence_system();
  atomicAdd_system(remote, 1ull);
}

__global__ void wait_flag(const unsigned long long* flag, unsigned long long* consumed) {
  const unsigned long long want = *consumed + 1;
  for (long long spins = 0;; ++spins) {
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(flag) : "memory");
    if (v >= want) break;
    if (spins > (1ll << 34)) __trap();  // a stalled neighbour: fail, never hang
  }
  *consumed = want;
}

void launch_sweep(const Slab& s, cudaStream_t st, float* a, const float* b, int sign, int k0, int k1) {
  if (k1 <= k0) return;
  const size_t count = size_t(k1 - k0) * s.plane;
  const long long shift = sign * (long long)s.plane;
  sweep<<<unsigned((count + 255) / 256), 256, 0, st>>>(a, b, shift, (size_t(k0) + 1) * s.plane, count);
}

// One step of slab g; cross-GPU order by flags (graph) or by events behind host barriers (issued).
void step(std::vector<Slab>& slabs, int g, bool flags, std::barrier<>* team) {
  Slab& s = slabs[g];
  const int n = int(slabs.size());
  Slab* lower = g > 0 ? &slabs[g - 1] : nullptr;
  Slab* upper = g + 1 < n ? &slabs[g + 1] : nullptr;
  CHECK(cudaStreamWaitEvent(s.border, s.bulk_done, 0));
  if (lower) {  // E plane 0 -> lower's ghost plane nz_lower
    send(s, lower->at(lower->e, lower->nz), s.at(s.e, 0));
    if (flags) signal<<<1, 1, 0, s.border>>>(&lower->flags[0]);
  }
  if (!flags) {
    CHECK(cudaEventRecord(s.e_pushed, s.border));
    team->arrive_and_wait();
    if (upper) CHECK(cudaStreamWaitEvent(s.border, upper->e_pushed, 0));
  } else if (upper) {
    wait_flag<<<1, 1, 0, s.border>>>(&s.flags[0], &s.consumed[0]);
  }
  launch_sweep(s, s.border, s.h, s.e, +1, s.nz - 1, s.nz);  // H over the top plane (reads E ghost nz)
  CHECK(cudaEventRecord(s.border_h, s.border));
  if (upper) {  // H plane nz-1 -> upper's ghost plane -1
    send(s, upper->at(upper->h, -1), s.at(s.h, s.nz - 1));
    if (flags) signal<<<1, 1, 0, s.border>>>(&upper->flags[1]);
  }
  launch_sweep(s, s.bulk, s.h, s.e, +1, 0, s.nz - 1);
  CHECK(cudaEventRecord(s.bulk_h, s.bulk));
  if (!flags) {
    CHECK(cudaEventRecord(s.h_pushed, s.border));
    team->arrive_and_wait();
    if (lower) CHECK(cudaStreamWaitEvent(s.border, lower->h_pushed, 0));
  } else if (lower) {
    wait_flag<<<1, 1, 0, s.border>>>(&s.flags[1], &s.consumed[1]);
  }
  CHECK(cudaStreamWaitEvent(s.border, s.bulk_h, 0));
  launch_sweep(s, s.border, s.e, s.h, -1, 0, 1);  // E over plane 0 (reads H ghost -1)
  CHECK(cudaEventRecord(s.border_e, s.border));
  CHECK(cudaStreamWaitEvent(s.bulk, s.border_h, 0));
  launch_sweep(s, s.bulk, s.e, s.h, -1, 1, s.nz);
  CHECK(cudaStreamWaitEvent(s.bulk, s.border_e, 0));
  source<<<1, 1, 0, s.bulk>>>(s.e, s.plane * (size_t(s.nz) / 2 + 1) + s.plane / 2);
  CHECK(cudaEventRecord(s.bulk_done, s.bulk));
}

double run(int gpus, int nx, int ny, int nz_total, int steps, int repeats, bool graph) {
  std::vector<Slab> slabs(gpus);
  for (int g = 0; g < gpus; ++g) {
    Slab& s = slabs[g];
    s.device = g;
    s.plane = size_t(nx) * ny;
    s.nz = nz_total / gpus;
    CHECK(cudaSetDevice(g));
    for (int p = 0; p < gpus; ++p)
      if (p != g) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
        if (e != cudaErrorPeerAccessAlreadyEnabled) CHECK(e);
        cudaGetLastError();
      }
    const size_t bytes = (size_t(s.nz) + 2) * s.plane * sizeof(float);
    CHECK(cudaMalloc(&s.e, bytes));
    CHECK(cudaMalloc(&s.h, bytes));
    CHECK(cudaMemset(s.e, 0, bytes));
    CHECK(cudaMemset(s.h, 0, bytes));
    CHECK(cudaMalloc(&s.flags, 2 * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&s.consumed, 2 * sizeof(unsigned long long)));
    CHECK(cudaMemset(s.flags, 0, 2 * sizeof(unsigned long long)));
    CHECK(cudaMemset(s.consumed, 0, 2 * sizeof(unsigned long long)));
    int lo, hi;
    CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    CHECK(cudaStreamCreateWithPriority(&s.border, cudaStreamNonBlocking, hi));
    CHECK(cudaStreamCreateWithPriority(&s.bulk, cudaStreamNonBlocking, lo));
    for (cudaEvent_t* e : {&s.bulk_done, &s.border_h, &s.bulk_h, &s.border_e, &s.e_pushed, &s.h_pushed, &s.fork, &s.join})
      CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    CHECK(cudaEventRecord(s.bulk_done, s.bulk));
    CHECK(cudaDeviceSynchronize());
  }
  std::barrier team(gpus);
  std::vector<cudaGraphExec_t> exec(gpus, nullptr);
  if (graph) {
    // Capture `steps` steps per GPU, each by its own thread (flags need no host order).
    std::vector<std::thread> threads;
    for (int g = 0; g < gpus; ++g)
      threads.emplace_back([&, g] {
        Slab& s = slabs[g];
        CHECK(cudaSetDevice(g));
        cudaGraph_t graph_;
        CHECK(cudaStreamBeginCapture(s.border, cudaStreamCaptureModeThreadLocal));
        CHECK(cudaEventRecord(s.fork, s.border));
        CHECK(cudaStreamWaitEvent(s.bulk, s.fork, 0));
        CHECK(cudaEventRecord(s.bulk_done, s.bulk));
        for (int n = 0; n < steps; ++n) step(slabs, g, true, nullptr);
        CHECK(cudaEventRecord(s.join, s.bulk));
        CHECK(cudaStreamWaitEvent(s.border, s.join, 0));
        CHECK(cudaStreamEndCapture(s.border, &graph_));
        CHECK(cudaGraphInstantiate(&exec[g], graph_, 0));
        CHECK(cudaGraphDestroy(graph_));
      });
    for (auto& t : threads) t.join();
  }
  std::vector<double> times;
  std::barrier gate(gpus + 1);  // the workers and this thread: start and end of a repeat
  for (int r = 0; r < repeats + 1; ++r) {  // the first is the warm-up
    std::atomic<double> slowest{0};
    std::vector<std::thread> threads;
    for (int g = 0; g < gpus; ++g)
      threads.emplace_back([&, g] {
        Slab& s = slabs[g];
        CHECK(cudaSetDevice(g));
        gate.arrive_and_wait();
        const auto t0 = std::chrono::steady_clock::now();
        if (graph) {
          CHECK(cudaGraphLaunch(exec[g], s.border));
        } else {
          for (int n = 0; n < steps; ++n) step(slabs, g, false, &team);
        }
        CHECK(cudaStreamSynchronize(s.border));
        CHECK(cudaStreamSynchronize(s.bulk));
        team.arrive_and_wait();
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        double cur = slowest.load();
        while (us > cur && !slowest.compare_exchange_weak(cur, us)) {
        }
        gate.arrive_and_wait();
      });
    gate.arrive_and_wait();  // release the workers
    gate.arrive_and_wait();  // and meet them at the end
    for (auto& t : threads) t.join();
    if (r > 0) times.push_back(slowest.load() / steps);
  }
  for (int g = 0; g < gpus; ++g) {
    CHECK(cudaSetDevice(g));
    if (exec[g]) CHECK(cudaGraphExecDestroy(exec[g]));
    CHECK(cudaFree(slabs[g].e));
    CHECK(cudaFree(slabs[g].h));
    CHECK(cudaFree(slabs[g].flags));
    CHECK(cudaFree(slabs[g].consumed));
    CHECK(cudaStreamDestroy(slabs[g].border));
    CHECK(cudaStreamDestroy(slabs[g].bulk));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: chain GPUS NX NY NZ STEPS REPEATS\n");
    return 2;
  }
  const int gpus = std::atoi(argv[1]), nx = std::atoi(argv[2]), ny = std::atoi(argv[3]), nz = std::atoi(argv[4]);
  const int steps = std::atoi(argv[5]), repeats = std::atoi(argv[6]);
  int visible = 0;
  CHECK(cudaGetDeviceCount(&visible));
  // MODE: all (issued with copies, issued with push kernels, graph with push kernels), or
  // graph-copy (the graph with the copy engines: peer memcpy nodes).
  const std::string mode = argc > 7 ? argv[7] : "all";
  std::printf("# chain: %d x %d x %d cells over 1..%d GPUs (of %d), %d steps, median of %d; us/step\n", nx, ny, nz, gpus,
              visible, steps, repeats);
  if (mode == "graph-copy") {
    std::printf("%-6s %12s\n", "GPUs", "graph-copy");
  } else {
    std::printf("%-6s %12s %12s %12s %8s\n", "GPUs", "issued-copy", "issued-push", "graph-push", "ratio");
  }
  for (int g = 1; g <= std::min(gpus, visible); g *= 2) {
    if (nz % g != 0 || nz / g < 2) continue;
    if (mode == "graph-copy") {
      g_kernel_push = false;
      std::printf("%-6d %12.2f\n", g, run(g, nx, ny, nz, steps, repeats, true));
    } else {
      g_kernel_push = false;
      const double copy = run(g, nx, ny, nz, steps, repeats, false);
      g_kernel_push = true;
      const double pushed = run(g, nx, ny, nz, steps, repeats, false);
      const double graphed = run(g, nx, ny, nz, steps, repeats, true);
      std::printf("%-6d %12.2f %12.2f %12.2f %8.2f\n", g, copy, pushed, graphed, copy / graphed);
    }
    std::fflush(stdout);
  }
  return 0;
}
