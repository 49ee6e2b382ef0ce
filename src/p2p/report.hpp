// yeex-p2p's results as plain data, and how they are printed and written as JSON. No CUDA here,
// so the formats are unit-tested on any machine (tests/unit/test_p2p_cli.cpp). Matrices use the
// shared labelled-matrix format (src/runtime/labelled_matrix.hpp), as the topology does.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "src/runtime/labelled_matrix.hpp"

namespace yeex::p2p {

using yeex::format_matrix;
using yeex::Matrix;
using yeex::to_json;

// Bandwidth against message size for one pair of GPUs (or one NCCL pattern).
struct Curve {
  struct Point {
    std::size_t bytes;
    double gbps;            // 1e9 bytes per second (nccl-tests' algbw for NCCL curves)
    double microseconds;    // per transfer
    double bus_gbps = NAN;  // nccl-tests' busbw; NaN: not a NCCL curve (no busbw column)
  };
  std::string title;  // "sweep/0->1", "nccl-ring"
  std::string definition;
  std::vector<Point> points;
};

struct TestResult {
  std::string test;
  std::vector<Matrix> matrices;
  std::vector<Curve> curves;
};

std::string format_curve(const Curve& curve);
nlohmann::json to_json(const Curve& curve);
nlohmann::json to_json(const TestResult& result);

}  // namespace yeex::p2p
