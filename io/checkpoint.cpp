#include "io/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/atomic_file.hpp"
#include "io/hdf5_handle.hpp"

namespace yeex {
namespace {

constexpr const char* kFormat = "yeex-checkpoint-1";
// Values a chunk holds at most (its Fletcher-32 sum is checked a chunk at a time).
constexpr hsize_t kChunkValues = hsize_t(1) << 20;

std::string step_group(Index step) {
  char name[32];
  std::snprintf(name, sizeof name, "step_%08lld", static_cast<long long>(step));
  return name;
}

std::string shape_text(const std::vector<hsize_t>& dims) {
  std::string text;
  for (hsize_t d : dims) text += (text.empty() ? "" : " x ") + std::to_string(d);
  return text.empty() ? "a scalar" : text;
}

// Chunks of whole trailing rows, at most kChunkValues values.
std::vector<hsize_t> chunk_of(const std::vector<hsize_t>& dims) {
  std::vector<hsize_t> chunk(dims.size(), 1);
  hsize_t room = kChunkValues;
  for (std::size_t i = dims.size(); i-- > 0;) {
    chunk[i] = std::max<hsize_t>(1, std::min(dims[i], room));
    room = std::max<hsize_t>(1, room / chunk[i]);
  }
  return chunk;
}

// A dataset of shape `dims` stored as T, chunked, each chunk with its Fletcher-32 sum.
template <class T>
hdf5::Object create_checked(const hdf5::Object& parent, const std::string& name, const std::vector<hsize_t>& dims) {
  const std::string path = parent.child_path(name);
  const hid_t space_id = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  const hdf5::Handle space{parent.check(space_id, "create the dataspace of dataset " + path), H5Sclose};
  const hdf5::Handle create{parent.check(H5Pcreate(H5P_DATASET_CREATE), "create properties for dataset " + path),
                            H5Pclose};
  const std::vector<hsize_t> chunk = chunk_of(dims);
  parent.check(H5Pset_chunk(create.get(), int(chunk.size()), chunk.data()), "set the chunks of dataset " + path);
  parent.check(H5Pset_fletcher32(create.get()), "add checksums to dataset " + path);
  const hid_t id = H5Dcreate2(parent.id(), name.c_str(), hdf5::detail::file_type<T>(), space.get(), H5P_DEFAULT,
                              create.get(), H5P_DEFAULT);
  return {hdf5::Handle{parent.check(id, "create dataset " + path), H5Dclose}, parent.file(), path};
}

template <class T>
void write_checked(const hdf5::Object& parent, const std::string& name, std::span<const T> values,
                   const std::vector<hsize_t>& dims) {
  hsize_t count = 1;
  for (hsize_t d : dims) count *= d;
  if (count != values.size())
    throw std::invalid_argument("checkpoint: " + std::to_string(values.size()) + " values for " +
                                parent.child_path(name) + " of " + shape_text(dims));
  const hdf5::Object dataset = create_checked<T>(parent, name, dims);
  if (count > 0)
    dataset.check(H5Dwrite(dataset.id(), hdf5::detail::memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  "write dataset " + dataset.path());
}

// Text as a dataset of bytes: an attribute holds at most 64 KiB.
void write_text(const hdf5::Object& parent, const std::string& name, const std::string& text) {
  const std::string path = parent.child_path(name);
  const hsize_t size = text.size();
  const hdf5::Handle space{parent.check(H5Screate_simple(1, &size, nullptr), "create the dataspace of " + path),
                           H5Sclose};
  const hid_t id =
      H5Dcreate2(parent.id(), name.c_str(), H5T_STD_U8LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hdf5::Object dataset{hdf5::Handle{parent.check(id, "create dataset " + path), H5Dclose}, parent.file(), path};
  if (size > 0)
    dataset.check(H5Dwrite(dataset.id(), H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()),
                  "write dataset " + path);
}

std::string read_text(const hdf5::Object& parent, const std::string& name) {
  const hdf5::Object dataset = hdf5::open_object(parent, name);
  const hdf5::Handle space{dataset.check(H5Dget_space(dataset.id()), "read the shape of " + dataset.path()), H5Sclose};
  const hssize_t size = dataset.check(H5Sget_simple_extent_npoints(space.get()), "size " + dataset.path());
  std::string text(std::size_t(size), '\0');
  if (size > 0)
    dataset.check(H5Dread(dataset.id(), H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()),
                  "read " + dataset.path());
  return text;
}

std::vector<hsize_t> shape_of(const hdf5::Object& dataset) {
  const hdf5::Handle space{dataset.check(H5Dget_space(dataset.id()), "read the shape of " + dataset.path()), H5Sclose};
  const int rank = dataset.check(H5Sget_simple_extent_ndims(space.get()), "read the shape of " + dataset.path());
  std::vector<hsize_t> dims(std::size_t(rank), 0);
  dataset.check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "read the shape of " + dataset.path());
  return dims;
}

void sync_path(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) throw std::runtime_error("cannot open " + path.string() + " to flush it: " + std::strerror(errno));
  const int synced = ::fsync(fd), error = errno;
  ::close(fd);
  if (synced != 0) throw std::runtime_error("cannot flush " + path.string() + " to the disk: " + std::strerror(error));
}

}  // namespace

std::filesystem::path default_checkpoint_folder(const std::filesystem::path& output_dir) {
  std::filesystem::path dir = output_dir;
  while (dir.has_parent_path() && !dir.has_filename()) dir = dir.parent_path();  // "out/" names "out"
  return dir.parent_path() / (dir.filename().string() + ".checkpoint");
}

std::filesystem::path checkpoint_file_in(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) ? path / kCheckpointFileName : path;
}

std::string_view cpml_face_name(int face) {
  static constexpr std::string_view names[] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  return names[face];
}

// ---- writing ----

struct CheckpointWriter::State {
  State(std::filesystem::path path, const CheckpointHeader& h)
      : header(h), file(std::move(path)), root(hdf5::create_file(file.temporary_path())) {}
  CheckpointHeader header;
  AtomicFile file;
  hdf5::Object root;  // after `file`: closed before an uncommitted temporary is removed
  std::optional<hdf5::Object> probes;
  std::size_t series = 0;
  Index probe_steps = 0;
};

CheckpointWriter::CheckpointWriter(std::filesystem::path final_path, const CheckpointHeader& h)
    : state_(std::make_unique<State>(std::move(final_path), h)) {
  const hdf5::Object& root = state_->root;
  hdf5::write_attribute(root, "format", std::string(kFormat));
  hdf5::write_attribute(root, "step", h.step);
  hdf5::write_attribute(root, "steps", h.steps);
  hdf5::write_attribute(root, "precision_bits", Index(h.precision_bits));
  hdf5::write_attribute(root, "cells", h.cells, {3});
  hdf5::write_attribute(root, "energy_every", h.energy_every);
  write_text(root, "deck", h.deck_text);
  write_text(root, "deck_origin", h.deck_origin);
  write_text(root, "run", h.run_json);
  hdf5::create_group(root, "fields");
  hdf5::create_group(root, "cpml");
  hdf5::create_group(root, "snapshots");
}

CheckpointWriter::~CheckpointWriter() = default;

namespace {
template <class T>
void write_field_as(const hdf5::Object& root, const CheckpointHeader& h, Component c, std::span<const T> values) {
  const auto& n = h.cells;
  write_checked<T>(hdf5::open_object(root, "fields"), std::string(component_name(c)), values,
                   {hsize_t(n[2] + 1), hsize_t(n[1] + 1), hsize_t(n[0] + 1)});
}
template <class T>
void write_psi_as(const hdf5::Object& root, int face, const std::array<Index, 3>& d, std::span<const T> values) {
  write_checked<T>(hdf5::open_object(root, "cpml"), std::string(cpml_face_name(face)), values,
                   {2, hsize_t(d[0]), hsize_t(d[1]), hsize_t(d[2]), 2});
}
}  // namespace

void CheckpointWriter::write_field(Component c, std::span<const float> v) {
  write_field_as(state_->root, state_->header, c, v);
}
void CheckpointWriter::write_field(Component c, std::span<const double> v) {
  write_field_as(state_->root, state_->header, c, v);
}
void CheckpointWriter::write_psi(int face, const std::array<Index, 3>& d, std::span<const float> v) {
  write_psi_as(state_->root, face, d, v);
}
void CheckpointWriter::write_psi(int face, const std::array<Index, 3>& d, std::span<const double> v) {
  write_psi_as(state_->root, face, d, v);
}

void CheckpointWriter::write_dispersion(Index arrays, Index entries, std::span<const float> v) {
  write_checked<float>(state_->root, "dispersion", v, {hsize_t(arrays), hsize_t(entries)});
}
void CheckpointWriter::write_dispersion(Index arrays, Index entries, std::span<const double> v) {
  write_checked<double>(state_->root, "dispersion", v, {hsize_t(arrays), hsize_t(entries)});
}

void CheckpointWriter::begin_probes(std::size_t series, Index steps) {
  State& s = *state_;
  s.series = series;
  s.probe_steps = steps;
  const hdf5::Object group = hdf5::create_group(s.root, "probes");
  s.probes.emplace(create_checked<double>(group, "samples", {hsize_t(series), hsize_t(steps)}));
}

void CheckpointWriter::write_probe_series(std::size_t series, std::span<const double> samples) {
  State& s = *state_;
  if (!s.probes || series >= s.series || Index(samples.size()) != s.probe_steps)
    throw std::invalid_argument("checkpoint: probe series " + std::to_string(series) + " of " +
                                std::to_string(samples.size()) + " samples does not fit");
  const hdf5::Object& dataset = *s.probes;
  const hsize_t start[2] = {hsize_t(series), 0}, count[2] = {1, hsize_t(samples.size())};
  if (samples.empty()) return;
  const hdf5::Handle file_space{dataset.check(H5Dget_space(dataset.id()), "read the shape of " + dataset.path()),
                                H5Sclose};
  dataset.check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
                "select a series of " + dataset.path());
  const hdf5::Handle memory{dataset.check(H5Screate_simple(2, count, nullptr), "create a dataspace"), H5Sclose};
  dataset.check(H5Dwrite(dataset.id(), H5T_NATIVE_DOUBLE, memory.get(), file_space.get(), H5P_DEFAULT, samples.data()),
                "write " + dataset.path());
}

void CheckpointWriter::write_snapshot(const std::string& name, Index step, Component c, std::span<const double> values,
                                      const std::array<Index, 3>& zyx) {
  const hdf5::Object snapshots = hdf5::open_object(state_->root, "snapshots");
  const hdf5::Object group =
      hdf5::has_child(snapshots, name) ? hdf5::open_object(snapshots, name) : hdf5::create_group(snapshots, name);
  const std::string step_name = step_group(step);
  const hdf5::Object at =
      hdf5::has_child(group, step_name) ? hdf5::open_object(group, step_name) : hdf5::create_group(group, step_name);
  if (!hdf5::has_child(at, "step")) hdf5::write_attribute(at, "step", step);
  write_checked<double>(at, std::string(component_name(c)), values,
                        {hsize_t(zyx[0]), hsize_t(zyx[1]), hsize_t(zyx[2])});
}

void CheckpointWriter::write_energy(const std::vector<std::pair<Index, double>>& samples) {
  std::vector<double> flat;
  for (const auto& [step, joules] : samples) flat.insert(flat.end(), {double(step), joules});
  write_checked<double>(state_->root, "energy", std::span<const double>(flat), {hsize_t(samples.size()), 2});
}

void CheckpointWriter::commit() {
  State& s = *state_;
  s.probes.reset();
  s.root.close();
  sync_path(s.file.temporary_path(), O_RDONLY);
  s.file.commit();
  const std::filesystem::path folder = s.file.final_path().parent_path();
  sync_path(folder.empty() ? std::filesystem::path(".") : folder, O_RDONLY | O_DIRECTORY);
}

// ---- reading ----

struct CheckpointReader::State {
  std::filesystem::path path;
  std::optional<hdf5::Object> root;
  CheckpointHeader header;

  [[noreturn]] void fail(const std::string& why) const {
    throw CheckpointError("checkpoint " + path.string() + ": " + why);
  }
  // Runs `read`, turning HDF5's failures into a CheckpointError naming the file.
  template <class Read>
  auto guarded(const std::string& what, Read read) const {
    try {
      return read();
    } catch (const CheckpointError&) {
      throw;
    } catch (const std::exception& e) {
      fail("cannot read " + what + " (" + e.what() + "): the file is truncated, damaged or not a yeex checkpoint");
    }
  }
  hdf5::Object dataset(const std::string& path_in_file, const std::vector<hsize_t>& dims) const {
    return guarded(path_in_file, [&] {
      if (!hdf5::has_child(*root, path_in_file.substr(0, path_in_file.find('/'))) ||
          H5Lexists(root->id(), path_in_file.c_str(), H5P_DEFAULT) <= 0)
        fail("it holds no " + path_in_file);
      hdf5::Object d = hdf5::open_object(*root, path_in_file);
      if (shape_of(d) != dims)
        fail(path_in_file + " is " + shape_text(shape_of(d)) + ", the run needs " + shape_text(dims));
      return d;
    });
  }
  template <class T>
  std::vector<T> read_all(const std::string& path_in_file, const std::vector<hsize_t>& dims) const {
    const hdf5::Object d = dataset(path_in_file, dims);
    hsize_t count = 1;
    for (hsize_t n : dims) count *= n;
    std::vector<T> values(count);
    guarded(path_in_file, [&] {
      if (count > 0)
        d.check(H5Dread(d.id(), hdf5::detail::memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                "read " + d.path());
      return 0;
    });
    return values;
  }
  std::vector<hsize_t> field_dims() const {
    return {hsize_t(header.cells[2] + 1), hsize_t(header.cells[1] + 1), hsize_t(header.cells[0] + 1)};
  }
  std::vector<hsize_t> psi_dims(int face) const {
    const std::string name = "cpml/" + std::string(cpml_face_name(face));
    const auto shape = guarded(name, [&] { return shape_of(hdf5::open_object(*root, name)); });
    if (shape.size() != 5 || shape[0] != 2 || shape[4] != 2) fail(name + " is " + shape_text(shape));
    return shape;
  }
};

CheckpointReader::CheckpointReader(const std::filesystem::path& file) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.path = file;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) s.fail("no such file or folder");
  if (!std::filesystem::is_regular_file(file, ec)) s.fail("not a file");
  s.guarded("the file", [&] {
    s.root.emplace(hdf5::open_file(file));
    return 0;
  });
  s.guarded("the header", [&] {
    const hdf5::Object& root = *s.root;
    if (!H5Aexists(root.id(), "format") || hdf5::read_string_attribute(root, "format") != kFormat)
      s.fail(std::string("not a ") + kFormat + " file");
    CheckpointHeader& h = s.header;
    h.step = hdf5::read_attribute<Index>(root, "step");
    h.steps = hdf5::read_attribute<Index>(root, "steps");
    h.precision_bits = int(hdf5::read_attribute<Index>(root, "precision_bits"));
    const std::vector<Index> cells = hdf5::read_attribute_values<Index>(root, "cells");
    if (cells.size() != 3) s.fail("its cells attribute does not hold 3 values");
    h.cells = {cells[0], cells[1], cells[2]};
    h.energy_every = hdf5::read_attribute<Index>(root, "energy_every");
    h.deck_text = read_text(root, "deck");
    h.deck_origin = read_text(root, "deck_origin");
    h.run_json = read_text(root, "run");
    if (h.precision_bits != 32 && h.precision_bits != 64)
      s.fail("precision_bits " + std::to_string(h.precision_bits) + " is neither 32 nor 64");
    if (h.step < 1 || h.step > h.steps)
      s.fail("step " + std::to_string(h.step) + " of " + std::to_string(h.steps) + " is not a step of the run");
    for (Index n : h.cells)
      if (n < 1) s.fail("its grid has a side of " + std::to_string(n) + " cells");
    return 0;
  });
}

CheckpointReader::~CheckpointReader() = default;

const CheckpointHeader& CheckpointReader::header() const { return state_->header; }
const std::filesystem::path& CheckpointReader::path() const { return state_->path; }

std::vector<float> CheckpointReader::read_field_f32(Component c) const {
  return state_->read_all<float>("fields/" + std::string(component_name(c)), state_->field_dims());
}
std::vector<double> CheckpointReader::read_field_f64(Component c) const {
  return state_->read_all<double>("fields/" + std::string(component_name(c)), state_->field_dims());
}

bool CheckpointReader::has_psi(int face) const {
  const State& s = *state_;
  return s.guarded("cpml", [&] {
    return hdf5::has_child(*s.root, "cpml") &&
           hdf5::has_child(hdf5::open_object(*s.root, "cpml"), std::string(cpml_face_name(face)));
  });
}
std::array<Index, 3> CheckpointReader::psi_shape(int face) const {
  const auto d = state_->psi_dims(face);
  return {Index(d[1]), Index(d[2]), Index(d[3])};
}
std::vector<float> CheckpointReader::read_psi_f32(int face) const {
  return state_->read_all<float>("cpml/" + std::string(cpml_face_name(face)), state_->psi_dims(face));
}
std::vector<double> CheckpointReader::read_psi_f64(int face) const {
  return state_->read_all<double>("cpml/" + std::string(cpml_face_name(face)), state_->psi_dims(face));
}

std::array<Index, 2> CheckpointReader::dispersion_shape() const {
  const State& s = *state_;
  if (!s.guarded("dispersion", [&] { return hdf5::has_child(*s.root, "dispersion"); })) return {0, 0};
  const auto shape = s.guarded("dispersion", [&] { return shape_of(hdf5::open_object(*s.root, "dispersion")); });
  if (shape.size() != 2) s.fail("dispersion is " + shape_text(shape));
  return {Index(shape[0]), Index(shape[1])};
}
std::vector<float> CheckpointReader::read_dispersion_f32() const {
  const auto d = dispersion_shape();
  return state_->read_all<float>("dispersion", {hsize_t(d[0]), hsize_t(d[1])});
}
std::vector<double> CheckpointReader::read_dispersion_f64() const {
  const auto d = dispersion_shape();
  return state_->read_all<double>("dispersion", {hsize_t(d[0]), hsize_t(d[1])});
}

std::size_t CheckpointReader::probe_series() const {
  const State& s = *state_;
  return s.guarded("probes", [&]() -> std::size_t {
    if (!hdf5::has_child(*s.root, "probes")) return 0;
    const auto dims = shape_of(hdf5::open_object(*s.root, "probes/samples"));
    if (dims.size() != 2 || Index(dims[1]) != s.header.step)
      s.fail("probes/samples is " + shape_text(dims) + ", not one series of " + std::to_string(s.header.step) +
             " samples a row");
    return std::size_t(dims[0]);
  });
}

std::vector<double> CheckpointReader::read_probe_block(Index first, Index count) const {
  const State& s = *state_;
  const std::size_t series = probe_series();
  const hdf5::Object d = s.dataset("probes/samples", {hsize_t(series), hsize_t(s.header.step)});
  std::vector<double> values(series * std::size_t(count));
  if (values.empty()) return values;
  if (first < 0 || first + count > s.header.step) s.fail("probe samples beyond the checkpoint's step");
  s.guarded("probes/samples", [&] {
    const hsize_t start[2] = {0, hsize_t(first)}, n[2] = {hsize_t(series), hsize_t(count)};
    const hdf5::Handle file_space{d.check(H5Dget_space(d.id()), "read the shape of " + d.path()), H5Sclose};
    d.check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, n, nullptr), "select samples");
    const hdf5::Handle memory{d.check(H5Screate_simple(2, n, nullptr), "create a dataspace"), H5Sclose};
    d.check(H5Dread(d.id(), H5T_NATIVE_DOUBLE, memory.get(), file_space.get(), H5P_DEFAULT, values.data()),
            "read " + d.path());
    return 0;
  });
  return values;
}

std::vector<std::pair<Index, std::vector<Component>>> CheckpointReader::snapshot_steps(const std::string& name) const {
  const State& s = *state_;
  return s.guarded("snapshots/" + name, [&] {
    std::vector<std::pair<Index, std::vector<Component>>> steps;
    const hdf5::Object snapshots = hdf5::open_object(*s.root, "snapshots");
    if (!hdf5::has_child(snapshots, name)) return steps;
    const hdf5::Object group = hdf5::open_object(snapshots, name);
    for (const std::string& step_name : hdf5::child_names(group)) {
      const hdf5::Object at = hdf5::open_object(group, step_name);
      auto& entry = steps.emplace_back(hdf5::read_attribute<Index>(at, "step"), std::vector<Component>{});
      if (step_group(entry.first) != step_name) s.fail("snapshots/" + name + "/" + step_name + " names another step");
      for (const std::string& c : hdf5::child_names(at)) {
        const auto component = parse_component(c);
        if (!component) s.fail("snapshots/" + name + "/" + step_name + " holds '" + c + "'");
        entry.second.push_back(*component);
      }
    }
    return steps;
  });
}

std::vector<double> CheckpointReader::read_snapshot(const std::string& name, Index step, Component c) const {
  const State& s = *state_;
  const std::string path = "snapshots/" + name + "/" + step_group(step) + "/" + std::string(component_name(c));
  const auto dims = s.guarded(path, [&] { return shape_of(hdf5::open_object(*s.root, path)); });
  return s.read_all<double>(path, dims);
}

std::vector<std::pair<Index, double>> CheckpointReader::read_energy() const {
  const State& s = *state_;
  if (!s.guarded("energy", [&] { return hdf5::has_child(*s.root, "energy"); })) return {};
  const auto dims = s.guarded("energy", [&] { return shape_of(hdf5::open_object(*s.root, "energy")); });
  if (dims.size() != 2 || dims[1] != 2) s.fail("energy is " + shape_text(dims));
  const std::vector<double> flat = s.read_all<double>("energy", dims);
  std::vector<std::pair<Index, double>> samples;
  for (std::size_t i = 0; i + 1 < flat.size(); i += 2) samples.emplace_back(Index(flat[i]), flat[i + 1]);
  return samples;
}

void CheckpointReader::check_matches(const std::array<Index, 3>& cells, int precision_bits,
                                     const std::vector<std::pair<int, std::array<Index, 3>>>& psi_faces,
                                     std::size_t probe_series_count, const std::vector<std::string>& snapshots) const {
  const State& s = *state_;
  const CheckpointHeader& h = s.header;
  const auto grid = [](const std::array<Index, 3>& n) {
    return std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
  };
  if (h.cells != cells) s.fail("its grid is " + grid(h.cells) + " cells, the run's " + grid(cells));
  const auto name = [](int bits) { return std::string(bits == 64 ? "f64" : "f32"); };
  if (h.precision_bits != precision_bits)
    s.fail("it holds " + name(h.precision_bits) + " fields, the run asks for " + name(precision_bits) +
           " (--precision): a run resumes in the precision it started in");
  for (Component c : kAllComponents) s.dataset("fields/" + std::string(component_name(c)), s.field_dims());
  for (int face = 0; face < 6; ++face) {
    const auto wanted =
        std::find_if(psi_faces.begin(), psi_faces.end(), [&](const auto& f) { return f.first == face; });
    const bool held = has_psi(face);
    if (wanted == psi_faces.end() && held)
      s.fail("it holds CPML on face " + std::string(cpml_face_name(face)) + ", which the run's deck does not have");
    if (wanted == psi_faces.end()) continue;
    if (!held) s.fail("it holds no CPML state for face " + std::string(cpml_face_name(face)));
    const auto d = wanted->second;
    s.dataset("cpml/" + std::string(cpml_face_name(face)), {2, hsize_t(d[0]), hsize_t(d[1]), hsize_t(d[2]), 2});
  }
  if (probe_series() != probe_series_count)
    s.fail("it holds " + std::to_string(probe_series()) + " probe series, the run has " +
           std::to_string(probe_series_count));
  s.guarded("snapshots", [&] {
    for (const std::string& held : hdf5::child_names(hdf5::open_object(*s.root, "snapshots")))
      if (std::find(snapshots.begin(), snapshots.end(), held) == snapshots.end())
        s.fail("it holds snapshot '" + held + "', which the run's deck does not ask for");
    return 0;
  });
}

}  // namespace yeex
