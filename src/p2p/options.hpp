// yeex-p2p's inputs checked from text alone, before any GPU is touched, so that bad input exits
// with code 2 on every machine. Each function throws std::invalid_argument with a message.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace yeex::p2p {

// "64M" -> 67108864. Digits with an optional K, M or G (either case, optional trailing "B" or
// "iB"); binary: 1K = 1024. Refuses 0, negative, unparsable and overflowing sizes.
std::size_t parse_size(const std::string& text);
// "4:256M" -> {4, 268435456}; both parse_size, MIN <= MAX.
std::pair<std::size_t, std::size_t> parse_sweep(const std::string& text);
// MIN, 2 MIN, 4 MIN, ... up to MAX.
std::vector<std::size_t> sweep_sizes(std::size_t min, std::size_t max);
// 4 -> "4 B", 65536 -> "64 KiB", 1536 -> "1.5 KiB".
std::string format_size(std::size_t bytes);
// Refuses a GPU listed twice, a negative one, or one not among the `visible` ones.
void check_devices(const std::vector<int>& devices, int visible);
// Refuses a name not in `valid`, naming the valid ones.
void check_test_names(const std::vector<std::string>& names, const std::vector<std::string>& valid);

}  // namespace yeex::p2p
