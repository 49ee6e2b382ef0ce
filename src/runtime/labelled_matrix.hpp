// A labelled table of numbers, printed like the seeds' p2pBandwidthLatencyTest matrices and
// written as JSON: the one format of yeex-p2p's matrices and of the topology's pair attributes.
// No CUDA here, so the format is unit-tested on any machine.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace yeex {

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

// "# title", "# cell: definition [unit]", the labels, then the table ('-' for NaN).
std::string format_matrix(const Matrix& matrix);

// Table cells: `value` with `decimals` decimals ("-" for NaN); `text` right-aligned in `width`.
std::string fixed(double value, int decimals);
std::string pad(const std::string& text, std::size_t width);
// NaN cells become null.
nlohmann::json to_json(const Matrix& matrix);

}  // namespace yeex
