// The exchange time per step that a P2P message-size sweep predicts for a bench row: the wire
// time of the same halo messages, next to the time the solver measured (`yeex bench
// --p2p-json FILE`, FILE written by `yeex-p2p --test sweep --json FILE`).
//
// THE MODEL. The halo plan (decomposition/halo_plan.hpp) lists the messages: for each transfer
// into subdomain s and each of its components, one contiguous message of (planes x padded plane)
// bytes, a padded plane being FieldLayout::pitch_z elements. Per step, with halo depth R = 1, an
// interior slab receives K = 4 messages of one plane each (S = pitch_z x sizeof(real) bytes): Ex
// and Ey from the upper neighbour before the H sweep, Hx and Hy from the lower one before the E
// sweep. With R > 1 it receives once every R steps 12 messages (E and H, three components each,
// R or R - 1 planes, from both neighbours), so per step 1/R of them.
// A message of b bytes takes t(b), the time per copy the sweep measured at that size: linear
// interpolation in log(size)-log(time) between the two nearest measured sizes; below the
// smallest, t of the smallest (latency-bound); above the largest, the largest size's bandwidth.
// The curve of the pair that carries the message (sweep/src->dst, or its reverse, else the
// slowest curve at that size). A subdomain's messages go one after another (the synchronous
// backends issue them on one stream), the subdomains in parallel over their own links, the
// phases in sequence:
//     predicted exchange per step = max over s of  sum over messages m into s of t(b_m) / R_m
// with R_m = R for the once-per-block messages and 1 otherwise. It is the copy engines' wire time
// alone (no barrier, launch or host synchronisation): measured / predicted says how far a backend
// is from the wire. It assumes distinct pairs do not share a link (true through NVSwitch).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "decomposition/grid.hpp"

namespace yeex {

// Time per copy against message size for one ordered pair of GPUs.
struct MessageCurve {
  int src = -1, dst = -1;  // CUDA ordinals
  struct Point {
    double bytes, seconds;
  };
  std::vector<Point> points;  // increasing bytes
};

struct P2PSweep {
  std::string source;  // the file it came from
  std::vector<MessageCurve> curves;
};

// The "sweep" curves of a yeex-p2p JSON document. Throws std::invalid_argument (naming `source`)
// when it has none or they are malformed.
P2PSweep parse_p2p_sweep(const nlohmann::json& document, const std::string& source);
// Reads and parses a file; throws std::invalid_argument when it cannot be read or parsed.
P2PSweep load_p2p_sweep(const std::filesystem::path& path);

// t(b) of one curve, as the model above says.
double message_seconds(const MessageCurve& curve, double bytes);

// One halo message of the plan: received by subdomain `to` from `from`, once every `every` steps.
struct HaloMessage {
  int from = 0, to = 0;
  double bytes = 0;
  int every = 1;
};
// Every message of the plan for `grid` split into `subdomains` z-slabs with halo depth R.
std::vector<HaloMessage> halo_messages(const GridShape& grid, int subdomains, Index halo_depth,
                                       std::size_t element_size);

// The model's exchange seconds per step; `devices[s]` holds subdomain s. NaN when there is no
// exchange (one subdomain) or the sweep has no curve.
double predicted_exchange_seconds(const P2PSweep& sweep, const GridShape& grid, const std::vector<int>& devices,
                                  Index halo_depth, std::size_t element_size);

// One sentence for reports.
std::string exchange_model_definition();

}  // namespace yeex
