// inputs/gpr_wet_soil.toml, the GPR deck over dispersive (Peplinski) soil, as the CLI runs it: the
// checksum is the same on one, two and three host slabs and with deeper B+2R halos (the slab
// boundaries lie in the soil, so the poles' state crosses them), and the soil's Debye pole shapes
// the receiver's trace: the same deck with the soil's eps_inf and sigma and no pole records another
// A-scan; a run killed after its first checkpoint and resumed on other splits ends as the run that
// never stopped (the poles' state is in the checkpoint). The comparison with gprMax on this deck
// is scripts/compare_gprmax.sh fields.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "io/probe_writer.hpp"
#include "tests/support/resume_run.hpp"
#include "tests/support/run_helpers.hpp"

namespace yeex {
namespace {

using testing::read_file;
using testing::read_json;
using testing::run_yeex;
using testing::ScratchDir;
using testing::source_path;
using testing::write_file;

const std::string kDeck = source_path("inputs/gpr_wet_soil.toml");

// Runs `deck` on the host engine and returns its run.json; the output goes to `out`.
nlohmann::json run_deck(const std::string& deck, const std::filesystem::path& out, const std::string& options) {
  const auto r = run_yeex("run " + deck + " --engine host --quiet --output " + out.string() + " " + options);
  EXPECT_EQ(r.exit_code, 0) << options << "\n" << r.output;
  return r.exit_code == 0 ? read_json(out / "run.json") : nlohmann::json{};
}

TEST(GprWetSoil, ChecksumIsTheSameOnEverySplit) {
  ScratchDir dir;
  const auto reference = run_deck(kDeck, dir / "one", "--steps 150");
  ASSERT_FALSE(reference.is_null());
  const auto& soil = reference["deck"]["material"][0];
  ASSERT_EQ(soil["name"], "wet_soil");
  ASSERT_EQ(soil["poles"].size(), 1u) << "the Peplinski soil is one Debye pole";
  EXPECT_EQ(soil["poles"][0]["type"], "debye");
  // The slabs' boundaries (z plane 38 on two slabs, 26 and 51 on three) lie in the soil (planes 0-50)
  // or at its surface.
  for (const char* split :
       {"--subdomains 2 --exchange host-staged", "--subdomains 3 --exchange host-staged",
        "--subdomains 2 --exchange b2r --halo-depth 2", "--subdomains 3 --exchange b2r --halo-depth 3"}) {
    SCOPED_TRACE(split);
    const auto run = run_deck(kDeck, dir / "split", std::string(split) + " --steps 150 --force");
    ASSERT_FALSE(run.is_null());
    EXPECT_EQ(run["checksum"]["fields"], reference["checksum"]["fields"]);
  }
}

TEST(GprWetSoil, TheSoilsPoleShapesTheAScan) {
  ScratchDir dir;
  // 400 steps (3 ns): the direct wave and the ground's reflection have reached the receiver.
  const auto wet = run_deck(kDeck, dir / "wet", "--steps 400");
  ASSERT_FALSE(wet.is_null());
  const auto& soil = wet["deck"]["material"][0];
  // The same soil without its pole: eps_r (eps_inf) and sigma as the Peplinski model gives them.
  const std::string text = read_file(kDeck);
  const auto at = text.find("peplinski = {");
  ASSERT_NE(at, std::string::npos);
  const auto end = text.find('\n', at);
  const std::string plain =
      text.substr(0, at) + "eps_r = " + soil["eps_r"].dump() + "\nsigma = " + soil["sigma"].dump() + text.substr(end);
  write_file(dir / "plain.toml", plain);
  const auto dry = run_deck((dir / "plain.toml").string(), dir / "dry", "--steps 400");
  ASSERT_FALSE(dry.is_null());
  EXPECT_FALSE(dry["deck"]["material"][0].contains("poles"));

  const ProbeFile a = read_probe_file(dir / "wet" / "probes.h5"), b = read_probe_file(dir / "dry" / "probes.h5");
  ASSERT_EQ(a.probes.size(), 1u);
  ASSERT_EQ(b.probes.size(), 1u);
  const std::vector<double>&ey = a.probes[0].series[0], &plain_ey = b.probes[0].series[0];
  ASSERT_EQ(ey.size(), 400u);
  ASSERT_EQ(plain_ey.size(), 400u);
  double peak = 0, difference = 0;
  for (std::size_t n = 0; n < ey.size(); ++n) {
    peak = std::max(peak, std::abs(ey[n]));
    difference = std::max(difference, std::abs(ey[n] - plain_ey[n]));
  }
  ASSERT_GT(peak, 0.0);
  EXPECT_GT(difference / peak, 0.02) << "the pole's permittivity (16.7 at low frequency against eps_inf 9.8) "
                                        "changes the ground's reflection (4 % of the peak by 400 steps)";
}

// The pole state goes into the checkpoint and comes back on any split: a resume on three slabs and
// one with B+2R ghost planes (which compute the state) end with the files of the whole run.
TEST(GprWetSoil, AResumedRunEndsAsTheWholeOne) {
  ScratchDir dir;
  const std::string steps = "600";
  ASSERT_FALSE(run_deck(kDeck, dir / "whole", "--steps " + steps).is_null());
  ASSERT_TRUE(
      testing::kill_once_file_exists({"run", kDeck, "--engine", "host", "--subdomains", "2", "--steps", steps,
                                      "--checkpoint-every", "40", "--quiet", "--output", (dir / "killed").string()},
                                     dir / "killed.checkpoint" / "checkpoint.h5"))
      << "the run was not caught between checkpoints";
  std::filesystem::copy(dir / "killed.checkpoint", dir / "copy.checkpoint", std::filesystem::copy_options::recursive);
  for (const auto& [name, from, split] : {std::tuple{"three", "killed.checkpoint", "--subdomains 3"},
                                          std::tuple{"b2r", "copy.checkpoint", "--subdomains 2 --halo-depth 3"}}) {
    const auto r = run_yeex("run --resume " + (dir / from).string() + " --engine host --quiet " + split + " --output " +
                            (dir / name).string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(testing::output_differences(dir / "whole", dir / name), "") << name;
  }
}

}  // namespace
}  // namespace yeex
