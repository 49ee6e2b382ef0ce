// [grid], [time], [boundary] and [boundary.cpml]: the grid, the time step and the outer faces
// (io/deck_sections.hpp); the time step and CPML settings of a Deck (io/deck.hpp).
#include <cmath>

#include "io/deck_sections.hpp"
#include "physics/constants.hpp"

namespace yeex {
namespace deck_detail {
namespace {

// Time step at the 3D CFL limit: 1 / (c sqrt(1/dx^2 + 1/dy^2 + 1/dz^2)).
double cfl_time_step(const Vec3& cell) {
  const double inverse_squares = 1 / (cell[0] * cell[0]) + 1 / (cell[1] * cell[1]) + 1 / (cell[2] * cell[2]);
  return 1 / (kSpeedOfLight * std::sqrt(inverse_squares));
}

// Every coefficient is a double divided by or multiplied with dt: a time step of 0 or a subnormal
// one makes them 0 or imprecise, an infinite one makes them nan. `what` says where dt came from.
void check_time_step(double dt, const std::string& path, const std::string& what) {
  if (!std::isnormal(dt))
    throw DeckError(path, what + " = " + format_number(dt) +
                              " s, which is not a usable time step (a finite, positive, normal double)");
}

BoundaryKind parse_boundary_kind(const TableReader& boundary, std::string_view key) {
  const auto kind = boundary.require<std::string>(key);
  const auto it = std::find(kBoundaryNames.begin(), kBoundaryNames.end(), kind);
  if (it == kBoundaryNames.end())
    throw DeckError(boundary.key_path(key),
                    "unknown boundary kind " + in_quotes(kind) + " (expected one of: " + join(kBoundaryNames) + ")");
  return static_cast<BoundaryKind>(it - kBoundaryNames.begin());
}

// The CPML coefficients of one axis' slabs at every depth its nodes use (multiples of half a cell),
// which must be finite. Only two settings can spoil them: a grading so large that the default
// sigma_max = 0.8 (m + 1)/(eta0 d) overflows, and a kappa_max whose square overflows (c's
// kappa^2 alpha is then inf * 0 at the outer edge, where alpha = 0). The others only drive b and c
// to their finite limits.
void check_cpml_coefficients(const Deck& deck, int axis) {
  const double sigma_max = deck.cpml_sigma_max(axis);
  const std::string along = " along " + std::string(kAxisNames[axis]);
  if (!std::isfinite(sigma_max))
    throw DeckError("boundary.cpml.grading", format_number(deck.cpml.grading) +
                                                 " gives the default sigma_max = 0.8 (grading + 1)/(eta0 d) = " +
                                                 format_number(sigma_max) + " S/m" + along);
  const Index n = deck.cpml.cells;
  for (Index half_cells = 0; half_cells <= 2 * n; ++half_cells) {
    const double rho = static_cast<double>(half_cells) / static_cast<double>(2 * n);
    const CpmlCoefficients k = cpml_coefficients(deck.cpml, sigma_max, deck.dt(), rho);
    if (std::isfinite(k.b) && std::isfinite(k.c) && std::isfinite(k.kappa_inverse_minus_one)) continue;
    throw DeckError("boundary.cpml.kappa_max",
                    format_number(deck.cpml.kappa_max) + " makes the CPML coefficients at depth " + format_number(rho) +
                        along + " non-finite: kappa_max^2 must be a finite double (usual values are 1 to 10 or so)");
  }
}

// [boundary.cpml]: ranges of each key, then whether the slabs fit the grid.
void parse_cpml(const TableReader& boundary, Deck& deck) {
  const auto cpml = boundary.table("cpml", {"cells", "grading", "sigma_max", "kappa_max", "alpha_max"});
  if (cpml) {
    CpmlSettings& s = deck.cpml;
    s.cells = cpml->get_or("cells", s.cells);
    if (s.cells < 1 || s.cells > kMaxCpmlCells)
      throw DeckError(cpml->key_path("cells"), "must be in [1, " + std::to_string(kMaxCpmlCells) +
                                                   "] (usually 8 to 20), got " + std::to_string(s.cells));
    s.grading = non_negative(cpml->get_or("grading", s.grading), cpml->key_path("grading"));
    // One value for every axis, or one per axis (what run.json holds after the defaults).
    if (cpml->is_array("sigma_max")) {
      s.sigma_max = cpml->require<Vec3>("sigma_max");
      for (int axis = 0; axis < 3; ++axis)
        non_negative((*s.sigma_max)[axis], indexed(cpml->key_path("sigma_max"), axis));
    } else if (cpml->has("sigma_max")) {
      const double sigma = non_negative(cpml->require<double>("sigma_max"), cpml->key_path("sigma_max"));
      s.sigma_max = Vec3{sigma, sigma, sigma};
    }
    s.kappa_max = cpml->get_or("kappa_max", s.kappa_max);
    if (!(s.kappa_max >= 1))
      throw DeckError(cpml->key_path("kappa_max"), "must be >= 1, got " + format_number(s.kappa_max));
    s.alpha_max = non_negative(cpml->get_or("alpha_max", s.alpha_max), cpml->key_path("alpha_max"));
    if (!deck.has_cpml())
      deck.warnings.push_back(
          "warning: boundary.cpml is given but no face is cpml (set boundary.all or a face "
          "to \"cpml\"); it has no effect");
  }
  const auto cells = deck.grid.as_array();
  for (int axis = 0; axis < 3; ++axis) {
    const int slabs =
        (deck.boundary[2 * axis] == BoundaryKind::cpml) + (deck.boundary[2 * axis + 1] == BoundaryKind::cpml);
    if (slabs == 0) continue;
    if (cells[axis] - slabs * deck.cpml.cells < kCpmlMinInteriorCells)
      throw DeckError(
          cpml ? cpml->key_path("cells") : "boundary.cpml.cells",
          std::to_string(slabs) + " CPML slab" + (slabs > 1 ? "s" : "") + " of " + std::to_string(deck.cpml.cells) +
              " cells leave " + std::to_string(cells[axis] - slabs * deck.cpml.cells) + " of the " +
              std::to_string(cells[axis]) + " cells along " + std::string(kAxisNames[axis]) + "; at least " +
              std::to_string(kCpmlMinInteriorCells) + " interior cells are needed (thinner PML or a larger grid)");
    check_cpml_coefficients(deck, axis);
  }
}

}  // namespace

// ---- the tables of the deck, in the order they are read ---------------------------------------

void parse_grid(const TableReader& root, Deck& deck) {
  const auto grid = root.table("grid", {"cells", "cell_size"});
  if (!grid) throw DeckError("grid", "missing required table [grid] (cells and cell_size)");

  const auto cells = grid->require<std::array<Index, 3>>("cells");
  const std::string cells_path = grid->key_path("cells");
  for (int axis = 0; axis < 3; ++axis)
    if (cells[axis] < 1) throw DeckError(indexed(cells_path, axis), "must be >= 1, got " + std::to_string(cells[axis]));
  const double total = static_cast<double>(cells[0]) * static_cast<double>(cells[1]) * static_cast<double>(cells[2]);
  if (total > static_cast<double>(kMaxCells))
    throw DeckError(cells_path, std::to_string(cells[0]) + " x " + std::to_string(cells[1]) + " x " +
                                    std::to_string(cells[2]) + " = " + format_number(total) +
                                    " cells is more than the limit of 2^40 (" +
                                    format_number(static_cast<double>(kMaxCells)) + ") cells");
  deck.grid = {cells[0], cells[1], cells[2]};

  deck.cell_size = grid->require<Vec3>("cell_size");
  for (int axis = 0; axis < 3; ++axis) positive(deck.cell_size[axis], indexed(grid->key_path("cell_size"), axis));
  // 0 once a 1/d^2 overflows (d below ~1e-154 m), inf once all of them underflow.
  check_time_step(cfl_time_step(deck.cell_size), grid->key_path("cell_size"),
                  format_vector(deck.cell_size) + " m give the CFL time step dt_cfl");
}

void parse_time(const TableReader& root, Deck& deck) {
  const auto time = root.table("time", {"steps", "duration", "courant"});
  if (!time) throw DeckError("time", "missing required table [time] (steps or duration)");

  deck.steps = time->get<Index>("steps");
  deck.duration = time->get<double>("duration");
  if (deck.steps && deck.duration) throw DeckError("time", "give time.steps or time.duration, not both");
  if (!deck.steps && !deck.duration)
    throw DeckError("time.steps", "missing required key: give time.steps (a step count) or time.duration (seconds)");
  if (deck.steps && (*deck.steps < 1 || *deck.steps > kMaxSteps))
    throw DeckError(time->key_path("steps"), "must be in [1, 1e9], got " + std::to_string(*deck.steps));
  if (deck.duration) positive(*deck.duration, time->key_path("duration"));

  deck.courant = time->get_or("courant", 0.99);
  const std::string courant_path = time->key_path("courant");
  if (deck.courant > 1)
    throw DeckError(courant_path,
                    format_number(deck.courant) + " would give dt = " + format_number(deck.dt()) +
                        " s, above the 3D CFL limit dt_cfl = 1/(c*sqrt(1/dx^2+1/dy^2+1/dz^2)) = " +
                        format_number(cfl_time_step(deck.cell_size)) +
                        " s; the Yee scheme is unstable above the CFL limit, so courant must be in (0, 1]");
  if (!(deck.courant > 0)) throw DeckError(courant_path, "must be in (0, 1], got " + format_number(deck.courant));
  check_time_step(deck.dt(), courant_path, format_number(deck.courant) + " gives dt");

  if (deck.duration) {
    const double steps = std::ceil(*deck.duration / deck.dt());
    if (steps > static_cast<double>(kMaxSteps))
      throw DeckError(time->key_path("duration"), format_number(*deck.duration) +
                                                      " s at dt = " + format_number(deck.dt()) + " s is " +
                                                      format_number(steps) + " steps, more than the limit of 1e9");
  }
}

// `all` sets every face; a face named on its own overrides it.
void parse_boundary(const TableReader& root, Deck& deck) {
  deck.boundary.fill(BoundaryKind::pec);
  const auto boundary = root.table("boundary", {"all", "x_min", "x_max", "y_min", "y_max", "z_min", "z_max", "cpml"});
  if (!boundary) return;
  if (boundary->has("all")) deck.boundary.fill(parse_boundary_kind(*boundary, "all"));
  for (std::size_t face = 0; face < kFaceNames.size(); ++face)
    if (boundary->has(kFaceNames[face])) deck.boundary[face] = parse_boundary_kind(*boundary, kFaceNames[face]);
  parse_cpml(*boundary, deck);
}

}  // namespace deck_detail

double Deck::dt() const { return courant * deck_detail::cfl_time_step(cell_size); }

Index Deck::step_count() const {
  if (steps) return *steps;
  return std::max<Index>(1, static_cast<Index>(std::ceil(duration.value_or(0.0) / dt())));
}

bool Deck::has_cpml() const {
  return std::find(boundary.begin(), boundary.end(), BoundaryKind::cpml) != boundary.end();
}

// The usual optimum (Gedney; Taflove & Hagness 7.62) for eps_r = mu_r = 1.
double Deck::cpml_sigma_max(int axis) const {
  if (cpml.sigma_max) return (*cpml.sigma_max)[axis];
  const double eta0 = kMu0 * kSpeedOfLight;
  return 0.8 * (cpml.grading + 1) / (eta0 * cell_size[axis]);
}

}  // namespace yeex
