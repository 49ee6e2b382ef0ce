// libFuzzer target: the deck parser and the model's checks on arbitrary bytes.
//
// A deck is either accepted or refused with a DeckError (exit 2 in the CLI). Anything else is a
// finding: a crash or sanitizer report, another exception (libFuzzer reports it as a crash), a
// resolved deck that JSON cannot hold, or a derived value that is not finite. An accepted deck goes
// on as `yeex run` takes it: the memory estimate, then, if the model is small (the fuzzer's memory
// is not the point), build_model's checks (materials, node classes, sources in PEC), which walk
// the grid's axes but allocate no fields.
//
// Built as the libFuzzer binary fuzz_deck (YEEX_BUILD_FUZZERS=ON, clang) and, in every build, as
// fuzz_deck_replay (replay_main.cpp), which runs the seed corpus and tests/fuzz/regressions/.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/deck.hpp"
#include "src/solver/model.hpp"
#include "src/solver/solver.hpp"

namespace {

// Largest engine (float32, one slab) whose model the fuzzer builds.
constexpr std::size_t kLargestModelBytes = std::size_t{64} << 20;

void check(const yeex::Deck& deck) {
  if (!std::isnormal(deck.dt()) || deck.step_count() < 1 || deck.step_count() > yeex::kMaxSteps) std::abort();
  (void)deck.to_json().dump();  // throws on text JSON cannot hold
  if (yeex::estimate_engine_bytes(deck, 32) > kLargestModelBytes) return;
  (void)yeex::build_model(deck);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    check(yeex::parse_deck_string(std::string(reinterpret_cast<const char*>(data), size), "fuzz.toml"));
  } catch (const yeex::DeckError&) {
    // a refusal with its message: what a bad deck must get
  }
  return 0;
}
