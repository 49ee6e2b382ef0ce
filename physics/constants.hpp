// The vacuum constants, SI.
#pragma once

namespace yeex {

inline constexpr double kSpeedOfLight = 299792458.0;
inline constexpr double kMu0 = 1.25663706212e-6;
inline constexpr double kEps0 = 1.0 / (kMu0 * kSpeedOfLight * kSpeedOfLight);

}  // namespace yeex
