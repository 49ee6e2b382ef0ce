// yeex-p2p: the P2P micro-benchmark of the interconnect the solver runs on (read p2p_test.hpp
// first, then harness.hpp, then any one test file). Exit codes: 0 measured and verified;
// 1 no GPU, a CUDA/NCCL error or a wrong byte (the other tests still run); 2 bad input (checked
// before any GPU is touched; a --test that cannot run on the GPUs chosen, before any measurement).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "src/cli/output_paths.hpp"
#include "src/cli/usage_error.hpp"
#include "src/cli/help_formatter.hpp"
#include "src/p2p/options.hpp"
#include "src/p2p/p2p_test.hpp"
#include "src/runtime/build_info.hpp"
#include "src/runtime/provenance.hpp"

namespace {

using namespace yeex::p2p;

void write_json(const std::string& path, nlohmann::json document) {
  if (path.empty()) return;
  document["provenance"] = yeex::provenance();
  yeex::write_text_atomically(path, document.dump(2) + "\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{
      "yeex-p2p: the interconnect that yeex's exchange backends use, measured: GPU-to-GPU bandwidth and "
      "latency by copy engines, SM copies, host staging and NCCL, every transfer verified.",
      "yeex-p2p"};
  app.formatter(std::make_shared<yeex::HelpFormatter>());
  app.set_help_flag("-h,--help", "Print this help and exit");
  app.set_version_flag("--version", std::string("yeex-p2p ") + yeex::kYeexVersion + " (" + yeex::kGitCommit + ")",
                       "Print the version and the git commit, and exit");
  app.footer("yeex-p2p --list shows which tests can run on this machine; yeex --help for the solver.");
  bool list = false;
  std::vector<std::string> tests;
  std::string size_text = "64M", sweep_text = "4:256M", json_path;
  std::vector<int> devices;
  P2POptions options;
  std::string names;
  for (const std::string& name : p2p_test_names()) names += (names.empty() ? "" : ", ") + name;
  app.add_flag("--list", list, "List the tests and whether each can run here");
  app.add_option("--test", tests, "Tests to run, e.g. ce-unidir,latency: " + names + ". Default: all that can run here")
      ->delimiter(',')
      ->option_text("LIST");
  app.add_option("--size", size_text,
                 "Bytes per transfer, with K, M or G for binary multiples (1K = 1024), e.g. 4096 or 256M (default " +
                     size_text + ")")
      ->option_text("BYTES");
  app.add_option("--sweep", sweep_text,
                 "The sweep test's message sizes: every power of 2 from MIN to MAX bytes, e.g. 4:256M (default " +
                     sweep_text + ")")
      ->option_text("MIN:MAX");
  app.add_option("--repeats", options.repeats,
                 "Timed repeats after one warm-up, 1 to 1000; the median is reported (default " +
                     std::to_string(options.repeats) + ")")
      ->check(CLI::Range(1, 1000))
      ->option_text("N");
  app.add_option("--devices", devices, "GPUs to use, e.g. 0,2 (default: every visible GPU)")
      ->delimiter(',')
      ->option_text("LIST");
  app.add_option("--json", json_path, "Also write the results, with the machine's provenance, as JSON to FILE")
      ->option_text("FILE");
  auto* topo = app.add_subcommand(
      "topo",
      "Print the GPUs (PCI bus id, NUMA node, CPU affinity), their link types (NVML) and P2P attributes (CUDA)");
  topo->fallthrough()->group("Commands");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return e.get_exit_code() == 0 ? 0 : 2;
  }

  int visible = 0;
  try {
    options.bytes = parse_size(size_text);
    std::tie(options.sweep_min, options.sweep_max) = parse_sweep(sweep_text);
    check_test_names(tests, p2p_test_names());
    visible = visible_gpu_count();
    check_devices(devices, visible);
    if (app.count("--json") > 0) yeex::check_output_file(json_path, "--json");  // before the measurements
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "yeex-p2p: %s\n", e.what());
    return 2;
  } catch (const yeex::UsageError& e) {
    std::fprintf(stderr, "yeex-p2p: %s\n", e.what());
    return 2;
  }
  if (devices.empty())
    for (int d = 0; d < visible; ++d) devices.push_back(d);
  if (tests.empty()) tests = p2p_test_names();

  try {
    const Machine machine = detect_machine(devices);
    nlohmann::json document{
        {"program", "yeex-p2p"}, {"command_line", command_line}, {"topology", to_json(machine.topology)}};

    if (list) {
      for (const auto& t : p2p_tests()) {
        const std::string why = t.unavailable(machine);
        std::printf("%-12s %-4s %s%s\n", t.name.c_str(),
                    why.empty() ? "yes" : "no:", why.empty() ? "" : (why + "; ").c_str(), t.description.c_str());
      }
      return 0;
    }
    if (topo->parsed()) {
      std::cout << format_topology(machine.topology);
      write_json(json_path, document);
      return 0;
    }
    if (machine.gpu_count() == 0) {
      std::fprintf(stderr, "yeex-p2p: no CUDA device is visible\n");
      return 1;
    }
    // Two buffers per GPU at most (ce-bidir); the sweep's largest message likewise.
    const std::size_t largest = std::max(options.bytes, options.sweep_max);
    for (std::size_t i = 0; i < machine.gpu_count(); ++i)
      if (largest > machine.memory[i].free_bytes / 2) {
        std::fprintf(stderr, "yeex-p2p: --size/--sweep: 2 buffers of %s do not fit in the %s free on GPU %d\n",
                     format_size(largest).c_str(), format_size(machine.memory[i].free_bytes).c_str(),
                     machine.device(i));
        return 2;
      }

    // A test named with --test that cannot run on this machine is bad input, refused before any output.
    if (app.count("--test") > 0)
      for (const auto& entry : p2p_tests())
        if (std::find(tests.begin(), tests.end(), entry.name) != tests.end())
          if (const std::string why = entry.unavailable(machine); !why.empty()) {
            std::fprintf(stderr, "yeex-p2p: --test %s cannot run here: %s\n", entry.name.c_str(), why.c_str());
            return 2;
          }

    std::printf("# yeex-p2p %s (%s)\n", yeex::kYeexVersion, yeex::kGitCommit);
    for (const auto& g : machine.topology.gpus)
      std::printf("# GPU %d: %s, PCI %s, NUMA node %d\n", g.device, g.name.c_str(), g.pci_bus_id.c_str(), g.numa_node);
    std::printf(
        "# every figure: median of %d repeats after one warm-up, each timed with CUDA events around the transfers\n"
        "# alone; GB/s = 1e9 bytes/s; every transfer verified byte for byte (a wrong byte exits 1)\n",
        options.repeats);
    nlohmann::json results = nlohmann::json::array(), skipped = nlohmann::json::array(),
                   failed = nlohmann::json::array();
    for (const auto& entry : p2p_tests()) {
      if (std::find(tests.begin(), tests.end(), entry.name) == tests.end()) continue;
      const std::string why = entry.unavailable(machine);
      if (!why.empty()) {  // only among the tests run by default: a chosen one was refused above
        std::printf("\n# skipped %s: %s\n", entry.name.c_str(), why.c_str());
        skipped.push_back({{"test", entry.name}, {"reason", why}});
        continue;
      }
      // A failing test (wrong byte, CUDA or NCCL error) is reported and the suite goes on: the
      // other figures are still worth having; the exit code says 1 at the end.
      try {
        const TestResult result = entry.make()->run(machine, options);
        for (const auto& m : result.matrices) std::cout << "\n" << format_matrix(m);
        for (const auto& c : result.curves) std::cout << "\n" << format_curve(c);
        results.push_back(to_json(result));
      } catch (const std::exception& e) {
        const bool wrong = dynamic_cast<const VerificationError*>(&e) != nullptr;
        const std::string what = std::string(wrong ? "verification failed: " : "") + e.what();
        std::printf("\n# FAILED %s: %s\n", entry.name.c_str(), what.c_str());
        std::fprintf(stderr, "yeex-p2p: %s: %s\n", entry.name.c_str(), what.c_str());
        failed.push_back({{"test", entry.name}, {"error", what}});
      }
      std::cout.flush();
    }
    document["options"] = {{"bytes", options.bytes},
                           {"sweep_min", options.sweep_min},
                           {"sweep_max", options.sweep_max},
                           {"repeats", options.repeats},
                           {"devices", devices},
                           {"tests", tests}};
    document["results"] = results;
    document["skipped"] = skipped;
    document["failed"] = failed;
    write_json(json_path, document);
    return failed.empty() ? 0 : 1;
  } catch (const VerificationError& e) {
    std::fprintf(stderr, "yeex-p2p: verification failed: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "yeex-p2p: %s\n", e.what());
    return 1;
  }
}
