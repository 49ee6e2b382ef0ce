// yeex-p2p's results as plain data, and how they are printed and written as JSON. No CUDA here,
// so the formats are unit-tested on any machine (tests/unit/test_p2p_cli.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace yeex::p2p {

// One figure per cell: a dst x src matrix (rows = destination GPU, columns = source GPU, as in
// p2pBandwidthLatencyTest), or any other labelled table (H2D/D2H per GPU, link attributes).
struct Matrix {
  std::string title;       // "ce-unidir/peer-on": test/variant, also the JSON key and PNG name
  std::string definition;  // what one cell is, in one sentence
  std::string unit;        // "GB/s", "us", "" for attributes
  std::string row_label = "dst";
  std::string column_label = "src";
  std::vector<std::string> rows, columns;
  std::vector<std::vector<double>> values;  // [row][column]; NaN = not measured
  int decimals = 2;
};

// Bandwidth against message size for one pair of GPUs.
struct Curve {
  struct Point {
    std::size_t bytes;
    double gbps;          // 1e9 bytes per second
    double microseconds;  // per transfer
  };
  std::string title;       // "sweep/0->1"
  std::string definition;
  std::vector<Point> points;
};

struct TestResult {
  std::string test;
  std::vector<Matrix> matrices;
  std::vector<Curve> curves;
};

// What the CUDA runtime says about the GPUs (the `topo` subcommand, and every JSON file).
struct GpuInfo {
  int device = 0;
  std::string name;
  std::string pci_bus_id;
  int numa_node = -1;       // cudaDevAttrNumaId (GPU memory as a NUMA node), -1 = not one
  int host_numa_node = -1;  // cudaDevAttrHostNumaId, -1 = unknown
  std::size_t free_bytes = 0, total_bytes = 0;
};
struct Topology {
  std::vector<GpuInfo> gpus;
  std::vector<Matrix> links;  // peer access, performance rank, native atomics (dst x src)
};

std::string format_matrix(const Matrix& matrix);
std::string format_curve(const Curve& curve);
std::string format_topology(const Topology& topology);
nlohmann::json to_json(const Matrix& matrix);
nlohmann::json to_json(const Curve& curve);
nlohmann::json to_json(const TestResult& result);
nlohmann::json to_json(const Topology& topology);

}  // namespace yeex::p2p
