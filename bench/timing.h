// timing.h - wall-clock timing of kernel launches: warm-up launches, then N timed
// repetitions on the monotonic clock, the device synchronised after each, median reported.
#pragma once

#include <functional>
#include <vector>

#include "stats.h"

namespace tritium::bench {

/// How many times to launch.
struct TimingPlan {
  int warmup = 2;   ///< untimed launches first (compile caches, page faults, cache warm-up)
  int repeat = 10;  ///< timed launches (at least 1)
  /// When > 0 (automatic mode, neither --repeat nor --warmup given): stop early once the
  /// timed launches have taken this many seconds (at least 3 are still made), so slow cases
  /// stay bounded; run_case also skips the warm-up when its checked launch took over a
  /// quarter of it.
  double budget_s = 0;
  /// Warm-up by time: after the `warmup` launches, keep launching (untimed) until this many
  /// seconds have passed since the first warm-up launch. On the 2-core CI-class VM the first
  /// ~50 ms of launches of a memory-bound kernel run up to 2x slower (clock and memory ramp-up,
  /// measured 2026-12-01: rmsnorm 4096x4096 fp32 at 5.4 ms median after 2 warm-up launches,
  /// 4.4 ms after 20), so automatic mode warms up for a fixed time, not a fixed count.
  double warmup_s = 0;
  /// Repeat by time: after the `repeat` timed launches, keep timing launches while the timed
  /// total is under this many seconds (and under budget_s when that is set), up to
  /// max_repeat launches, so fast cases get enough samples for a stable median.
  double min_time_s = 0;
  int max_repeat = 1000;
};

/// Timings of one case, in seconds.
struct TimingResult {
  std::vector<double> samples;  ///< one per timed launch, in order
  double median = 0;            ///< median of samples (mean of the two middle ones if even)
  double min = 0;               ///< fastest sample
  double max = 0;               ///< slowest sample
  double mean = 0;              ///< arithmetic mean
};

/// The median of `v` (0 for an empty vector); `v` is taken by value and sorted.
double median_of(std::vector<double> v);

/// median, min, max and mean of `samples` (which must not be empty), the samples kept.
TimingResult summarize(std::vector<double> samples);

/// The samples of an interleaved comparison (stats.h): one per round for each arm.
struct InterleavedTiming {
  TimingResult a, b, a2;  ///< tritium, the baseline, tritium again (the noise floor)
  int rounds = 0;
};

/// Times the arms of stats.h's interleaved order call by call: `call(arm, round)` makes one
/// call of that arm (and waits for it: a device launch includes its synchronize) for round
/// `round` (callers rotate their buffer sets by it). First plan.warmup calls of each arm in
/// the same order (then more rounds until plan.warmup_s has passed); then at least
/// plan.repeat rounds, more while arm A's timed total is under plan.min_time_s, at most
/// plan.max_repeat, stopping after plan.budget_s of A (3 rounds at least) when set.
/// `clock` returns seconds on a monotonic clock (a parameter so that tests can supply one).
InterleavedTiming time_interleaved(const std::function<void(Arm arm, int round)>& call, const TimingPlan& plan,
                                   const std::function<double()>& clock = {});

/// time_interleaved() where each call measures itself: `timed_call(arm, round)` makes the
/// call and returns its duration in seconds (e.g. CUDA events, device_clock.h), which is the
/// sample; warm-up and the plan's time limits count those durations too.
InterleavedTiming time_interleaved_measured(const std::function<double(Arm arm, int round)>& timed_call,
                                            const TimingPlan& plan);

/// Runs `launch` plan.warmup times (then more until plan.warmup_s has passed), then times
/// each of plan.repeat calls of `launch` (then more while the timed total is under
/// plan.min_time_s, at most plan.max_repeat) followed by `sync` (the device's synchronize)
/// with std::chrono::steady_clock.
TimingResult time_launches(const std::function<void()>& launch, const std::function<void()>& sync,
                           const TimingPlan& plan);

/// time_launches() where each launch measures itself: `timed_launch()` launches, waits and
/// returns the launch's duration in seconds (device_clock.h), which is the sample.
TimingResult time_launches_measured(const std::function<double()>& timed_launch, const TimingPlan& plan);

}  // namespace tritium::bench
