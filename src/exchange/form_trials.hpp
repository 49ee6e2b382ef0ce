// Choosing between two forms of a kernel that compute the same bits by timing them in the run
// itself (coop's kernel, with its source code inlined or called: see coop_exchange.cu). The first
// kTrials launches alternate the forms, form 0 first, each of at most trial_steps steps (a call of
// fewer steps makes a shorter trial); the rest of the run takes the form whose better trial took
// less time per step. Two trials a form: the very first launch also carries the start-up (the
// first seeding of the halos, cold caches), which the second trial of the same form does not.
// Pure host logic, one object per subdomain: tests/unit/test_form_trials.cpp checks it.
#pragma once

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "decomposition/grid.hpp"

namespace yeex {

class FormTrials {
 public:
  static constexpr int kTrials = 4;
  static constexpr double kTrialCells = 1e8;  // cells updated per trial: 2-5 ms of a GPU

  // Steps per trial for subdomains of up to `cells` cells: kTrialCells' worth, 2 to 256.
  static Index steps_for(Index cells) {
    return std::clamp<Index>(static_cast<Index>(kTrialCells / static_cast<double>(std::max<Index>(cells, 1))), 2, 256);
  }

  // `fixed`: that form for the whole run, no trials.
  FormTrials(Index trial_steps, std::optional<bool> fixed) : trial_steps_(std::max<Index>(trial_steps, 1)) {
    if (fixed) {
      form_ = *fixed;
      trials_ = kTrials;
      fixed_ = true;
    }
  }

  struct Launch {
    Index steps;  // of the `remaining` steps of the call
    bool form;
    bool timed;  // a trial: report its time with record()
  };
  // The next launch of a call that has `remaining` steps left (> 0).
  Launch next(Index remaining) const {
    if (trials_ >= kTrials) return {remaining, form_, false};
    return {std::min(remaining, trial_steps_), trials_ % 2 == 1, true};
  }
  // After a timed launch of `form`: its time per step.
  void record(bool form, double seconds_per_step) {
    best_[form] = std::min(best_[form], seconds_per_step);
    if (++trials_ == kTrials) form_ = best_[1] < best_[0];
  }

  // Subdomains that step together (the same trials at the same steps) should take the same form:
  // once every one has decided, each calls this with the team's times (for each form, its slowest
  // subdomain's best trial), which then decide and are reported instead of its own.
  void agree(double team_seconds0, double team_seconds1) {
    if (fixed_ || !decided()) return;
    best_[0] = team_seconds0;
    best_[1] = team_seconds1;
    form_ = best_[1] < best_[0];
  }

  bool decided() const { return trials_ >= kTrials; }
  // Steps of trials still to run, where calls are long enough to give each its trial_steps.
  Index steps_to_decide() const { return decided() ? 0 : (kTrials - trials_) * trial_steps_; }
  bool form() const { return form_; }  // the chosen one (form 0 until decided)
  bool fixed() const { return fixed_; }
  double best(bool form) const { return best_[form]; }  // seconds per step (infinity: no trial)

  // "NAME1 (timed: 12.63 us/step NAME0, 13.77 NAME1)", "NAME1 (fixed by WHY)" or
  // "NAME0 (trials unfinished)", for a run's report.
  std::string describe(const std::string& name0, const std::string& name1, const std::string& why_fixed) const {
    const std::string& chosen = form_ ? name1 : name0;
    if (fixed_) return chosen + " (fixed by " + why_fixed + ")";
    if (!decided()) return name0 + " (trials unfinished)";
    char times[160];
    std::snprintf(times, sizeof times, " (timed: %.2f us/step %s, %.2f %s)", best_[0] * 1e6, name0.c_str(),
                  best_[1] * 1e6, name1.c_str());
    return chosen + times;
  }

 private:
  Index trial_steps_;
  int trials_ = 0;
  bool form_ = false;
  bool fixed_ = false;
  double best_[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
};

}  // namespace yeex
