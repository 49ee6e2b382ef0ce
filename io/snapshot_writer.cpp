#include "io/snapshot_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/hdf5_handle.hpp"

namespace yeex {
namespace {

constexpr const char* kFormat = "yeex-snapshot-1";

std::string units_of(Component c) { return is_electric(c) ? "V/m" : "A/m"; }

// Leapfrog (kernels/yee_stencil.hpp): a step advances H from n-1/2 to n+1/2, then E from n to
// n+1, so after n steps E is known at n dt and H at (n - 1/2) dt.
double time_after(Index step, Component c, double dt) { return (double(step) - (is_electric(c) ? 0.0 : 0.5)) * dt; }

std::string step_group(Index step) {
  char name[32];
  std::snprintf(name, sizeof name, "step_%08lld", static_cast<long long>(step));
  return name;
}

std::string number(double value) {  // shortest text that reads back to the same double
  char text[32];
  return {text, std::to_chars(text, text + sizeof text, value).ptr};
}

std::string xml_escape(std::string_view text) {
  std::string escaped;
  for (char ch : text) {
    switch (ch) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += ch;
    }
  }
  return escaped;
}

// XDMF lists vectors z first, to match "nz ny nx" dimensions.
std::string zyx_item(const char* name, const Vec3& v) {
  return std::string("<DataItem Name=\"") + name + "\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" " +
         "Format=\"XML\">" + number(v[2]) + " " + number(v[1]) + " " + number(v[0]) + "</DataItem>";
}

struct WrittenStep {
  Index step;
  double time;
  std::vector<Component> components;
};

}  // namespace

struct SnapshotWriter::State {
  State(const std::filesystem::path& directory, std::string name_, SnapshotGeometry geometry_,
        std::vector<Component> components_, int precision_bits_)
      : name(std::move(name_)),
        geometry(geometry_),
        components(std::move(components_)),
        precision_bits(precision_bits_),
        xdmf_path(directory / (name + ".xdmf")),
        h5(directory / (name + ".h5")),
        file(hdf5::create_file(h5.temporary_path())) {
    write_file_attributes();
  }

  void write_file_attributes() const;
  template <class T>
  void write(Index step, Component component, std::span<const T> data);
  std::string xdmf_text() const;

  std::string name;
  SnapshotGeometry geometry;
  std::vector<Component> components;
  int precision_bits;
  std::filesystem::path xdmf_path;
  AtomicFile h5;
  hdf5::Object file;  // declared after h5: closed before h5 removes an uncommitted temporary
  std::vector<WrittenStep> steps;
  bool finished = false;  // commit() was called (whether or not it succeeded)
};

void SnapshotWriter::State::write_file_attributes() const {
  hdf5::write_attribute(file, "format", std::string(kFormat));
  hdf5::write_attribute(file, "dt", geometry.dt);
  hdf5::write_attribute(file, "cell_size", geometry.spacing, {3});
  hdf5::write_attribute(file, "origin", geometry.origin, {3});
  const auto axis = geometry.plane_axis;
  hdf5::write_attribute(file, "plane_axis", axis ? std::string(1, "xyz"[*axis]) : std::string("none"));
  hdf5::write_attribute(file, "time_units", std::string("s"));
  hdf5::write_attribute(file, "e_units", units_of(Component::Ex));
  hdf5::write_attribute(file, "h_units", units_of(Component::Hx));
}

template <class T>
void SnapshotWriter::State::write(Index step, Component component, std::span<const T> data) {
  const std::string where = "snapshot " + name + ", step " + std::to_string(step) + ": ";
  if (finished) throw std::logic_error(where + "write after commit()");
  if (std::ranges::find(components, component) == components.end())
    throw std::invalid_argument(where + std::string(component_name(component)) + " was not requested");
  const auto [nx, ny, nz] = geometry.dims;
  if (Index(data.size()) != nx * ny * nz)
    throw std::invalid_argument(where + std::to_string(data.size()) + " values for " + std::to_string(nx * ny * nz) +
                                " nodes");
  if (!steps.empty() && step < steps.back().step) throw std::invalid_argument(where + "steps must not decrease");

  const bool new_step = steps.empty() || steps.back().step != step;
  const hdf5::Object group =
      new_step ? hdf5::create_group(file, step_group(step)) : hdf5::open_object(file, step_group(step));
  if (new_step) {
    const double time = double(step) * geometry.dt;
    hdf5::write_attribute(group, "step", step);
    hdf5::write_attribute(group, "time", time);
    steps.push_back({step, time, {}});
  }
  const std::string name(component_name(component));
  const std::vector<hsize_t> shape{hsize_t(nz), hsize_t(ny), hsize_t(nx)};  // x fastest
  const hdf5::Object dataset = precision_bits == 32 ? hdf5::write_dataset<float>(group, name, data, shape)
                                                    : hdf5::write_dataset<double>(group, name, data, shape);
  Vec3 stagger_metres{};
  for (int d = 0; d < 3; ++d) stagger_metres[d] = stagger(component)[d] * geometry.spacing[d];
  hdf5::write_attribute(dataset, "units", units_of(component));
  hdf5::write_attribute(dataset, "time", time_after(step, component, geometry.dt));
  hdf5::write_attribute(dataset, "stagger", stagger_metres, {3});
  steps.back().components.push_back(component);
}

std::string SnapshotWriter::State::xdmf_text() const {
  const auto [nx, ny, nz] = geometry.dims;
  const std::string dims = std::to_string(nz) + " " + std::to_string(ny) + " " + std::to_string(nx);
  const std::string h5_name = xml_escape(h5.final_path().filename().string());
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" ?>\n"
      << "<Xdmf Version=\"3.0\">\n"
      << "  <Domain>\n"
      << "    <Grid Name=\"" << xml_escape(name) << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const WrittenStep& written : steps) {
    const std::string group = step_group(written.step);
    xml << "      <Grid Name=\"" << group << "\" GridType=\"Uniform\">\n"
        << "        <Time Value=\"" << number(written.time) << "\"/>\n"
        << "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << dims << "\"/>\n"
        << "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
        << "          " << zyx_item("Origin", geometry.origin) << "\n"
        << "          " << zyx_item("Spacing", geometry.spacing) << "\n"
        << "        </Geometry>\n";
    for (Component c : written.components)
      xml << "        <Attribute Name=\"" << component_name(c) << "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
          << "          <DataItem Dimensions=\"" << dims << "\" NumberType=\"Float\" Precision=\"" << precision_bits / 8
          << "\" Format=\"HDF\">" << h5_name << ":/" << group << "/" << component_name(c) << "</DataItem>\n"
          << "        </Attribute>\n";
    xml << "      </Grid>\n";
  }
  xml << "    </Grid>\n"
      << "  </Domain>\n"
      << "</Xdmf>\n";
  return xml.str();
}

SnapshotWriter::SnapshotWriter(std::filesystem::path directory, std::string name, SnapshotGeometry geometry,
                               std::vector<Component> components, int precision_bits) {
  if (precision_bits != 32 && precision_bits != 64)
    throw std::invalid_argument("snapshot " + name + ": precision must be 32 or 64 bits, not " +
                                std::to_string(precision_bits));
  if (!(geometry.dt > 0) || !std::isfinite(geometry.dt))
    throw std::invalid_argument("snapshot " + name + ": dt must be a positive number of seconds");
  if (geometry.plane_axis && (*geometry.plane_axis < 0 || *geometry.plane_axis > 2))
    throw std::invalid_argument("snapshot " + name + ": plane axis must be 0, 1 or 2");
  state_ = std::make_unique<State>(directory, std::move(name), geometry, std::move(components), precision_bits);
}

SnapshotWriter::~SnapshotWriter() = default;

void SnapshotWriter::write(Index step, Component component, std::span<const float> data) {
  state_->write(step, component, data);
}

void SnapshotWriter::write(Index step, Component component, std::span<const double> data) {
  state_->write(step, component, data);
}

// The .h5 goes into place first, so an .xdmf never names a file that is not there.
void SnapshotWriter::commit() {
  State& s = *state_;
  if (s.finished) throw std::logic_error("snapshot " + s.name + ": commit() called twice");
  s.finished = true;
  s.file.close();
  s.h5.commit();
  write_text_atomically(s.xdmf_path, s.xdmf_text());
}

std::filesystem::path SnapshotWriter::h5_path() const { return state_->h5.final_path(); }
std::filesystem::path SnapshotWriter::xdmf_path() const { return state_->xdmf_path; }

const SnapshotGeometry& SnapshotWriter::geometry() const { return state_->geometry; }

std::vector<std::pair<Index, std::vector<Component>>> SnapshotWriter::written() const {
  std::vector<std::pair<Index, std::vector<Component>>> steps;
  for (const WrittenStep& w : state_->steps) steps.emplace_back(w.step, w.components);
  return steps;
}

std::vector<double> SnapshotWriter::read(Index step, Component component) const {
  return hdf5::read_dataset(
      hdf5::open_object(state_->file, step_group(step) + "/" + std::string(component_name(component))));
}

std::vector<double> read_snapshot_dataset(const std::filesystem::path& h5, Index step, Component component) {
  const hdf5::Object file = hdf5::open_file(h5);
  return hdf5::read_dataset(hdf5::open_object(file, step_group(step) + "/" + std::string(component_name(component))));
}

}  // namespace yeex
