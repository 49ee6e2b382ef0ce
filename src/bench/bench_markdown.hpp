// `yeex bench --markdown FILE`: the bench's JSON document (format yeex-bench-2) as markdown, one
// table per scaling and size, a row per backend (and halo depth), a column per device count, each
// cell the efficiency and the time per step: the table a results page or an issue quotes.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace yeex {

std::string bench_markdown(const nlohmann::json& bench);

// One number as printf's `spec` writes it ("%.1f %%"), for the bench's tables.
std::string printf_number(const char* spec, double value);

}  // namespace yeex
