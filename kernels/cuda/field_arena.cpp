// FieldStorage (field_arena.hpp): the fields' allocations and the placement trial.
#include "kernels/cuda/field_arena.hpp"

#include <cstdio>
#include <mutex>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_engine.hpp"

namespace yeex {
namespace {

std::string ms_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", seconds * 1e3);
  return text;
}

}  // namespace

template <typename Real>
void FieldStorage<Real>::allocate(std::size_t elements, const std::vector<std::uint8_t>& classes,
                                  std::size_t fixed_unit) {
  const std::size_t n = elements_ = elements;
  if (n * sizeof(Real) < kPlacementTrialBytes) {
    for (int c = 0; c < kComponentCount; ++c) {
      fields_[c] = DeviceArray<Real>(n);
      YEEX_CUDA(cudaMemset(fields_[c].get(), 0, n * sizeof(Real)));
      field_ptr_[c] = fields_[c].get();
    }
    material_class_ = DeviceArray<std::uint8_t>(classes.data(), classes.size());
    class_ptr_ = material_class_.get();
    choice_ = "fields in an allocation each (below " + std::to_string(kPlacementTrialBytes >> 20) + " MiB a field)";
    return;
  }
  arena_ = make_arena(fixed_unit ? fixed_unit : kSlotUnits[0]);
  YEEX_CUDA(cudaMemcpy(class_ptr_, classes.data(), n, cudaMemcpyHostToDevice));
  if (fixed_unit)
    choice_ = "field arena in " + slot_unit_name(fixed_unit) + " slots (fixed by --arena-unit)";
  else
    trial_unit_ = kSlotUnits[0];
}

// Points the field and class pointers into `arena`, a field arena in slots of `unit`.
template <typename Real>
void FieldStorage<Real>::point_into(const DeviceArray<std::uint8_t>& arena, std::size_t unit) {
  const std::size_t slot = field_slot(elements_ * sizeof(Real), unit);
  for (int c = 0; c < kComponentCount; ++c) field_ptr_[c] = reinterpret_cast<Real*>(arena.get() + c * slot);
  class_ptr_ = arena.get() + kComponentCount * slot;
}

// A field arena in slots of `unit`, its fields zero, the pointers set into it (the class bytes are
// the caller's to fill).
template <typename Real>
DeviceArray<std::uint8_t> FieldStorage<Real>::make_arena(std::size_t unit) {
  const std::size_t n = elements_;
  DeviceArray<std::uint8_t> arena(field_arena_bytes(n, sizeof(Real), unit));
  YEEX_CUDA(cudaMemset(arena.get(), 0, kComponentCount * field_slot(n * sizeof(Real), unit)));
  point_into(arena, unit);
  return arena;
}

template <typename Real>
void FieldStorage<Real>::choose_placement(int device, const std::function<double()>& seconds_per_step) {
  // Engines built at once on one GPU (slabs sharing it) take turns, so that no trial times another's.
  static std::array<std::mutex, 64> device_locks;
  const std::lock_guard<std::mutex> one_at_a_time(device_locks[static_cast<std::size_t>(device) % device_locks.size()]);
  const std::size_t n = elements_;
  std::size_t unit = trial_unit_;
  double best = seconds_per_step();
  std::string times = ms_text(best) + " ms/step " + slot_unit_name(unit);
  for (const std::size_t other : kSlotUnits) {
    if (other == unit) continue;
    std::size_t free = 0, total = 0;
    cuda_memory_info(device, free, total);
    if (field_arena_bytes(n, sizeof(Real), other) > free / 2) continue;
    const std::uint8_t* const classes = class_ptr_;
    DeviceArray<std::uint8_t> trial = make_arena(other);
    YEEX_CUDA(cudaMemcpy(class_ptr_, classes, n, cudaMemcpyDeviceToDevice));
    const double t = seconds_per_step();
    times += ", " + ms_text(t) + " " + slot_unit_name(other);
    if (t < best) {
      best = t, unit = other;
      arena_ = std::move(trial);  // the move swaps: the old arena is freed with trial
    } else {
      point_into(arena_, unit);
    }
  }
  trial_unit_ = 0;
  choice_ = "field arena in " + slot_unit_name(unit) + " slots (timed: " + times + ")";
}

template class FieldStorage<float>;
template class FieldStorage<double>;

}  // namespace yeex
