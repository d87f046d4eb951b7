// timing.cpp - warm-up, repetitions, median on the monotonic clock.
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace tritium::bench {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

TimingResult time_launches(const std::function<void()>& launch, const std::function<void()>& sync,
                           const TimingPlan& plan) {
  using clock = std::chrono::steady_clock;
  const auto w0 = clock::now();
  for (int i = 0; i < plan.warmup; ++i) launch();
  sync();
  while (plan.warmup_s > 0 && std::chrono::duration<double>(clock::now() - w0).count() < plan.warmup_s) {
    launch();
    sync();
  }
  TimingResult r;
  const int repeat = std::max(1, plan.repeat);
  const int max_repeat = std::max(repeat, plan.max_repeat);
  double total = 0;
  for (int i = 0; i < max_repeat; ++i) {
    if (i >= repeat && total >= plan.min_time_s) break;
    const auto t0 = clock::now();
    launch();
    sync();
    const auto t1 = clock::now();
    const double s = std::chrono::duration<double>(t1 - t0).count();
    r.samples.push_back(s);
    total += s;
    if (plan.budget_s > 0 && total > plan.budget_s && r.samples.size() >= 3) break;
  }
  r.median = median_of(r.samples);
  r.min = *std::min_element(r.samples.begin(), r.samples.end());
  r.max = *std::max_element(r.samples.begin(), r.samples.end());
  r.mean = std::accumulate(r.samples.begin(), r.samples.end(), 0.0) / static_cast<double>(r.samples.size());
  return r;
}

}  // namespace tritium::bench
