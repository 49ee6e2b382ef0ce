// [[material]] and [[geometry]], and the checks of the materials the model is made of: stability in
// the fastest, and every update coefficient in float32 (io/deck_sections.hpp).
#include <cmath>

#include "io/deck_sections.hpp"

namespace yeex {
namespace deck_detail {
namespace {

bool is_normal_float(double value) {
  return value == 0 || (std::abs(value) >= kFloatMin && std::abs(value) <= kFloatMax);
}

ShapeKind parse_shape(const TableReader& entry) {
  const auto shape = entry.get_or<std::string>("shape", "box");
  const auto it = std::find(kShapeNames.begin(), kShapeNames.end(), shape);
  if (it == kShapeNames.end())
    throw DeckError(entry.key_path("shape"),
                    "unknown shape " + in_quotes(shape) + " (expected one of: " + join(kShapeNames) + ")");
  return static_cast<ShapeKind>(it - kShapeNames.begin());
}

void parse_box(const TableReader& entry, const Vec3& extent, GeometryObject& object) {
  object.lower = entry.require<Vec3>("lower");
  object.upper = entry.require<Vec3>("upper");
  check_inside_grid(object.lower, extent, entry.key_path("lower"));
  check_inside_grid(object.upper, extent, entry.key_path("upper"));
  for (int axis = 0; axis < 3; ++axis)
    if (!(object.lower[axis] < object.upper[axis]))
      throw DeckError(entry.key_path("upper"), "upper must be greater than lower on every axis; along " +
                                                   std::string(kAxisNames[axis]) +
                                                   " lower = " + format_number(object.lower[axis]) +
                                                   ", upper = " + format_number(object.upper[axis]));
}

void parse_sphere(const TableReader& entry, GeometryObject& object) {
  object.centre = entry.require<Vec3>("centre");
  object.radius = positive(entry.require<double>("radius"), entry.key_path("radius"));
}

void parse_cylinder(const TableReader& entry, GeometryObject& object) {
  object.axis = required_choice(entry, "axis", kAxisNames);
  object.centre = entry.require<Vec3>("centre");
  object.radius = positive(entry.require<double>("radius"), entry.key_path("radius"));
  object.axis_lower = entry.require<double>("lower");
  object.axis_upper = entry.require<double>("upper");
  if (!(object.axis_lower < object.axis_upper))
    throw DeckError(entry.key_path("upper"), "upper must be greater than lower (the extent along the " +
                                                 std::string(kAxisNames[object.axis]) +
                                                 " axis); lower = " + format_number(object.axis_lower) +
                                                 ", upper = " + format_number(object.axis_upper));
}

// Squared distance from `point` to the nearest point of the grid, over every axis but `skip`
// (-1: all three).
double squared_distance_to_grid(const Vec3& point, const Vec3& extent, int skip) {
  double sum = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (axis == skip) continue;
    const double gap = std::max({0.0, -point[axis], point[axis] - extent[axis]});
    sum += gap * gap;
  }
  return sum;
}

// A sphere or cylinder may reach beyond the grid (the model clips it) but must not miss it.
// Boxes are checked corner by corner instead (both corners inside the grid).
void check_overlaps_grid(const GeometryObject& object, const Vec3& extent, const std::string& path) {
  const double radius_squared = object.radius * object.radius;
  bool outside = false;
  if (object.shape == ShapeKind::sphere) outside = squared_distance_to_grid(object.centre, extent, -1) > radius_squared;
  if (object.shape == ShapeKind::cylinder)
    outside = object.axis_upper < 0 || object.axis_lower > extent[object.axis] ||
              squared_distance_to_grid(object.centre, extent, object.axis) > radius_squared;
  if (outside)
    throw DeckError(path, "the " + std::string(kShapeNames[static_cast<int>(object.shape)]) +
                              " lies outside the grid, which spans [0, " + format_number(extent[0]) + "] x [0, " +
                              format_number(extent[1]) + "] x [0, " + format_number(extent[2]) +
                              "] m; at least part of it must be inside");
}

}  // namespace

// The free-space background, then each material an object is made of, once: a material no object
// is made of never reaches the engine.
std::vector<MaterialInUse> materials_in_use(const Deck& deck) {
  std::vector<MaterialInUse> in_use{{*find_material(deck, "free_space"), ""}};
  for (const GeometryObject& object : deck.geometry) {
    const auto made_of = [&](const MaterialInUse& m) { return m.material.name == object.material; };
    if (std::any_of(in_use.begin(), in_use.end(), made_of)) continue;
    const auto entry = std::find_if(deck.materials.begin(), deck.materials.end(),
                                    [&](const Material& m) { return m.name == object.material; });
    in_use.push_back({*find_material(deck, object.material),
                      entry == deck.materials.end() ? "" : indexed("material", entry - deck.materials.begin())});
  }
  return in_use;
}

// dt is set for free space, but waves travel at c / sqrt(eps_r mu_r), faster than c where
// eps_r mu_r < 1, where the Courant number is courant / sqrt(eps_r mu_r). The scheme is stable
// only while that is at most 1 in every material in use.
void check_stability(const Deck& deck) {
  const auto slowdown = [](const Material& m) { return std::sqrt(m.eps_r) * std::sqrt(m.mu_r); };  // c / speed
  const std::vector<MaterialInUse> in_use = materials_in_use(deck);
  const auto fastest = std::min_element(in_use.begin(), in_use.end(), [&](const auto& a, const auto& b) {
    return slowdown(a.material) < slowdown(b.material);
  });
  const double largest_courant = slowdown(fastest->material);  // 1 for free space
  if (deck.courant <= largest_courant) return;
  const Material& m = fastest->material;
  throw DeckError("time.courant",
                  format_number(deck.courant) + " is unstable in " + fastest->path + " (" + in_quotes(m.name) +
                      ", eps_r = " + format_number(m.eps_r) + ", mu_r = " + format_number(m.mu_r) +
                      "), where waves travel at c/sqrt(eps_r*mu_r) = " + format_number(1 / largest_courant) +
                      " c: the effective Courant number there, courant/sqrt(eps_r*mu_r) = " +
                      format_number(deck.courant / largest_courant) +
                      ", is above the CFL limit 1; the largest stable courant for this deck is " +
                      format_limit(largest_courant));
}

// The coefficients of every material in use (update_coefficients, per cell size); a failure of free
// space is the cell sizes' (and courant's), any other the material's.
void check_update_coefficients(const Deck& deck) {
  for (const auto& [material, path] : materials_in_use(deck)) {
    const UpdateCoefficients k = update_coefficients(material, deck.dt());
    std::vector<std::pair<std::string, double>> stored = {{"E decay (1 - l)/(1 + l)", k.e_decay}};
    for (int axis = 0; axis < 3; ++axis) {
      const std::string d = "d" + std::string(kAxisNames[axis]);
      stored.emplace_back("E curl coefficient dt/(eps (1 + l) " + d + ")", k.e_curl / deck.cell_size[axis]);
      stored.emplace_back("H curl coefficient dt/(mu " + d + ")", k.h_curl / deck.cell_size[axis]);
    }
    for (const auto& [name, value] : stored) {
      if (is_normal_float(value)) continue;
      const std::string given = path.empty()
                                    ? format_vector(deck.cell_size) +
                                          " m with time.courant = " + format_number(deck.courant) + " give free space"
                                    : in_quotes(material.name) + " (eps_r = " + format_number(material.eps_r) +
                                          ", sigma = " + format_number(material.sigma) +
                                          ", mu_r = " + format_number(material.mu_r) + ") has";
      throw DeckError(path.empty() ? "grid.cell_size" : path,
                      given + " the " + name + " = " + format_number(value) +
                          " (l = sigma dt/(2 eps)), which float32 cannot hold (it must be 0 or within [" +
                          format_number(kFloatMin) + ", " + format_number(kFloatMax) + "])" +
                          (std::abs(value) < kFloatMin ? ": the field there would never change, a silent PEC" : ""));
    }
  }
}

void parse_materials(const TableReader& root, Deck& deck) {
  for (const TableReader& entry :
       root.array_of_tables("material", {"name", "eps_r", "sigma", "mu_r", "poles", "peplinski"}, kMaxMaterials)) {
    Material material;
    material.name = entry.require<std::string>("name");
    const std::string name_path = entry.key_path("name");
    if (std::find(kBuiltinMaterials.begin(), kBuiltinMaterials.end(), material.name) != kBuiltinMaterials.end())
      throw DeckError(name_path, in_quotes(material.name) + " is a built-in material (" + join(kBuiltinMaterials) +
                                     "); use it directly or choose another name");
    check_name(material.name, name_path, deck.materials, "material");
    material.eps_r = positive(entry.get_or("eps_r", 1.0), entry.key_path("eps_r"));
    material.sigma = non_negative(entry.get_or("sigma", 0.0), entry.key_path("sigma"));
    material.mu_r = positive(entry.get_or("mu_r", 1.0), entry.key_path("mu_r"));
    parse_dispersion(entry, material);
    deck.materials.push_back(material);
  }
}

// An entry is read with the keys of every shape, then checked again against those of its own shape.
void parse_geometry(const TableReader& root, Deck& deck) {
  const Vec3 extent = grid_extent(deck);
  const auto entries = root.array_of_tables(
      "geometry", {"shape", "material", "lower", "upper", "centre", "radius", "axis"}, kMaxGeometryObjects);
  for (const TableReader& entry : entries) {
    GeometryObject object;
    object.shape = parse_shape(entry);
    switch (object.shape) {
      case ShapeKind::box: entry.allow_only({"shape", "material", "lower", "upper"}, "a box"); break;
      case ShapeKind::sphere: entry.allow_only({"shape", "material", "centre", "radius"}, "a sphere"); break;
      case ShapeKind::cylinder:
        entry.allow_only({"shape", "material", "axis", "centre", "radius", "lower", "upper"}, "a cylinder");
        break;
    }
    object.material = entry.require<std::string>("material");
    if (!find_material(deck, object.material))
      throw DeckError(entry.key_path("material"),
                      "unknown material " + in_quotes(object.material) +
                          " (define it in a [[material]] table, or use a built-in: " + join(kBuiltinMaterials) + ")");
    switch (object.shape) {
      case ShapeKind::box: parse_box(entry, extent, object); break;
      case ShapeKind::sphere: parse_sphere(entry, object); break;
      case ShapeKind::cylinder: parse_cylinder(entry, object); break;
    }
    check_overlaps_grid(object, extent, entry.path());
    deck.geometry.push_back(object);
  }
}

}  // namespace deck_detail

bool Deck::has_dispersion() const {
  return std::any_of(geometry.begin(), geometry.end(), [&](const GeometryObject& object) {
    const auto m = find_material(*this, object.material);
    return m && m->dispersive();
  });
}

std::optional<Material> find_material(const Deck& deck, const std::string& name) {
  if (name == "free_space") return Material{.name = "free_space"};
  if (name == "pec") return Material{.name = "pec", .pec = true};
  for (const Material& material : deck.materials)
    if (material.name == name) return material;
  return std::nullopt;
}

}  // namespace yeex
