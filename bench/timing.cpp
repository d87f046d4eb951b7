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
  // The warm-up above runs back to back (one synchronisation); the measured form below
  // synchronises each of them, which is the same for the timed part.
  TimingPlan rest = plan;
  rest.warmup = 0;
  rest.warmup_s = std::max(0.0, plan.warmup_s - std::chrono::duration<double>(clock::now() - w0).count());
  return time_launches_measured(
      [&] {
        const auto t0 = clock::now();
        launch();
        sync();
        return std::chrono::duration<double>(clock::now() - t0).count();
      },
      rest);
}

TimingResult time_launches_measured(const std::function<double()>& timed_launch, const TimingPlan& plan) {
  using clock = std::chrono::steady_clock;
  const auto w0 = clock::now();
  for (int i = 0; i < plan.warmup; ++i) timed_launch();
  while (plan.warmup_s > 0 && std::chrono::duration<double>(clock::now() - w0).count() < plan.warmup_s)
    timed_launch();
  TimingResult r;
  const int repeat = std::max(1, plan.repeat);
  const int max_repeat = std::max(repeat, plan.max_repeat);
  double total = 0;
  for (int i = 0; i < max_repeat; ++i) {
    if (i >= repeat && total >= plan.min_time_s) break;
    const double s = timed_launch();
    r.samples.push_back(s);
    total += s;
    if (plan.budget_s > 0 && total > plan.budget_s && r.samples.size() >= 3) break;
  }
  return summarize(std::move(r.samples));
}

TimingResult summarize(std::vector<double> samples) {
  TimingResult r;
  r.samples = std::move(samples);
  r.median = median_of(r.samples);
  r.min = *std::min_element(r.samples.begin(), r.samples.end());
  r.max = *std::max_element(r.samples.begin(), r.samples.end());
  r.mean = std::accumulate(r.samples.begin(), r.samples.end(), 0.0) / static_cast<double>(r.samples.size());
  return r;
}

InterleavedTiming time_interleaved(const std::function<void(Arm, int)>& call, const TimingPlan& plan,
                                   const std::function<double()>& clock_fn) {
  using clock = std::chrono::steady_clock;
  const auto origin = clock::now();
  const std::function<double()> now =
      clock_fn ? clock_fn : std::function<double()>([origin] {
        return std::chrono::duration<double>(clock::now() - origin).count();
      });
  return time_interleaved_measured(
      [&](Arm arm, int round) {
        const double t0 = now();
        call(arm, round);
        return now() - t0;
      },
      plan);
}

InterleavedTiming time_interleaved_measured(const std::function<double(Arm, int)>& timed_call,
                                            const TimingPlan& plan) {
  // Warm-up: whole rounds, so every arm warms up alike; its length is the calls' own time.
  double warm_s = 0;
  int warm = 0;
  while (warm < plan.warmup || (plan.warmup_s > 0 && warm_s < plan.warmup_s)) {
    const std::vector<Arm> order = interleaved_order(warm + 1);
    for (size_t i = order.size() - 3; i < order.size(); ++i) warm_s += timed_call(order[i], warm);
    ++warm;
  }
  std::vector<double> a, b, a2;
  const int repeat = std::max(1, plan.repeat);
  const int max_rounds = std::max(repeat, plan.max_repeat);
  double total_a = 0;
  int rounds = 0;
  for (; rounds < max_rounds; ++rounds) {
    if (rounds >= repeat && total_a >= plan.min_time_s) break;
    if (plan.budget_s > 0 && total_a > plan.budget_s && rounds >= 3) break;
    const std::vector<Arm> order = interleaved_order(rounds + 1);
    for (size_t i = order.size() - 3; i < order.size(); ++i) {
      const double s = timed_call(order[i], rounds);
      (order[i] == Arm::A ? a : order[i] == Arm::B ? b : a2).push_back(s);
      if (order[i] == Arm::A) total_a += s;
    }
  }
  InterleavedTiming t;
  t.rounds = rounds;
  t.a = summarize(std::move(a));
  t.b = summarize(std::move(b));
  t.a2 = summarize(std::move(a2));
  return t;
}

}  // namespace tritium::bench
