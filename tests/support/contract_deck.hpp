// The bitwise contract's decks (the general one and the CPML one), shared by the suites that
// check the contract on CPU engines.
#pragma once

#include "io/deck.hpp"

namespace yeex::testing {

// Small but demanding: sources and a PEC object right at slab boundaries, a lossy block crossing
// them, probes in several slabs, uneven splits (nz = 13).
inline Deck contract_deck() {
  Deck d;
  d.grid = {12, 10, 13};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 37;
  d.materials.push_back({"lossy", 3.0, 0.05, 1.0, false});
  d.materials.push_back({"ferrite", 1.0, 0.0, 2.5, false});
  d.geometry.push_back({ShapeKind::box, "lossy", {2e-3, 2e-3, 3e-3}, {9e-3, 8e-3, 10e-3}});
  d.geometry.push_back({ShapeKind::box, "ferrite", {5e-3, 1e-3, 6e-3}, {8e-3, 4e-3, 7e-3}});
  d.geometry.push_back({ShapeKind::box, "pec", {3e-3, 6e-3, 4e-3}, {4e-3, 7e-3, 9e-3}});
  for (double z : {3e-3, 4e-3, 7e-3, 10e-3}) {
    Source s;
    s.position = {6e-3, 5e-3, z};
    s.polarisation = z < 5e-3 ? 2 : 0;
    s.waveform = z < 5e-3 ? WaveformKind::ricker : WaveformKind::gaussian_derivative;
    s.frequency = 60e9;
    d.sources.push_back(s);
  }
  d.probes.push_back({"low", {6e-3, 5e-3, 2e-3}, {Component::Ez, Component::Hx}});
  d.probes.push_back({"mid", {7e-3, 4e-3, 6e-3}, {Component::Ex, Component::Hy, Component::Hz}});
  d.probes.push_back({"top", {5e-3, 5e-3, 12e-3}, {Component::Ey}});
  return d;
}

// Slabs of 7 cells on every face; nz = 22 puts the z-slabs at [0, 7) and [15, 22), so 4
// subdomains (planes 0-6, 6-12, 12-17, 17-22) have boundaries inside both. A lossy half-space
// runs into the lower z slab and the x and y slabs; sources and probes in several subdomains.
inline Deck cpml_contract_deck() {
  Deck d;
  d.grid = {18, 19, 22};
  d.cell_size = {1e-3, 1e-3, 1e-3};
  d.steps = 45;
  d.boundary.fill(BoundaryKind::cpml);
  d.cpml.cells = 7;
  d.materials.push_back({"soil", 6.0, 0.05, 1.0, false});
  d.geometry.push_back({ShapeKind::box, "soil", {0, 0, 0}, {18e-3, 19e-3, 10e-3}});
  for (double z : {8e-3, 11e-3, 13e-3}) {
    Source s;
    s.position = {9e-3, 9e-3, z};
    s.polarisation = z < 10e-3 ? 2 : 0;
    s.waveform = WaveformKind::ricker;
    s.frequency = 60e9;
    d.sources.push_back(s);
  }
  d.probes.push_back({"low", {9e-3, 9e-3, 3e-3}, {Component::Ez, Component::Hx}});
  d.probes.push_back({"mid", {8e-3, 10e-3, 12e-3}, {Component::Ex, Component::Hy}});
  d.probes.push_back({"top", {2e-3, 17e-3, 19e-3}, {Component::Ey, Component::Hz}});
  return d;
}

// The CPML deck's layout with dispersive materials, each crossing the slab boundaries of 2-4
// subdomains: a two-pole Debye half-space running into the CPML, a Drude + Lorentz block and a
// Lorentz sphere above it; the sources in free space (a source in a dispersive material is refused).
inline Deck dispersive_contract_deck() {
  Deck d = cpml_contract_deck();
  d.materials.clear();
  Material soil{"soil", 4.0, 0.01, 1.0, false};
  soil.poles = {{.kind = PoleKind::debye, .delta_eps = 10.0, .tau = 9e-12},
                {.kind = PoleKind::debye, .delta_eps = 3.0, .tau = 3e-12}};
  Material metal{"metal", 1.0, 0.0, 1.0, false};
  metal.poles = {{.kind = PoleKind::drude, .omega = 6e11, .gamma = 2e10},
                 {.kind = PoleKind::lorentz, .delta_eps = 2.0, .omega = 3e11, .gamma = 1e10}};
  Material glass{"glass", 2.0, 0.0, 1.0, false};
  glass.poles = {{.kind = PoleKind::lorentz, .delta_eps = 1.5, .omega = 4e11, .gamma = 5e9}};
  d.materials = {soil, metal, glass};
  d.geometry.clear();
  d.geometry.push_back({ShapeKind::box, "soil", {0, 0, 0}, {18e-3, 19e-3, 10e-3}});
  d.geometry.push_back({ShapeKind::box, "metal", {5e-3, 6e-3, 5e-3}, {12e-3, 11e-3, 14e-3}});
  GeometryObject sphere{ShapeKind::sphere, "glass"};
  sphere.centre = {9e-3, 9e-3, 16e-3}, sphere.radius = 3e-3;
  d.geometry.push_back(sphere);
  for (Source& s : d.sources) s.position = {14e-3, 15e-3, s.position[2] + 4e-3};
  return d;
}

}  // namespace yeex::testing
