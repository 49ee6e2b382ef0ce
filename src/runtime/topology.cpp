#include "src/runtime/topology.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#if YEEX_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace yeex {

// ---------------------------------------------------------------------------------------------
// Helpers (pure, unit-tested)

std::vector<int> parse_cpulist(const std::string& text) {
  std::vector<int> cpus;
  std::string list = text;
  while (!list.empty() && std::isspace(static_cast<unsigned char>(list.back()))) list.pop_back();
  const auto bad = [&] { return std::invalid_argument("bad CPU list '" + text + "' (expected e.g. 0-9,20-29)"); };
  const auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 7 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      throw bad();
    return std::stoi(s);
  };
  std::size_t start = 0;
  while (start < list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    const std::size_t dash = item.find('-');
    const int first = number(item.substr(0, dash));
    const int last = dash == std::string::npos ? first : number(item.substr(dash + 1));
    if (last < first) throw bad();
    for (int c = first; c <= last; ++c) cpus.push_back(c);
    start = comma + 1;
    if (comma + 1 == list.size()) throw bad();  // trailing comma
  }
  return cpus;
}

std::string format_cpulist(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]) + (j > i ? "-" + std::to_string(cpus[j]) : "");
    i = j + 1;
  }
  return out;
}

std::string sysfs_pci_address(const std::string& bus_id) {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  char tail = 0;
  const bool hex_only = bus_id.find_first_not_of("0123456789abcdefABCDEF:.") == std::string::npos;
  if (!hex_only || std::sscanf(bus_id.c_str(), "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &tail) != 4 ||
      domain > 0xffff || bus > 0xff || device > 0x1f || function > 7)
    throw std::invalid_argument("not a PCI address: '" + bus_id + "'");
  char out[32];
  std::snprintf(out, sizeof out, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return out;
}

std::string pcie_link_name(int level) {
  switch (level) {
    case 0: return "PIX";    // NVML_TOPOLOGY_INTERNAL: two GPUs on one board, behind its PCIe switch
    case 10: return "PIX";   // NVML_TOPOLOGY_SINGLE: one PCIe switch
    case 20: return "PXB";   // NVML_TOPOLOGY_MULTIPLE: several PCIe switches, no host bridge
    case 30: return "PHB";   // NVML_TOPOLOGY_HOSTBRIDGE: one PCIe host bridge
    case 40: return "NODE";  // NVML_TOPOLOGY_NODE: host bridges of one NUMA node
    case 50: return "SYS";   // NVML_TOPOLOGY_SYSTEM: across NUMA nodes (SMP interconnect)
    default: return "?";
  }
}

// Which NVLinks carry a pair's traffic. A link whose far end (nvmlDeviceGetNvLinkRemotePciInfo)
// is GPU b connects a and b directly: `direct_links` of them bond into NV<direct_links>. On
// NVSwitch boxes (HGX/DGX) no link ends at a GPU: every link of a GPU goes to a switch, and the
// switches connect every GPU of the fabric to every other one at the full width of its links.
// The far end alone cannot say which GPUs share a fabric, so a pair counts as switched NVLink
// when both GPUs have switch links and the driver allows peer access between them (the driver
// routes peer traffic over NVLink whenever both ends are on it); the width is the smaller
// of the two GPUs' switch link counts. This is what `nvidia-smi topo -m` prints: NV18 for every
// pair of a 4x H200 HGX board (18 links per GPU, all to NVSwitches).
int nvlinks_between(int direct_links, int switch_links_a, int switch_links_b, bool peer_access) {
  if (direct_links > 0) return direct_links;
  if (switch_links_a > 0 && switch_links_b > 0 && peer_access) return std::min(switch_links_a, switch_links_b);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// NVML through dlopen: the few entry points and types used, declared here from NVML's
// documented API (nvml.h is not needed at build time; libnvidia-ml.so.1 ships with the driver).

namespace {

using NvmlReturn = int;  // nvmlReturn_t; NVML_SUCCESS = 0
constexpr NvmlReturn kNvmlSuccess = 0;
using NvmlDevice = struct NvmlDeviceOpaque*;  // nvmlDevice_t
constexpr unsigned kNvmlEnabled = 1;          // nvmlEnableState_t NVML_FEATURE_ENABLED
constexpr unsigned kNvLinkMaxLinks = 18;      // NVML_NVLINK_MAX_LINKS

struct NvmlPciInfo {  // nvmlPciInfo_t
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};

class Nvml {
 public:
  Nvml() {
    library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library_) {
      const char* error = dlerror();
      why_not_ =
          "NVML not available: link types unknown (" + std::string(error ? error : "libnvidia-ml.so.1 not found") + ")";
      return;
    }
    if (!bind(init_, "nvmlInit_v2") || !bind(shutdown_, "nvmlShutdown") ||
        !bind(handle_by_bus_id_, "nvmlDeviceGetHandleByPciBusId_v2") ||
        !bind(common_ancestor_, "nvmlDeviceGetTopologyCommonAncestor") ||
        !bind(link_state_, "nvmlDeviceGetNvLinkState") || !bind(remote_pci_, "nvmlDeviceGetNvLinkRemotePciInfo_v2"))
      return;
    if (const NvmlReturn r = init_(); r != kNvmlSuccess) {
      why_not_ = "NVML not available: link types unknown (nvmlInit_v2 returned " + std::to_string(r) + ")";
      return;
    }
    initialised_ = true;
  }
  ~Nvml() {
    if (initialised_) shutdown_();
    if (library_) dlclose(library_);
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // Empty when NVML answers.
  const std::string& why_not() const { return why_not_; }

  NvmlDevice device(const std::string& bus_id) const {
    NvmlDevice d = nullptr;
    return handle_by_bus_id_(bus_id.c_str(), &d) == kNvmlSuccess ? d : nullptr;
  }
  // nvmlGpuTopologyLevel_t, or -1.
  int common_ancestor(NvmlDevice a, NvmlDevice b) const {
    int level = -1;
    return common_ancestor_(a, b, &level) == kNvmlSuccess ? level : -1;
  }
  // The PCI addresses (sysfs form) at the far end of each active NVLink of `d`.
  std::vector<std::string> active_link_ends(NvmlDevice d) const {
    std::vector<std::string> ends;
    for (unsigned link = 0; link < kNvLinkMaxLinks; ++link) {
      unsigned state = 0;
      if (link_state_(d, link, &state) != kNvmlSuccess || state != kNvmlEnabled) continue;
      NvmlPciInfo pci{};
      std::string end = "unknown";
      if (remote_pci_(d, link, &pci) == kNvmlSuccess) {
        try {
          end = sysfs_pci_address(pci.bus_id);
        } catch (const std::invalid_argument&) {}
      }
      ends.push_back(end);
    }
    return ends;
  }

 private:
  template <typename F>
  bool bind(F*& f, const char* name) {
    f = reinterpret_cast<F*>(dlsym(library_, name));
    if (!f) why_not_ = std::string("NVML not available: link types unknown (no ") + name + " in libnvidia-ml.so.1)";
    return f != nullptr;
  }

  void* library_ = nullptr;
  bool initialised_ = false;
  std::string why_not_;
  NvmlReturn (*init_)() = nullptr;
  NvmlReturn (*shutdown_)() = nullptr;
  NvmlReturn (*handle_by_bus_id_)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*common_ancestor_)(NvmlDevice, NvmlDevice, int*) = nullptr;
  NvmlReturn (*link_state_)(NvmlDevice, unsigned, unsigned*) = nullptr;
  NvmlReturn (*remote_pci_)(NvmlDevice, unsigned, NvmlPciInfo*) = nullptr;
};

std::string read_sysfs(const std::string& pci_address, const char* file) {
  std::ifstream in("/sys/bus/pci/devices/" + pci_address + "/" + file);
  std::string value;
  std::getline(in, value);
  return in || in.eof() ? value : std::string();
}

// Link types and NVLink counts of `t.gpus` from NVML (needs t.pairs' peer access filled).
void add_nvml_links(Topology& t) {
  const Nvml nvml;
  if (!nvml.why_not().empty()) {
    t.link_source = nvml.why_not();
    return;
  }
  t.link_source = "NVML";
  const std::size_t n = t.gpus.size();
  std::vector<NvmlDevice> handles(n, nullptr);
  std::vector<std::vector<std::string>> ends(n);  // far ends of the active links
  std::vector<int> switch_links(n, 0);            // links whose far end is not a GPU
  for (std::size_t i = 0; i < n; ++i) {
    std::string address;
    try {
      address = sysfs_pci_address(t.gpus[i].pci_bus_id);
    } catch (const std::invalid_argument&) {
      continue;
    }
    handles[i] = nvml.device(address);
    if (!handles[i]) continue;
    ends[i] = nvml.active_link_ends(handles[i]);
    t.gpus[i].nvlinks = static_cast<int>(ends[i].size());
    // A far end NVML knows as a GPU is a GPU (selected or not); anything else is an NVSwitch.
    for (const auto& end : ends[i])
      if (end == "unknown" || !nvml.device(end)) ++switch_links[i];
  }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      GpuPair& p = t.pairs[a][b];
      if (a == b) {
        p.link = "X";
        continue;
      }
      if (!handles[a] || !handles[b]) continue;
      std::string b_address;
      try {
        b_address = sysfs_pci_address(t.gpus[b].pci_bus_id);
      } catch (const std::invalid_argument&) {
        continue;
      }
      const int direct = static_cast<int>(std::count(ends[a].begin(), ends[a].end(), b_address));
      const bool peer = p.peer_access == 1 || t.pairs[b][a].peer_access == 1;
      if (const int links = nvlinks_between(direct, switch_links[a], switch_links[b], peer); links > 0)
        p.link = "NV" + std::to_string(links);
      else
        p.link = pcie_link_name(nvml.common_ancestor(handles[a], handles[b]));
    }
}

Matrix pair_matrix(const Topology& t, const std::string& title, const std::string& definition, int GpuPair::*field) {
  Matrix m{title, definition, "", "dst", "src", {}, {}, {}, 0};
  for (const auto& g : t.gpus) m.rows.push_back(std::to_string(g.device));
  m.columns = m.rows;
  for (const auto& row : t.pairs) {
    std::vector<double> values;
    for (const auto& p : row) values.push_back(p.*field < 0 ? NAN : double(p.*field));
    m.values.push_back(values);
  }
  return m;
}

std::string pad_right(std::string text, std::size_t width) {
  if (text.size() < width) text += std::string(width - text.size(), ' ');
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

Topology detect_topology(const std::vector<int>& selected) {
  Topology t;
#if YEEX_HAVE_CUDA
  int visible = 0;
  if (cudaGetDeviceCount(&visible) != cudaSuccess) {
    cudaGetLastError();
    visible = 0;
  }
  std::vector<int> devices = selected;
  if (devices.empty())
    for (int d = 0; d < visible; ++d) devices.push_back(d);
  std::erase_if(devices, [&](int d) { return d < 0 || d >= visible; });
  if (devices.empty()) {
    t.note = "no CUDA device is visible";
    t.link_source = "no GPU";
    return t;
  }
  for (int d : devices) {
    GpuInfo g;
    g.device = d;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) == cudaSuccess) g.name = prop.name;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) g.pci_bus_id = bus;
    cudaGetLastError();
    try {
      const std::string address = sysfs_pci_address(g.pci_bus_id);
      const std::string numa = read_sysfs(address, "numa_node");
      if (!numa.empty()) g.numa_node = std::stoi(numa);
      const std::string cpus = read_sysfs(address, "local_cpulist");
      if (!cpus.empty()) g.cpu_affinity = format_cpulist(parse_cpulist(cpus));
    } catch (const std::exception&) {  // no sysfs entry (containers, other OS): unknown
    }
    t.gpus.push_back(g);
  }
  const std::size_t n = t.gpus.size();
  t.pairs.assign(n, std::vector<GpuPair>(n));
  for (std::size_t dst = 0; dst < n; ++dst)
    for (std::size_t src = 0; src < n; ++src) {
      if (src == dst) continue;
      GpuPair& p = t.pairs[dst][src];
      const auto attribute = [&](cudaDeviceP2PAttr attr) {
        int value = -1;
        if (cudaDeviceGetP2PAttribute(&value, attr, t.gpus[src].device, t.gpus[dst].device) != cudaSuccess) {
          cudaGetLastError();
          return -1;
        }
        return value;
      };
      p.peer_access = attribute(cudaDevP2PAttrAccessSupported);
      p.performance_rank = attribute(cudaDevP2PAttrPerformanceRank);
      p.native_atomics = attribute(cudaDevP2PAttrNativeAtomicSupported);
    }
  add_nvml_links(t);
#else
  (void)selected;
  t.note = "no CUDA device is visible (this build has no CUDA: YEEX_ENABLE_CUDA=OFF)";
  t.link_source = "no GPU";
#endif
  return t;
}

std::vector<Matrix> topology_matrices(const Topology& t) {
  return {pair_matrix(t, "topo/peer-access",
                      "1 if the row GPU's memory can be accessed from the column GPU (cudaDevP2PAttrAccessSupported)",
                      &GpuPair::peer_access),
          pair_matrix(t, "topo/performance-rank",
                      "driver's relative P2P performance rank, 0 = best (cudaDevP2PAttrPerformanceRank)",
                      &GpuPair::performance_rank),
          pair_matrix(t, "topo/native-atomics",
                      "1 if atomics over the link are native (cudaDevP2PAttrNativeAtomicSupported)",
                      &GpuPair::native_atomics)};
}

std::string format_topology(const Topology& t) {
  if (t.gpus.empty()) return "# topology: " + (t.note.empty() ? std::string("no GPU") : t.note) + "\n";
  std::string out = "# topology: " + std::to_string(t.gpus.size()) + " GPU(s); link types from " + t.link_source + "\n";
  out += "#  GPU  PCI bus id        NUMA  NVLinks  CPU affinity          name\n";
  for (const auto& g : t.gpus) {
    char line[512];
    std::snprintf(line, sizeof line, "#  %3d  %-16s  %4s  %7s  %-20s  %s\n", g.device, g.pci_bus_id.c_str(),
                  g.numa_node < 0 ? "-" : std::to_string(g.numa_node).c_str(),
                  g.nvlinks < 0 ? "?" : std::to_string(g.nvlinks).c_str(),
                  g.cpu_affinity.empty() ? "?" : g.cpu_affinity.c_str(), g.name.c_str());
    out += line;
  }
  out += "\n# topo/link-types (like nvidia-smi topo -m; symmetric)\n";
  std::size_t width = 7;
  for (const auto& row : t.pairs)
    for (const auto& p : row) width = std::max(width, p.link.size() + 2);
  std::string header = pad_right("", 7);
  for (const auto& g : t.gpus) header += pad_right("GPU" + std::to_string(g.device), width);
  out += header + pad_right("CPU Affinity", 22) + "NUMA Affinity\n";
  for (std::size_t r = 0; r < t.gpus.size(); ++r) {
    std::string line = pad_right("GPU" + std::to_string(t.gpus[r].device), 7);
    for (const auto& p : t.pairs[r]) line += pad_right(p.link, width);
    line += pad_right(t.gpus[r].cpu_affinity.empty() ? "?" : t.gpus[r].cpu_affinity, 22);
    line += t.gpus[r].numa_node < 0 ? "N/A" : std::to_string(t.gpus[r].numa_node);
    out += line + "\n";
  }
  out +=
      "# X = self; NV# = a bonded set of # NVLinks (through NVSwitch: the GPU's switch links);\n"
      "# PIX = at most one PCIe bridge; PXB = several PCIe bridges, no host bridge; PHB = a PCIe host bridge\n"
      "# (the CPU); NODE = between PCIe host bridges of one NUMA node; SYS = across NUMA nodes (SMP\n"
      "# interconnect, e.g. UPI); ? = unknown\n";
  for (const auto& m : topology_matrices(t)) out += "\n" + format_matrix(m);
  return out;
}

nlohmann::json to_json(const Topology& t) {
  nlohmann::json gpus = nlohmann::json::array(), links = nlohmann::json::array(), types = nlohmann::json::array();
  for (const auto& g : t.gpus)
    gpus.push_back({{"device", g.device},
                    {"name", g.name},
                    {"pci_bus_id", g.pci_bus_id},
                    {"numa_node", g.numa_node},
                    {"cpu_affinity", g.cpu_affinity},
                    {"nvlinks", g.nvlinks}});
  for (const auto& row : t.pairs) {
    nlohmann::json r = nlohmann::json::array();
    for (const auto& p : row) r.push_back(p.link);
    types.push_back(r);
  }
  for (const auto& m : topology_matrices(t)) links.push_back(to_json(m));
  nlohmann::json j{
      {"gpus", gpus},
      {"link_types", types},
      {"link_source", t.link_source},
      {"links", links},
      {"definitions",
       {{"link_types", "[row][column] as nvidia-smi topo -m: X self, NV# NVLinks, PIX, PXB, PHB, NODE, SYS; ? unknown"},
        {"numa_node", "NUMA node of the GPU's PCI device (sysfs), -1 none or unknown"},
        {"cpu_affinity", "CPUs local to the GPU's PCI device (sysfs local_cpulist)"},
        {"nvlinks", "active NVLinks of the GPU (NVML), -1 unknown"}}}};
  if (!t.note.empty()) j["note"] = t.note;
  return j;
}

}  // namespace yeex
