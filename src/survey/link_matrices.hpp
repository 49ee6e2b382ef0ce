// The bandwidth and latency between the GPUs of a machine, read from what the usual tools print:
// yeex-p2p's JSON (`yeex-p2p --json FILE`), the text of CUDA's p2pBandwidthLatencyTest sample and
// the text of nvbandwidth. `yeex survey` reads its own machine's from yeex-p2p and another
// machine's with --what-if (src/survey/what_if.hpp).
//
// Every matrix is GPU x GPU as the tool printed it (rows and columns are the labels it printed;
// the diagonal, "X" and "N/A" cells are NaN). Which of the two directions a row means differs
// between the tools; the model uses the slower direction of each pair, so it does not matter.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "src/runtime/labelled_matrix.hpp"

namespace yeex {

struct LinkMatrices {
  std::string source;             // the file (or "yeex-p2p") it came from
  std::string format;             // "yeex-p2p", "p2pBandwidthLatencyTest" or "nvbandwidth"
  std::vector<std::string> gpus;  // labels, in the order printed
  // Unidirectional bandwidth [GB/s] with peer access (copy engines, P2P writes) and without it
  // (staged through host memory); latency [us] of a small copy, likewise. Empty when the input
  // has none; a unidirectional matrix made from a bidirectional one says so in `notes`.
  Matrix peer_bandwidth, staged_bandwidth, peer_latency, staged_latency;
  std::vector<std::string> notes;  // how each matrix was obtained
};

// The text of p2pBandwidthLatencyTest or nvbandwidth (detected). Throws std::invalid_argument
// naming `source` when it holds no bandwidth matrix or a matrix is malformed.
LinkMatrices parse_link_matrices_text(const std::string& text, const std::string& source);
// A yeex-p2p JSON document (its ce-unidir, ce-bidir and latency matrices).
LinkMatrices parse_link_matrices_json(const nlohmann::json& document, const std::string& source);
// Reads a file of any of the three formats (JSON when it parses as JSON).
LinkMatrices load_link_matrices(const std::filesystem::path& path);

// Pair (i, j) of `gpus` indices: the slower direction, NaN when neither is known.
double pair_value(const Matrix& matrix, std::size_t i, std::size_t j, bool larger_is_better);

nlohmann::json to_json(const LinkMatrices& links);
LinkMatrices link_matrices_from_json(const nlohmann::json& j);

}  // namespace yeex
