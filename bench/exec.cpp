// exec.cpp - one case on a device: data, compile, poisoned outputs with guard zones, one
// checked launch, then timing.
#include "exec.h"

#include "cache_ceiling.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace tritium::bench {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Allocates kGuardBytes + data + kGuardBytes on the device; guards are poison, the body is
// the host array's bytes (already poison for outputs).
Buffer upload_guarded(Device& dev, const HostArray& a) {
  const size_t n = a.byte_size();
  Buffer b = dev.alloc(n + 2 * kGuardBytes);
  const std::vector<uint8_t> guard(kGuardBytes, kPoisonByte);
  b.copy_from_host(guard.data(), kGuardBytes, 0);
  if (n) b.copy_from_host(a.bytes.data(), n, kGuardBytes);
  b.copy_from_host(guard.data(), kGuardBytes, kGuardBytes + n);
  return b;
}

// Describes a guard zone that does not hold poison any more, or returns "".
std::string check_guards(const Buffer& b, const HostArray& a) {
  std::vector<uint8_t> front(kGuardBytes), back(kGuardBytes);
  b.copy_to_host(front.data(), kGuardBytes, 0);
  b.copy_to_host(back.data(), kGuardBytes, kGuardBytes + a.byte_size());
  size_t before = 0, after = 0;
  for (size_t i = 0; i < kGuardBytes; ++i) {
    before += front[i] != kPoisonByte;
    after += back[i] != kPoisonByte;
  }
  if (!before && !after) return "";
  return fmt::format("out-of-bounds write: {} guard bytes changed before and {} after array '{}'", before,
                     after, a.name);
}

std::vector<Arg> make_args(const Problem& pb, const std::vector<Buffer>& bufs) {
  std::vector<Arg> args;
  for (const LaunchArg& a : pb.args) {
    switch (a.kind) {
      case LaunchArg::Kind::Buffer:
        args.push_back(Arg::ptr(bufs.at(a.buffer), kGuardBytes + a.byte_offset));
        break;
      case LaunchArg::Kind::Int: args.emplace_back(a.i); break;
      case LaunchArg::Kind::Float: args.emplace_back(a.f); break;
    }
  }
  return args;
}

// Downloads the outputs, compares them and checks guards and inputs. Fills r.check etc.
void check_results(const Problem& pb, const std::vector<Buffer>& bufs, CaseResult& r,
                   const std::function<void(const HostArray&)>& on_output) {
  for (size_t i = 0; i < pb.arrays.size(); ++i) {
    const HostArray& a = pb.arrays[i];
    std::string guard = check_guards(bufs[i], a);
    if (!guard.empty()) r.problems.push_back(std::move(guard));
    if (a.is_output) continue;
    std::vector<uint8_t> body(a.byte_size());
    if (!body.empty()) bufs[i].copy_to_host(body.data(), body.size(), kGuardBytes);
    if (body != a.bytes) r.problems.push_back(fmt::format("the kernel modified input array '{}'", a.name));
  }
  bool first = true;
  for (const Expected& e : pb.expected) {
    HostArray got = pb.arrays.at(e.buffer);
    if (got.byte_size()) bufs[e.buffer].copy_to_host(got.bytes.data(), got.byte_size(), kGuardBytes);
    if (on_output) on_output(got);
    const CheckResult c = check_output(got.to_double(), e.ref, e.mag, e.tol);
    r.outputs.push_back(OutputCheck{got.name, e.tol, c});
    if (first || c.worst_ratio > r.check.worst_ratio) {
      r.worst_output = got.name;
      r.worst_tolerance = e.tol.reason;
    }
    if (first) r.check = c;
    else merge_check(r.check, c);
    first = false;
  }
}

// The baseline's outputs checked against the case's references; "" when all are within
// their tolerances, else why not.
std::string check_baseline(const Case& c, const Problem& pb, std::vector<HostArray>& host) {
  try {
    c.run_baseline(host);
  } catch (const std::exception& e) {
    return std::string("the baseline failed: ") + e.what();
  }
  for (const Expected& e : pb.expected) {
    const CheckResult cr = check_output(host.at(e.buffer).to_double(), e.ref, e.mag, e.tol);
    if (!cr.passed())
      return fmt::format("the baseline's output '{}' is outside the case's tolerance (worst error / tolerance {:.3g})",
                         host.at(e.buffer).name, cr.worst_ratio);
  }
  return "";
}

int buffer_sets_for(const Problem& pb, int64_t llc_bytes, Comparison& cmp);

// The figures of an interleaved timing: the rounds, each arm's samples, the speed-up and the
// noise floor (bootstrap seeded from the case id), tritium's samples as the case's timing.
void record_rounds(const InterleavedTiming& t, const std::string& id, Comparison& cmp, TimingResult& tritium_timing) {
  cmp.rounds = t.rounds;
  cmp.baseline_timing = t.b;
  cmp.again = t.a2;
  const uint64_t seed = seed_from(id);
  cmp.speedup = paired_ratio(t.b.samples, t.a.samples, seed);
  cmp.noise = paired_ratio(t.a2.samples, t.a.samples, seed + 1);
  tritium_timing = t.a;
}

// Times the kernel interleaved with the case's baseline (stats.h): every call takes the
// next of enough copies of the arrays to span twice the last-level cache (buffer_sets_for),
// so no call reads what the calls before it left in the cache.
Comparison compare_with_baseline(const Case& c, const Problem& pb, const CompiledKernel& k, const Grid& grid,
                                 const std::vector<Arg>& args, ExecContext& ctx, const TimingPlan& plan,
                                 TimingResult& tritium_timing) {
  Comparison cmp;
  cmp.baseline = c.baseline;
  std::vector<std::vector<HostArray>> host(1, pb.arrays);
  cmp.problem = check_baseline(c, pb, host[0]);
  if (!cmp.problem.empty()) return cmp;
  cmp.baseline_ok = true;
  const int sets = buffer_sets_for(pb, ctx.llc_bytes, cmp);
  std::vector<std::vector<Buffer>> dbufs(static_cast<size_t>(sets - 1));
  std::vector<std::vector<Arg>> dargs{args};
  for (int s = 1; s < sets; ++s) {
    for (const HostArray& a : pb.arrays) dbufs[s - 1].push_back(upload_guarded(*ctx.device, a));
    dargs.push_back(make_args(pb, dbufs[s - 1]));
    host.push_back(pb.arrays);
  }
  size_t call = 0;  // every call, of any arm, takes the next set
  const InterleavedTiming t = time_interleaved(
      [&](Arm arm, int) {
        const size_t s = call++ % static_cast<size_t>(sets);
        if (arm == Arm::B) {
          c.run_baseline(host[s]);
        } else {
          k.launch(grid, dargs[s]);
          ctx.device->synchronize();
        }
      },
      plan);
  record_rounds(t, c.id, cmp, tritium_timing);
  return cmp;
}

// The cuda baseline (Case::run_cuda_baseline) on a fresh set of device arrays (outputs
// poisoned), its outputs downloaded and checked like the kernel's; "" when all are within
// their tolerances, else why not.
std::string check_cuda_baseline(const Case& c, const Problem& pb, ExecContext& ctx) {
  try {
    std::vector<Buffer> bufs;
    std::vector<void*> ptrs;
    for (const HostArray& a : pb.arrays) {
      bufs.push_back(upload_guarded(*ctx.device, a));
      ptrs.push_back(static_cast<char*>(bufs.back().device_ptr()) + kGuardBytes);
    }
    c.run_cuda_baseline(ptrs, ctx.numerics);
    ctx.device->synchronize();
    for (const Expected& e : pb.expected) {
      HostArray got = pb.arrays.at(e.buffer);
      if (got.byte_size()) bufs[e.buffer].copy_to_host(got.bytes.data(), got.byte_size(), kGuardBytes);
      const CheckResult cr = check_output(got.to_double(), e.ref, e.mag, e.tol);
      if (!cr.passed())
        return fmt::format("the baseline's output '{}' is outside the case's tolerance (worst error / tolerance {:.3g})",
                           got.name, cr.worst_ratio);
    }
  } catch (const std::exception& e) {
    return std::string("the baseline failed: ") + e.what();
  }
  return "";
}

// Records buffer_rotation()'s figures for the case's arrays in cmp; returns the set count.
int buffer_sets_for(const Problem& pb, int64_t llc_bytes, Comparison& cmp) {
  int64_t bytes = 0;
  for (const HostArray& a : pb.arrays) bytes += static_cast<int64_t>(a.byte_size());
  const BufferRotation rot = buffer_rotation(bytes, llc_bytes);
  cmp.buffer_sets = rot.sets;
  cmp.set_bytes = bytes;
  cmp.llc_bytes = llc_bytes;
  return rot.sets;
}

// The cuda form of compare_with_baseline: both arms enqueue on the default stream and are
// timed by the device clock (CUDA events), rotating through array sets past the GPU's L2.
Comparison compare_with_cuda_baseline(const Case& c, const Problem& pb, const CompiledKernel& k, const Grid& grid,
                                      const std::vector<Arg>& args, const std::vector<Buffer>& bufs, ExecContext& ctx,
                                      const TimingPlan& plan, TimingResult& tritium_timing) {
  Comparison cmp;
  cmp.baseline = c.cuda_baseline;
  cmp.problem = check_cuda_baseline(c, pb, ctx);
  if (!cmp.problem.empty()) return cmp;
  cmp.baseline_ok = true;
  const int sets = buffer_sets_for(pb, ctx.llc_bytes, cmp);
  std::vector<std::vector<Buffer>> dbufs(static_cast<size_t>(sets - 1));
  std::vector<std::vector<Arg>> dargs{args};
  std::vector<std::vector<void*>> dptrs(static_cast<size_t>(sets));
  for (const Buffer& b : bufs) dptrs[0].push_back(static_cast<char*>(b.device_ptr()) + kGuardBytes);
  for (int s = 1; s < sets; ++s) {
    for (const HostArray& a : pb.arrays) {
      dbufs[s - 1].push_back(upload_guarded(*ctx.device, a));
      dptrs[s].push_back(static_cast<char*>(dbufs[s - 1].back().device_ptr()) + kGuardBytes);
    }
    dargs.push_back(make_args(pb, dbufs[s - 1]));
  }
  DeviceClock& clock = *ctx.clock;
  size_t call = 0;  // every call, of any arm, takes the next set
  const InterleavedTiming t = time_interleaved_measured(
      [&](Arm arm, int) {
        const size_t s = call++ % static_cast<size_t>(sets);
        if (arm == Arm::B) return clock.time([&] { c.run_cuda_baseline(dptrs[s], ctx.numerics); });
        return clock.time([&] { k.launch_async(grid, dargs[s]); });
      },
      plan);
  record_rounds(t, c.id, cmp, tritium_timing);
  return cmp;
}

}  // namespace

BufferRotation buffer_rotation(int64_t set_bytes, int64_t llc_bytes) {
  BufferRotation r;
  if (llc_bytes <= 0 || set_bytes <= 0) return r;
  const int64_t cap = std::min<int64_t>(kMaxBufferSets, std::max<int64_t>(1, kMaxBufferSetBytes / set_bytes));
  const int64_t want = (2 * llc_bytes + set_bytes - 1) / set_bytes;
  r.sets = static_cast<int>(std::clamp<int64_t>(want, 1, cap));
  r.cache_cold = static_cast<int64_t>(r.sets) * set_bytes >= 2 * llc_bytes;
  return r;
}

std::string default_kernels_dir() {
  if (const char* env = std::getenv("TRITIUM_KERNELS_DIR"); env && *env) return env;
#ifdef TRITIUM_SOURCE_DIR
  return std::string(TRITIUM_SOURCE_DIR) + "/kernels";
#else
  return "kernels";
#endif
}

CaseResult run_case(const Case& c, ExecContext& ctx) {
  CaseResult r;
  r.info = c;
  r.info.make = nullptr;
  r.backend = ctx.device->name();
  auto stage = [&](const char* s) {
    if (ctx.progress) ctx.progress(s);
  };
  try {
    stage("setup");
    auto t0 = std::chrono::steady_clock::now();
    const Problem pb = c.make(ctx.numerics);
    r.setup_s = seconds_since(t0);

    stage("compile");
    t0 = std::chrono::steady_clock::now();
    auto it = ctx.modules.find(c.file);
    if (it == ctx.modules.end())
      it = ctx.modules.emplace(c.file, Module::from_file(ctx.kernels_dir + "/" + c.file)).first;
    const CompiledKernel k = it->second.kernel(c.function).compile(*ctx.device, c.signature, ctx.options);
    r.compile_s = seconds_since(t0);

    stage("check");
    std::vector<Buffer> bufs;
    for (const HostArray& a : pb.arrays) bufs.push_back(upload_guarded(*ctx.device, a));
    const std::vector<Arg> args = make_args(pb, bufs);
    const Grid grid(c.grid[0], c.grid[1], c.grid[2]);
    t0 = std::chrono::steady_clock::now();
    k.launch(grid, args);
    ctx.device->synchronize();
    const double first_launch_s = seconds_since(t0);
    check_results(pb, bufs, r, ctx.on_output);
    r.passed = r.check.passed() && r.problems.empty();
    if (!r.passed || !ctx.time) return r;

    stage("time");
    TimingPlan plan = ctx.plan;
    // Automatic mode on a slow case: the checked launch already warmed everything up.
    if (plan.budget_s > 0 && first_launch_s > plan.budget_s / 4) plan.warmup = 0, plan.warmup_s = 0;
    const bool on_cuda = ctx.device->name() == "cuda";
    if (!ctx.clock) ctx.clock = clock_for(*ctx.device);
    if (ctx.compare && (on_cuda ? bool(c.run_cuda_baseline) : bool(c.run_baseline))) {
      r.compared = true;
      r.comparison = on_cuda ? compare_with_cuda_baseline(c, pb, k, grid, args, bufs, ctx, plan, r.timing)
                             : compare_with_baseline(c, pb, k, grid, args, ctx, plan, r.timing);
      r.timed = r.comparison.baseline_ok;
    }
    if (!r.timed) {
      if (on_cuda)  // the GPU's own clock: CUDA events around each launch
        r.timing = time_launches_measured([&] { return ctx.clock->time([&] { k.launch_async(grid, args); }); }, plan);
      else
        r.timing = time_launches([&] { k.launch(grid, args); }, [&] { ctx.device->synchronize(); }, plan);
      r.timed = true;
    }
    const CeilingGrid cg = ctx.cache_ceiling ? ceiling_grid(c, ctx.llc_bytes, ctx.threads) : CeilingGrid{};
    if (cg.ok) {  // the same arrays, fewer programs: after the first launch they stay in the cache
      stage("ceiling");
      const Grid large(cg.grid[0], cg.grid[1], cg.grid[2]), small(cg.small_x, cg.grid[1], cg.grid[2]);
      const InterleavedTiming t = time_interleaved(
          [&](Arm arm, int) {
            k.launch(arm == Arm::B ? small : large, args);
            ctx.device->synchronize();
          },
          plan);
      r.has_ceiling = true;
      r.ceiling_grid = cg.grid;
      r.ceiling_bytes = cg.bytes;
      r.ceiling_timing = t.a;
      r.ceiling_small_x = cg.small_x;
      r.ceiling_small_bytes = cg.small_bytes;
      r.ceiling_small_timing = t.b;
    }
  } catch (const std::exception& e) {
    r.passed = false;
    r.error = e.what();
  }
  return r;
}

}  // namespace tritium::bench
