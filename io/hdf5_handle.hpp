// A thin RAII layer over the HDF5 C API, private to io/ (probe and snapshot writers).
//
// Every identifier closes itself, and every failure throws std::runtime_error naming the file,
// the object and the system's reason where HDF5 recorded one ("HDF5: cannot write dataset
// /probes/rx/Ez in out/probes.h5: File too large"). HDF5's own error-stack printing is switched
// off so that the exception is the only report, and HDF5 does not clean up at exit: after a
// failed H5Fclose (a full disk) its clean-up would touch the half-closed file and crash, and
// every file yeex writes is closed, or abandoned with the staging folder, before the end.
// Only the HDF5 1.10 API is used.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace yeex::hdf5 {

namespace detail {

// Before the first other HDF5 call (it initialises the library).
inline void start_library() {
  static const bool started = [] {
    H5dont_atexit();
    return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  }();
  (void)started;
}

// The system's reason HDF5 recorded for the failure just seen ("error message = '...'" in the
// description of a failed system call), else the innermost error's own words; the error stack is
// cleared.
inline std::string failure_reason() {
  struct Found {
    std::string system, innermost;
  } found;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* error, void* data) -> herr_t {
        auto& f = *static_cast<Found*>(data);
        const std::string text = error->desc ? error->desc : "";
        if (f.innermost.empty()) f.innermost = text.substr(0, text.find(','));
        const std::string key = "error message = '";
        if (const auto at = text.find(key); at != std::string::npos && f.system.empty())
          f.system = text.substr(at + key.size(), text.find('\'', at + key.size()) - at - key.size());
        return 0;
      },
      &found);
  H5Eclear2(H5E_DEFAULT);
  return found.system.empty() ? found.innermost : found.system;
}

}  // namespace detail

// Owns one hid_t and releases it with the matching H5?close function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
  Handle& operator=(Handle&& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(closer_, other.closer_);
    return *this;
  }
  ~Handle() { close(); }

  hid_t get() const { return id_; }
  // Releases now; false when HDF5 reports a failure (closing a file flushes it, which can fail).
  bool close() {
    const hid_t id = std::exchange(id_, H5I_INVALID_HID);
    return id < 0 || closer_(id) >= 0;
  }

 private:
  hid_t id_;
  Closer closer_;
};

// An open file, group or dataset, with the names error messages need.
class Object {
 public:
  Object(Handle handle, std::string file, std::string path)
      : handle_(std::move(handle)), file_(std::move(file)), path_(std::move(path)) {}

  hid_t id() const { return handle_.get(); }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  std::string child_path(const std::string& name) const { return (path_ == "/" ? "/" : path_ + "/") + name; }

  [[noreturn]] void fail(const std::string& action) const {
    const std::string reason = detail::failure_reason();
    throw std::runtime_error("HDF5: cannot " + action + " in " + file_ + (reason.empty() ? "" : ": " + reason));
  }
  // Returns `status`, or throws when HDF5 reported a failure (a negative id or herr_t).
  template <class Status>
  Status check(Status status, const std::string& action) const {
    if (status < 0) fail(action);
    return status;
  }
  void close() {  // a file's close writes what HDF5 still holds: where a full disk shows
    if (!handle_.close()) fail(path_ == "/" ? std::string("write and close the file") : "close " + path_);
  }

 private:
  Handle handle_;
  std::string file_;
  std::string path_;
};

namespace detail {

template <class T>
hid_t memory_type() {
  if constexpr (std::is_same_v<T, double>)
    return H5T_NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, float>)
    return H5T_NATIVE_FLOAT;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return H5T_NATIVE_INT64;
  else
    static_assert(sizeof(T) == 0, "unsupported HDF5 element type");
}

template <class T>
hid_t file_type() {
  if constexpr (std::is_same_v<T, double>)
    return H5T_IEEE_F64LE;
  else if constexpr (std::is_same_v<T, float>)
    return H5T_IEEE_F32LE;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return H5T_STD_I64LE;
  else
    static_assert(sizeof(T) == 0, "unsupported HDF5 element type");
}

// Scalar when `dims` is empty.
inline Handle dataspace(const Object& where, const std::vector<hsize_t>& dims, const std::string& what) {
  const hid_t id = dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  return {where.check(id, "create the dataspace of " + what), H5Sclose};
}

inline Handle string_type(const Object& where, std::size_t length, const std::string& what) {
  Handle type{where.check(H5Tcopy(H5T_C_S1), "create the string type of " + what), H5Tclose};
  where.check(H5Tset_size(type.get(), length + 1), "size the string type of " + what);  // + terminator
  return type;
}

inline void write_attribute(const Object& object, const std::string& name, hid_t stored_type, hid_t memory_type,
                            const void* data, const std::vector<hsize_t>& dims) {
  const std::string what = "attribute " + name + " of " + object.path();
  const Handle space = dataspace(object, dims, what);
  const Handle attribute{
      object.check(H5Acreate2(object.id(), name.c_str(), stored_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                   "create " + what),
      H5Aclose};
  object.check(H5Awrite(attribute.get(), memory_type, data), "write " + what);
}

inline Handle open_attribute(const Object& object, const std::string& name) {
  return {
      object.check(H5Aopen(object.id(), name.c_str(), H5P_DEFAULT), "open attribute " + name + " of " + object.path()),
      H5Aclose};
}

}  // namespace detail

inline Object create_file(const std::filesystem::path& path) {
  detail::start_library();
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw std::runtime_error("HDF5: cannot create file " + path.string() + ": " + detail::failure_reason());
  return {Handle{id, H5Fclose}, path.string(), "/"};
}

inline Object open_file(const std::filesystem::path& path) {
  detail::start_library();
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw std::runtime_error("HDF5: cannot open file " + path.string() + ": " + detail::failure_reason());
  return {Handle{id, H5Fclose}, path.string(), "/"};
}

// Groups remember the order their members were created in (see child_names).
inline Object create_group(const Object& parent, const std::string& name) {
  const std::string path = parent.child_path(name);
  const Handle properties{parent.check(H5Pcreate(H5P_GROUP_CREATE), "create properties for group " + path), H5Pclose};
  parent.check(H5Pset_link_creation_order(properties.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track creation order in group " + path);
  const hid_t id = H5Gcreate2(parent.id(), name.c_str(), H5P_DEFAULT, properties.get(), H5P_DEFAULT);
  return {Handle{parent.check(id, "create group " + path), H5Gclose}, parent.file(), path};
}

// Opens a group or a dataset.
inline Object open_object(const Object& parent, const std::string& name) {
  const std::string path = parent.child_path(name);
  const hid_t id = H5Oopen(parent.id(), name.c_str(), H5P_DEFAULT);
  return {Handle{parent.check(id, "open " + path), H5Oclose}, parent.file(), path};
}

inline bool has_child(const Object& parent, const std::string& name) {
  return parent.check(H5Lexists(parent.id(), name.c_str(), H5P_DEFAULT), "look up " + parent.child_path(name)) > 0;
}

// Names of the members of a group made by create_group, in creation order.
inline std::vector<std::string> child_names(const Object& group) {
  H5G_info_t info{};
  group.check(H5Gget_info(group.id(), &info), "list group " + group.path());
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const auto name_of = [&](char* buffer, std::size_t size) {
      return group.check(
          H5Lget_name_by_idx(group.id(), ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, buffer, size, H5P_DEFAULT),
          "list group " + group.path());
    };
    std::string name(std::size_t(name_of(nullptr, 0)) + 1, '\0');
    name.resize(std::size_t(name_of(name.data(), name.size())));
    names.push_back(std::move(name));
  }
  return names;
}

// Attributes: strings, numbers, and arrays of numbers of any shape (`dims`, row-major).
inline void write_attribute(const Object& object, const std::string& name, const std::string& value) {
  const Handle type = detail::string_type(object, value.size(), "attribute " + name + " of " + object.path());
  detail::write_attribute(object, name, type.get(), type.get(), value.c_str(), {});
}

template <class T>
requires std::is_arithmetic_v<T>
void write_attribute(const Object& object, const std::string& name, T value) {
  detail::write_attribute(object, name, detail::file_type<T>(), detail::memory_type<T>(), &value, {});
}

template <std::ranges::contiguous_range Values>
void write_attribute(const Object& object, const std::string& name, const Values& values, std::vector<hsize_t> dims) {
  using T = std::ranges::range_value_t<Values>;
  detail::write_attribute(object, name, detail::file_type<T>(), detail::memory_type<T>(), std::ranges::data(values),
                          dims);
}

inline std::string read_string_attribute(const Object& object, const std::string& name) {
  const Handle attribute = detail::open_attribute(object, name);
  const std::string what = "attribute " + name + " of " + object.path();
  const Handle type{object.check(H5Aget_type(attribute.get()), "read the type of " + what), H5Tclose};
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) != 0)
    object.fail("read " + what + " as a fixed-length string");
  std::string value(H5Tget_size(type.get()), '\0');
  object.check(H5Aread(attribute.get(), type.get(), value.data()), "read " + what);
  return value.c_str();  // drops the terminator and any padding
}

// All values of a numeric attribute, flattened, converted to T.
template <class T>
std::vector<T> read_attribute_values(const Object& object, const std::string& name) {
  const Handle attribute = detail::open_attribute(object, name);
  const std::string what = "attribute " + name + " of " + object.path();
  const Handle space{object.check(H5Aget_space(attribute.get()), "read the shape of " + what), H5Sclose};
  std::vector<T> values(std::size_t(object.check(H5Sget_simple_extent_npoints(space.get()), "size " + what)));
  object.check(H5Aread(attribute.get(), detail::memory_type<T>(), values.data()), "read " + what);
  return values;
}

template <class T>
T read_attribute(const Object& object, const std::string& name) {
  const std::vector<T> values = read_attribute_values<T>(object, name);
  if (values.size() != 1) object.fail("read attribute " + name + " of " + object.path() + " as a scalar");
  return values.front();
}

// Creates a contiguous dataset of shape `dims` holding `values` stored as `Stored` (HDF5
// converts when the element types differ).
template <class Stored, std::ranges::contiguous_range Values>
Object write_dataset(const Object& parent, const std::string& name, const Values& values,
                     const std::vector<hsize_t>& dims) {
  using T = std::ranges::range_value_t<Values>;
  const std::string path = parent.child_path(name);
  const Handle space = detail::dataspace(parent, dims, "dataset " + path);
  const hid_t id = H5Dcreate2(parent.id(), name.c_str(), detail::file_type<Stored>(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT);
  Object dataset{Handle{parent.check(id, "create dataset " + path), H5Dclose}, parent.file(), path};
  if (!std::ranges::empty(values))
    dataset.check(
        H5Dwrite(dataset.id(), detail::memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, std::ranges::data(values)),
        "write dataset " + path);
  return dataset;
}

// An empty 1-D dataset of `Stored` that grows by append_to_dataset, stored in chunks of `chunk`
// values, without a chunk cache: appends of whole chunks go straight to the file, so that many
// open datasets hold no memory beyond their handles.
template <class Stored>
Object create_growing_dataset(const Object& parent, const std::string& name, hsize_t chunk) {
  const std::string path = parent.child_path(name);
  const hsize_t none = 0, unlimited = H5S_UNLIMITED;
  const Handle space{parent.check(H5Screate_simple(1, &none, &unlimited), "create the dataspace of dataset " + path),
                     H5Sclose};
  const Handle create{parent.check(H5Pcreate(H5P_DATASET_CREATE), "create properties for dataset " + path), H5Pclose};
  parent.check(H5Pset_chunk(create.get(), 1, &chunk), "set the chunks of dataset " + path);
  const Handle access{parent.check(H5Pcreate(H5P_DATASET_ACCESS), "create properties for dataset " + path), H5Pclose};
  parent.check(H5Pset_chunk_cache(access.get(), 0, 0, 1.0), "set the chunk cache of dataset " + path);
  const hid_t id = H5Dcreate2(parent.id(), name.c_str(), detail::file_type<Stored>(), space.get(), H5P_DEFAULT,
                              create.get(), access.get());
  return {Handle{parent.check(id, "create dataset " + path), H5Dclose}, parent.file(), path};
}

// Grows a dataset of create_growing_dataset to `at` + values.size() values and writes `values`
// from index `at`.
template <class T>
void append_to_dataset(const Object& dataset, hsize_t at, std::span<const T> values) {
  const std::string what = "dataset " + dataset.path();
  const hsize_t count = values.size(), end = at + count;
  dataset.check(H5Dset_extent(dataset.id(), &end), "extend " + what);
  const Handle file_space{dataset.check(H5Dget_space(dataset.id()), "read the shape of " + what), H5Sclose};
  dataset.check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &at, nullptr, &count, nullptr),
                "select samples of " + what);
  const Handle memory_space = detail::dataspace(dataset, {count}, what);
  dataset.check(H5Dwrite(dataset.id(), detail::memory_type<T>(), memory_space.get(), file_space.get(), H5P_DEFAULT,
                         values.data()),
                "write " + what);
}

// All values of a dataset, flattened (row-major), converted to double.
inline std::vector<double> read_dataset(const Object& dataset) {
  const Handle space{dataset.check(H5Dget_space(dataset.id()), "read the shape of dataset " + dataset.path()),
                     H5Sclose};
  const hssize_t count = dataset.check(H5Sget_simple_extent_npoints(space.get()), "size dataset " + dataset.path());
  std::vector<double> values(std::size_t(count), 0.0);
  if (count > 0)
    dataset.check(H5Dread(dataset.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  "read dataset " + dataset.path());
  return values;
}

}  // namespace yeex::hdf5
