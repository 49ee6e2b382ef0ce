#include "io/probe_writer.hpp"

#include <ranges>
#include <stdexcept>
#include <string_view>

#include "io/atomic_file.hpp"
#include "io/hdf5_handle.hpp"

namespace yeex {
namespace {

constexpr const char* kFormat = "yeex-probes-1";

std::string units_of(Component c) { return is_electric(c) ? "V/m" : "A/m"; }

// Leapfrog: sample n of an E series is taken at (n+1) dt, of an H series at (n+1/2) dt.
double time_of_first_sample(Component c, double dt) { return is_electric(c) ? dt : 0.5 * dt; }

std::string join_names(const std::vector<Component>& components) {
  std::string list;
  for (Component c : components) {
    if (!list.empty()) list += ',';
    list += component_name(c);
  }
  return list;
}

std::vector<Component> parse_names(const std::string& list, const hdf5::Object& where) {
  std::vector<Component> components;
  for (const auto part : std::views::split(list, ',')) {
    const auto c = parse_component(std::string_view(part.begin(), part.end()));
    if (!c) where.fail("parse components \"" + list + "\" of " + where.path());
    components.push_back(*c);
  }
  return components;
}

template <class T>
std::array<T, 3> read_triple(const hdf5::Object& object, const std::string& name) {
  const std::vector<T> values = hdf5::read_attribute_values<T>(object, name);
  if (values.size() != 3) object.fail("read attribute " + name + " of " + object.path() + " as 3 values");
  return {values[0], values[1], values[2]};
}

void check_record(const ProbeRecord& probe, Index steps) {
  const bool bad_name = probe.name.empty() || probe.name == "." || probe.name.find('/') != std::string::npos;
  if (bad_name) throw std::invalid_argument("probe name \"" + probe.name + "\" cannot name an HDF5 group");
  if (probe.series.size() != probe.components.size())
    throw std::invalid_argument("probe " + probe.name + ": one series per component expected");
  for (const auto& series : probe.series)
    if (Index(series.size()) != steps)
      throw std::invalid_argument("probe " + probe.name + ": series of " + std::to_string(series.size()) +
                                  " samples for " + std::to_string(steps) + " steps");
}

void write_probe(const hdf5::Object& probes, const ProbeRecord& probe, const ProbeFile& file) {
  check_record(probe, file.steps);
  const hdf5::Object group = hdf5::create_group(probes, probe.name);
  hdf5::write_attribute(group, "position", probe.position, {3});
  hdf5::write_attribute(group, "node", probe.node, {3});
  hdf5::write_attribute(group, "components", join_names(probe.components));

  std::vector<double> positions;  // each component at its own staggered point of the Yee cell
  for (Component c : probe.components)
    for (int d = 0; d < 3; ++d) positions.push_back((double(probe.node[d]) + stagger(c)[d]) * file.cell_size[d]);
  hdf5::write_attribute(group, "component_positions", positions, {probe.components.size(), 3});

  for (std::size_t i = 0; i < probe.components.size(); ++i) {
    const Component c = probe.components[i];
    const hdf5::Object dataset =
        hdf5::write_dataset<double>(group, std::string(component_name(c)), probe.series[i], {hsize_t(file.steps)});
    hdf5::write_attribute(dataset, "units", units_of(c));
    hdf5::write_attribute(dataset, "time_offset", time_of_first_sample(c, file.dt));
  }
}

void write_contents(const hdf5::Object& root, const ProbeFile& file) {
  hdf5::write_attribute(root, "title", file.title);
  hdf5::write_attribute(root, "dt", file.dt);
  hdf5::write_attribute(root, "steps", file.steps);
  hdf5::write_attribute(root, "cell_size", file.cell_size, {3});
  hdf5::write_attribute(root, "time_units", std::string("s"));
  hdf5::write_attribute(root, "e_units", units_of(Component::Ex));
  hdf5::write_attribute(root, "h_units", units_of(Component::Hx));
  hdf5::write_attribute(root, "format", std::string(kFormat));
  const hdf5::Object probes = hdf5::create_group(root, "probes");
  for (const ProbeRecord& probe : file.probes) write_probe(probes, probe, file);
}

}  // namespace

void write_probe_file(const std::filesystem::path& path, const ProbeFile& file) {
  AtomicFile atomic(path);
  hdf5::Object root = hdf5::create_file(atomic.temporary_path());
  write_contents(root, file);
  root.close();
  atomic.commit();
}

ProbeFile read_probe_file(const std::filesystem::path& path) {
  const hdf5::Object root = hdf5::open_file(path);
  if (hdf5::read_string_attribute(root, "format") != kFormat)
    throw std::runtime_error(path.string() + " is not a " + kFormat + " file");

  ProbeFile file;
  file.title = hdf5::read_string_attribute(root, "title");
  file.dt = hdf5::read_attribute<double>(root, "dt");
  file.steps = hdf5::read_attribute<Index>(root, "steps");
  file.cell_size = read_triple<double>(root, "cell_size");

  const hdf5::Object probes = hdf5::open_object(root, "probes");
  for (const std::string& name : hdf5::child_names(probes)) {
    const hdf5::Object group = hdf5::open_object(probes, name);
    ProbeRecord& probe = file.probes.emplace_back();
    probe.name = name;
    probe.position = read_triple<double>(group, "position");
    probe.node = read_triple<Index>(group, "node");
    probe.components = parse_names(hdf5::read_string_attribute(group, "components"), group);
    for (Component c : probe.components)
      probe.series.push_back(hdf5::read_dataset(hdf5::open_object(group, std::string(component_name(c)))));
  }
  return file;
}

}  // namespace yeex
