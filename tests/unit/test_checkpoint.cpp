// Checkpoints (io/checkpoint.hpp, src/solver/checkpointing.hpp): the file's round trip, the
// state in its split-independent form (fields and CPML psi written from one slab, restored onto
// three and written again from there: the same values), a resumed run's checksum and probes
// against an uninterrupted run's, and the refusals of a checkpoint that does not fit.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "../support/contract_deck.hpp"
#include "../support/run_helpers.hpp"
#include "io/checkpoint.hpp"
#include "io/hdf5_handle.hpp"
#include "src/solver/checkpointing.hpp"
#include "src/solver/solver.hpp"

namespace yeex {
namespace {

using testing::ScratchDir;

RunConfig host_config(int slabs, int bits = 32) {
  RunConfig c;
  c.engine = "host";
  c.subdomains = slabs;
  c.precision_bits = bits;
  c.probe_slots = 8;  // several drains between checkpoints
  return c;
}

Deck deck_of(Index steps) {
  Deck d = testing::cpml_contract_deck();
  d.steps = steps;
  return d;
}

// Every dataset of a checkpoint's /fields and /cpml, by name.
std::map<std::string, std::vector<double>> state_of(const std::filesystem::path& file) {
  std::map<std::string, std::vector<double>> state;
  const hdf5::Object root = hdf5::open_file(file);
  for (const char* group : {"fields", "cpml"}) {
    const hdf5::Object g = hdf5::open_object(root, group);
    for (const std::string& name : hdf5::child_names(g))
      state[std::string(group) + "/" + name] = hdf5::read_dataset(hdf5::open_object(g, name));
  }
  return state;
}

TEST(Checkpoint, FileRoundTrip) {
  ScratchDir dir;
  CheckpointHeader h;
  h.step = 3;
  h.steps = 10;
  h.precision_bits = 64;
  h.cells = {2, 1, 1};
  h.deck_text = std::string(100000, 'x');  // beyond an attribute's 64 KiB
  h.deck_origin = "deck.toml";
  h.run_json = R"({"a":1})";
  const std::size_t nodes = 3 * 2 * 2;
  std::vector<double> ex(nodes);
  for (std::size_t i = 0; i < nodes; ++i) ex[i] = 0.5 + double(i);
  std::vector<double> psi(2 * 2 * 2 * 4 * 2);  // planes 2, nj 2, ni 4
  for (std::size_t i = 0; i < psi.size(); ++i) psi[i] = -double(i);
  {
    CheckpointWriter w(dir / "c.h5", h);
    for (Component c : kAllComponents)
      w.write_field(c, std::span<const double>(c == Component::Ex ? ex : std::vector<double>(nodes)));
    w.write_psi(1, {2, 2, 4}, std::span<const double>(psi));
    w.begin_probes(2, 3);
    w.write_probe_series(0, std::vector<double>{1, 2, 3});
    w.write_probe_series(1, std::vector<double>{4, 5, 6});
    w.write_snapshot("s", 2, Component::Ez, std::vector<double>{7, 8}, {1, 1, 2});
    EXPECT_FALSE(std::filesystem::exists(dir / "c.h5"));  // only the temporary until commit
    w.commit();
  }
  const CheckpointReader r(dir / "c.h5");
  EXPECT_EQ(r.header().step, 3);
  EXPECT_EQ(r.header().steps, 10);
  EXPECT_EQ(r.header().precision_bits, 64);
  EXPECT_EQ(r.header().deck_text, h.deck_text);
  EXPECT_EQ(r.header().run_json, h.run_json);
  EXPECT_EQ(r.read_field_f64(Component::Ex), ex);
  EXPECT_TRUE(r.has_psi(1));
  EXPECT_FALSE(r.has_psi(0));
  EXPECT_EQ(r.read_psi_f64(1), psi);
  EXPECT_EQ(r.read_probe_block(1, 2), (std::vector<double>{2, 3, 5, 6}));
  ASSERT_EQ(r.snapshot_steps("s").size(), 1u);
  EXPECT_EQ(r.read_snapshot("s", 2, Component::Ez), (std::vector<double>{7, 8}));
}

// One slab writes at step 20; three slabs restore it, run on and write at step 40; one slab's
// own checkpoint at step 40 holds the same fields and psi, and both runs end with the checksum
// and the probes of a run that never stopped.
TEST(Checkpoint, StateFromOneSlabRestoredOntoThree) {
  ScratchDir dir;
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  std::filesystem::create_directories(dir / "c");
  const RunResult whole = run_model(build_model(deck_of(45)), host_config(1));

  RunConfig first = host_config(1);
  first.checkpoint.file = dir / "a" / "checkpoint.h5";
  first.checkpoint.every_steps = 20;
  run_model(build_model(deck_of(25)), first);  // checkpoint at 20 only
  ASSERT_EQ(CheckpointReader(*first.checkpoint.file).header().step, 20);

  RunConfig straight = host_config(1);
  straight.checkpoint.file = dir / "b" / "checkpoint.h5";
  straight.checkpoint.every_steps = 20;
  const RunResult b = run_model(build_model(deck_of(45)), straight);  // checkpoints at 20 and 40
  EXPECT_EQ(b.checksum, whole.checksum);

  RunConfig resumed = host_config(3);
  resumed.checkpoint.resume = first.checkpoint.file;
  resumed.checkpoint.file = dir / "c" / "checkpoint.h5";
  resumed.checkpoint.every_steps = 20;
  const RunResult c = run_model(build_model(deck_of(45)), resumed);
  EXPECT_EQ(c.checksum, whole.checksum);
  ASSERT_EQ(c.probes.probes.size(), whole.probes.probes.size());
  for (std::size_t p = 0; p < whole.probes.probes.size(); ++p)
    EXPECT_EQ(c.probes.probes[p].series, whole.probes.probes[p].series) << whole.probes.probes[p].name;

  const auto from_one = state_of(*straight.checkpoint.file), from_three = state_of(*resumed.checkpoint.file);
  EXPECT_EQ(from_one.size(), 6u + 6u);  // six components, six CPML faces
  EXPECT_EQ(from_one, from_three);
  bool psi_nonzero = false;
  for (double v : from_one.at("cpml/x_min")) psi_nonzero |= v != 0.0;
  EXPECT_TRUE(psi_nonzero);
}

TEST(Checkpoint, ResumesInDoublePrecisionOnTwoSlabs) {
  ScratchDir dir;
  const RunResult whole = run_model(build_model(deck_of(30)), host_config(2, 64));
  RunConfig first = host_config(1, 64);
  first.checkpoint.file = dir / "checkpoint.h5";
  first.checkpoint.every_steps = 13;
  run_model(build_model(deck_of(14)), first);
  RunConfig resumed = host_config(2, 64);
  resumed.checkpoint.resume = first.checkpoint.file;
  EXPECT_EQ(run_model(build_model(deck_of(30)), resumed).checksum, whole.checksum);
}

class CheckpointRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    RunConfig c = host_config(1);
    c.checkpoint.file = dir_ / "checkpoint.h5";
    c.checkpoint.every_steps = 5;
    run_model(build_model(deck_of(6)), c);
  }
  std::filesystem::path file() const { return dir_ / "checkpoint.h5"; }
  ScratchDir dir_;
};

TEST_F(CheckpointRefusal, Missing) {
  try {
    CheckpointReader r(dir_ / "none.h5");
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

TEST_F(CheckpointRefusal, Truncated) {
  std::filesystem::resize_file(file(), std::filesystem::file_size(file()) / 2);
  EXPECT_THROW(
      {
        const CheckpointReader r(file());
        check_checkpoint_fits(r, deck_of(10), 32);
        r.read_field_f32(Component::Hz);
      },
      CheckpointError);
}

TEST_F(CheckpointRefusal, DamagedData) {
  // Flip bytes in the middle of the file: a chunk's Fletcher-32 sum no longer holds.
  const auto size = std::filesystem::file_size(file());
  {
    std::fstream f(file(), std::ios::in | std::ios::out | std::ios::binary);
    for (std::uintmax_t at = size / 3; at < size * 2 / 3; at += 97) {
      f.seekp(std::streamoff(at));
      f.put('\x5a');
    }
  }
  EXPECT_THROW(
      {
        const CheckpointReader r(file());
        for (Component c : kAllComponents) r.read_field_f32(c);
        for (const auto& [face, shape] : cpml_global_shapes(deck_of(10))) r.read_psi_f32(face);
        r.read_probe_block(0, 5);
      },
      CheckpointError);
}

TEST_F(CheckpointRefusal, OtherPrecisionOrGrid) {
  const CheckpointReader r(file());
  try {
    check_checkpoint_fits(r, deck_of(10), 64);
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("f32"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("f64"), std::string::npos) << e.what();
  }
  Deck other = deck_of(10);
  other.grid.nz = 24;
  try {
    check_checkpoint_fits(r, other, 32);
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("18 x 19 x 22"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_checkpoint_fits(r, deck_of(5), 32), CheckpointError);  // nothing left to run
}

TEST_F(CheckpointRefusal, NotACheckpoint) {
  { std::ofstream(dir_ / "text.h5") << "not HDF5"; }
  EXPECT_THROW(CheckpointReader(dir_ / "text.h5"), CheckpointError);
}

}  // namespace
}  // namespace yeex
