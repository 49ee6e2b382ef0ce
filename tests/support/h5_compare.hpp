// Two HDF5 files compared through the HDF5 C API, strictly: the same links under the same names
// in every group (hard links followed, soft and external links compared by target), the same
// attributes on every object, and for every dataset and attribute the same datatype, the same
// shape and the same bytes as stored (read without conversion, so 0.0 and -0.0 differ). A resumed
// run must reproduce the uninterrupted one bit for bit (docs/design.md, correctness contract).
// Creation order and storage layout are not compared: they do not change what a reader gets.
#pragma once

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "io/hdf5_handle.hpp"

namespace yeex::testing {

namespace h5_compare_detail {

using hdf5::Handle;
using hdf5::Object;

inline std::string type_text(hid_t type) {
  const std::string bytes = std::to_string(H5Tget_size(type)) + "-byte ";
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: return bytes + (H5Tget_sign(type) == H5T_SGN_NONE ? "unsigned " : "") + "integer";
    case H5T_FLOAT: return bytes + "float";
    case H5T_STRING: return H5Tis_variable_str(type) > 0 ? std::string("variable-length string") : bytes + "string";
    case H5T_COMPOUND: return bytes + "compound";
    case H5T_ENUM: return bytes + "enum";
    case H5T_ARRAY: return bytes + "array";
    case H5T_VLEN: return "variable-length sequence";
    default: return bytes + "value";
  }
}

// "scalar", "no data" or "3 x 4", with the maximum shape where it is another ("0 (up to unlimited)").
inline std::string shape_text(hid_t space) {
  const H5S_class_t kind = H5Sget_simple_extent_type(space);
  if (kind == H5S_SCALAR) return "scalar";
  if (kind != H5S_SIMPLE) return "no data";
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(std::size_t(std::max(rank, 0))), most(dims.size());
  H5Sget_simple_extent_dims(space, dims.data(), most.data());
  const auto join = [](const std::vector<hsize_t>& sizes) {
    std::string text;
    for (const hsize_t n : sizes)
      text += (text.empty() ? "" : " x ") + (n == H5S_UNLIMITED ? std::string("unlimited") : std::to_string(n));
    return text;
  };
  return join(dims) + (most == dims ? "" : " (up to " + join(most) + ")");
}

// Element `i` of a row-major array of shape `dims`, as "[i, j, k]".
inline std::string index_text(std::size_t i, const std::vector<hsize_t>& dims) {
  std::vector<hsize_t> index(dims.size());
  for (std::size_t d = dims.size(); d-- > 0;) {
    index[d] = i % dims[d];
    i /= dims[d];
  }
  std::string text;
  for (const hsize_t n : index) text += (text.empty() ? "" : ", ") + std::to_string(n);
  return "[" + text + "]";
}

// A number stored in the host's byte order, as the shortest text that reads back the same bits.
template <class T>
std::string number_text(const unsigned char* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof value);
  char text[32];
  return {text, std::to_chars(text, text + sizeof text, value).ptr};
}

// One stored element as a reader would see it: numbers of the host's byte order exactly,
// fixed-length strings up to their terminator, anything else as hexadecimal bytes.
inline std::string element_text(hid_t type, const unsigned char* bytes) {
  const std::size_t size = H5Tget_size(type);
  const H5T_class_t kind = H5Tget_class(type);
  const bool host_order = (H5Tget_order(type) == H5T_ORDER_LE) == (std::endian::native == std::endian::little);
  const bool is_signed = H5Tget_sign(type) != H5T_SGN_NONE;
  if (host_order && kind == H5T_FLOAT && size == 4) return number_text<float>(bytes);
  if (host_order && kind == H5T_FLOAT && size == 8) return number_text<double>(bytes);
  if (host_order && kind == H5T_INTEGER && size == 1)
    return is_signed ? number_text<std::int8_t>(bytes) : number_text<std::uint8_t>(bytes);
  if (host_order && kind == H5T_INTEGER && size == 2)
    return is_signed ? number_text<std::int16_t>(bytes) : number_text<std::uint16_t>(bytes);
  if (host_order && kind == H5T_INTEGER && size == 4)
    return is_signed ? number_text<std::int32_t>(bytes) : number_text<std::uint32_t>(bytes);
  if (host_order && kind == H5T_INTEGER && size == 8)
    return is_signed ? number_text<std::int64_t>(bytes) : number_text<std::uint64_t>(bytes);
  if (kind == H5T_STRING)
    return "\"" +
           std::string(reinterpret_cast<const char*>(bytes), strnlen(reinterpret_cast<const char*>(bytes), size)) +
           "\"";
  std::string hex = "0x";
  for (std::size_t b = 0; b < size; ++b) {
    char digits[3];
    std::snprintf(digits, sizeof digits, "%02x", bytes[b]);
    hex += digits;
  }
  return hex;
}

// A dataset's or an attribute's stored values: their type, their shape, and how to read them.
struct Stored {
  Handle type, space;
  std::function<void(hid_t memory_type, void* data)> read;
};

inline Stored stored_dataset(const Object& dataset) {
  const std::string& path = dataset.path();
  return {Handle{dataset.check(H5Dget_type(dataset.id()), "read the type of " + path), H5Tclose},
          Handle{dataset.check(H5Dget_space(dataset.id()), "read the shape of " + path), H5Sclose},
          [&dataset](hid_t type, void* data) {
            dataset.check(H5Dread(dataset.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "read " + dataset.path());
          }};
}

inline Stored stored_attribute(const Object& object, const Handle& attribute, const std::string& path) {
  return {Handle{object.check(H5Aget_type(attribute.get()), "read the type of " + path), H5Tclose},
          Handle{object.check(H5Aget_space(attribute.get()), "read the shape of " + path), H5Sclose},
          [&object, &attribute, path](hid_t type, void* data) {
            object.check(H5Aread(attribute.get(), type, data), "read " + path);
          }};
}

// The file itself stands for its root group.
inline H5I_type_t kind_of(const Object& object) {
  const H5I_type_t kind = H5Iget_type(object.id());
  return kind == H5I_FILE ? H5I_GROUP : kind;
}

inline std::string kind_text(H5I_type_t kind) {
  return kind == H5I_GROUP      ? "group"
         : kind == H5I_DATASET  ? "dataset"
         : kind == H5I_DATATYPE ? "named datatype"
                                : "object";
}

// The names an HDF5 iteration in name order (H5Literate over links, H5Aiterate2 over attributes)
// gives, sorted.
template <class Info, class Iterate>
std::vector<std::string> sorted_names(const Object& object, Iterate iterate, const std::string& action) {
  std::vector<std::string> names;
  const auto collect = [](hid_t, const char* name, const Info*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->push_back(name);
    return 0;
  };
  object.check(iterate(object.id(), H5_INDEX_NAME, H5_ITER_INC, nullptr, +collect, &names), action);
  std::ranges::sort(names);
  return names;
}

// A link's kind and, for a soft or an external link, its stored target.
inline std::pair<H5L_type_t, std::string> link_of(const Object& group, const std::string& name) {
  H5L_info_t info{};
  group.check(H5Lget_info(group.id(), name.c_str(), &info, H5P_DEFAULT), "read link " + group.child_path(name));
  if (info.type == H5L_TYPE_HARD) return {info.type, ""};
  std::string target(info.u.val_size, '\0');
  group.check(H5Lget_val(group.id(), name.c_str(), target.data(), target.size(), H5P_DEFAULT),
              "read link " + group.child_path(name));
  return {info.type, target};
}

// The names in either sorted list, each with whether `a` and `b` hold it.
inline void for_each_name(const std::vector<std::string>& a, const std::vector<std::string>& b,
                          const std::function<void(const std::string&, bool in_a, bool in_b)>& visit) {
  std::vector<std::string> all;
  std::ranges::set_union(a, b, std::back_inserter(all));
  for (const std::string& name : all)
    visit(name, std::ranges::binary_search(a, name), std::ranges::binary_search(b, name));
}

class Comparison {
 public:
  explicit Comparison(std::size_t most) : most_(most) {}

  const std::vector<std::string>& differences() const { return differences_; }
  bool full() const { return differences_.size() >= most_; }
  void note(const std::string& path, const std::string& what) {
    if (!full()) differences_.push_back(path.empty() ? what : path + ": " + what);
  }

  // Two objects under the same path: their kind, their attributes, then what the kind holds.
  void objects(const Object& a, const Object& b, int depth) {
    const H5I_type_t kind = kind_of(a);
    if (kind != kind_of(b)) return note(a.path(), "a " + kind_text(kind) + " against a " + kind_text(kind_of(b)));
    attributes(a, b);
    if (kind == H5I_GROUP && depth >= kMaxDepth)
      note(a.path(), "nested deeper than " + std::to_string(kMaxDepth) + " groups (a cycle of hard links?)");
    else if (kind == H5I_GROUP)
      members(a, b, depth);
    else if (kind == H5I_DATASET)
      values(a.path(), stored_dataset(a), stored_dataset(b));
    else if (kind == H5I_DATATYPE && H5Tequal(a.id(), b.id()) <= 0)
      note(a.path(), "datatype " + type_text(a.id()) + " against " + type_text(b.id()));
  }

 private:
  static constexpr int kMaxDepth = 64;

  void members(const Object& a, const Object& b, int depth) {
    for_each_name(sorted_names<H5L_info_t>(a, H5Literate, "list group " + a.path()),
                  sorted_names<H5L_info_t>(b, H5Literate, "list group " + b.path()),
                  [&](const std::string& name, bool in_a, bool in_b) {
                    const std::string path = a.child_path(name);
                    if (full()) return;
                    if (!in_a || !in_b) return note(path, in_a ? "only in the first file" : "only in the second file");
                    const auto link_a = link_of(a, name), link_b = link_of(b, name);
                    if (link_a != link_b) return note(path, "the links differ (their kind or target)");
                    if (link_a.first == H5L_TYPE_HARD)
                      objects(hdf5::open_object(a, name), hdf5::open_object(b, name), depth + 1);
                  });
  }

  void attributes(const Object& a, const Object& b) {
    for_each_name(
        sorted_names<H5A_info_t>(a, H5Aiterate2, "list the attributes of " + a.path()),
        sorted_names<H5A_info_t>(b, H5Aiterate2, "list the attributes of " + b.path()),
        [&](const std::string& name, bool in_a, bool in_b) {
          const std::string path = a.path() + " attribute " + name;
          if (full()) return;
          if (!in_a || !in_b) return note(path, in_a ? "only in the first file" : "only in the second file");
          const Handle attribute_a{a.check(H5Aopen(a.id(), name.c_str(), H5P_DEFAULT), "open " + path), H5Aclose};
          const Handle attribute_b{b.check(H5Aopen(b.id(), name.c_str(), H5P_DEFAULT), "open " + path), H5Aclose};
          values(path, stored_attribute(a, attribute_a, path), stored_attribute(b, attribute_b, path));
        });
  }

  // Datatype, shape, then the stored bytes, read in the file's own type (no conversion): the
  // first element that differs and how many do.
  void values(const std::string& path, const Stored& a, const Stored& b) {
    const hid_t type = a.type.get();
    if (H5Tequal(type, b.type.get()) <= 0)
      return note(path, "datatype " + type_text(type) + " against " + type_text(b.type.get()));
    const std::string shape = shape_text(a.space.get());
    if (shape != shape_text(b.space.get()))
      return note(path, "shape " + shape + " against " + shape_text(b.space.get()));
    if (H5Tdetect_class(type, H5T_VLEN) > 0 || H5Tis_variable_str(type) > 0)
      return note(path, "holds variable-length values, which this comparison does not read");
    const hssize_t count = H5Sget_simple_extent_npoints(a.space.get());
    const std::size_t size = H5Tget_size(type);
    if (count <= 0 || size == 0) return;
    std::vector<unsigned char> x(std::size_t(count) * size), y(x.size());
    a.read(type, x.data());
    b.read(type, y.data());
    if (x == y) return;
    std::size_t first = 0, differing = 0;
    for (std::size_t i = std::size_t(count); i-- > 0;)
      if (std::memcmp(&x[i * size], &y[i * size], size) != 0) first = i, ++differing;
    const std::string values =
        element_text(type, &x[first * size]) + " against " + element_text(type, &y[first * size]);
    std::vector<hsize_t> dims(std::size_t(std::max(H5Sget_simple_extent_ndims(a.space.get()), 0)));
    if (dims.empty()) return note(path, "value " + values);
    H5Sget_simple_extent_dims(a.space.get(), dims.data(), nullptr);
    note(path, "values differ at " + index_text(first, dims) + ": " + values + " (" + std::to_string(differing) +
                   " of " + std::to_string(count) + " elements differ)");
  }

  std::size_t most_;
  std::vector<std::string> differences_;
};

}  // namespace h5_compare_detail

// The first `most` differences between HDF5 files `a` and `b`, each "PATH: what differs" (PATH
// the object's path in the files, with " attribute NAME" for an attribute); empty when they hold
// the same. A file that cannot be read is one difference naming it and HDF5's reason.
inline std::vector<std::string> h5_differences(const std::filesystem::path& a, const std::filesystem::path& b,
                                               std::size_t most = 8) {
  h5_compare_detail::Comparison comparison(most);
  try {
    comparison.objects(hdf5::open_file(a), hdf5::open_file(b), 0);
  } catch (const std::exception& e) {
    comparison.note("", e.what());
  }
  return comparison.differences();
}

}  // namespace yeex::testing
