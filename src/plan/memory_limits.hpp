// The memory this process may use on the host: what the kernel has available, the address-space
// limit (RLIMIT_AS, `ulimit -v`) and the memory limit of its cgroup (v2 memory.max, or v1
// memory.limit_in_bytes), each read once before a run. The parsers are separate so that the
// tests can feed them fixture text.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace yeex {

struct MemoryLimits {
  std::optional<std::size_t> available;      // MemAvailable of /proc/meminfo
  std::optional<std::size_t> address_space;  // RLIMIT_AS of this process (unset: unlimited)
  std::optional<std::size_t> cgroup;         // the smallest limit on the cgroup's path (unset: none)
  std::string cgroup_file;                   // the file that set it
  std::optional<std::size_t> device_free;    // free memory of the GPU (cuda engine)
};

// The cgroup of this process as /proc/self/cgroup lists it: the v2 entry ("0::/PATH"), or the v1
// entry whose controllers include memory ("N:memory,...:/PATH"). nullopt when there is none.
std::optional<std::string> cgroup_v2_path(std::string_view proc_self_cgroup);
std::optional<std::string> cgroup_v1_memory_path(std::string_view proc_self_cgroup);
// A limit file's value: v2 memory.max ("max": no limit), v1 memory.limit_in_bytes (a page-rounded
// LONG_MAX: no limit). nullopt for no limit or text that is not a number.
std::optional<std::size_t> parse_cgroup_memory_max(std::string_view text);
std::optional<std::size_t> parse_cgroup_v1_limit(std::string_view text);
// MemAvailable of a /proc/meminfo text, bytes.
std::optional<std::size_t> parse_mem_available(std::string_view meminfo);

// The smallest memory limit on the cgroup path of `proc_self_cgroup`, from the cgroup itself up to
// the root of the hierarchy mounted at `cgroup_root` (v2, else v1 under cgroup_root/memory); the
// limit and its file, or nullopt.
std::optional<std::pair<std::size_t, std::string>> cgroup_memory_limit(std::string_view proc_self_cgroup,
                                                                       const std::filesystem::path& cgroup_root);

// This process's limits (device_free left unset).
MemoryLimits read_memory_limits();

}  // namespace yeex
