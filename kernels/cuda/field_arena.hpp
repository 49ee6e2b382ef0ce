// Where the cuda engine's fields and class bytes live (kernels/field_layout.hpp, "field arena"):
// fields below kPlacementTrialBytes in an allocation each, larger ones in a field arena whose slot
// unit `--arena-unit` fixes or the placement trial picks. Plain C++ over the CUDA runtime.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cuda/device_array.hpp"
#include "kernels/engine.hpp"

namespace yeex {

template <typename Real>
class FieldStorage {
 public:
  // Allocates, on the current device, the fields of `elements` each (zero) and the class bytes (a
  // copy of `classes`, one a node): an allocation each below kPlacementTrialBytes a field, else a
  // field arena in slots of `fixed_unit` or, where that is 0, of kSlotUnits[0] until
  // choose_placement tries the others (needs_trial()).
  void allocate(std::size_t elements, const std::vector<std::uint8_t>& classes, std::size_t fixed_unit);
  bool needs_trial() const { return trial_unit_ != 0; }
  // The placement trial: `seconds_per_step()` (the engine's step timed over the fields where they
  // lie now, which leaves zero fields zero) in the arena of each unit of kSlotUnits whose arena fits
  // in half the free memory of `device`; keeps the fastest arena and reports the times in choice().
  void choose_placement(int device, const std::function<double()>& seconds_per_step);

  Real* field(int c) const { return field_ptr_[static_cast<std::size_t>(c)]; }
  std::uint8_t* classes() const { return class_ptr_; }
  // For the engine's choices: "field arena in 2M slots (timed: ...)".
  const std::string& choice() const { return choice_; }

 private:
  void point_into(const DeviceArray<std::uint8_t>& arena, std::size_t unit);
  DeviceArray<std::uint8_t> make_arena(std::size_t unit);

  std::size_t elements_ = 0;
  std::size_t trial_unit_ = 0;  // the arena's first unit, where choose_placement tries the others
  std::array<DeviceArray<Real>, kComponentCount> fields_;  // below kPlacementTrialBytes
  DeviceArray<std::uint8_t> material_class_;
  DeviceArray<std::uint8_t> arena_;                 // from kPlacementTrialBytes
  std::array<Real*, kComponentCount> field_ptr_{};  // into fields_ or arena_
  std::uint8_t* class_ptr_ = nullptr;
  std::string choice_;
};

extern template class FieldStorage<float>;
extern template class FieldStorage<double>;

}  // namespace yeex
