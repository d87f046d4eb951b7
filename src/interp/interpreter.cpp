// The interpreter's driver: the launch (grid, arguments, threads), structured control flow,
// calls, and the op dispatch. Op semantics live in the interp_*.cpp files (interp_ops.h).
#include "interp/interpreter.h"

#include <fmt/format.h>

#include <exception>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "frontend/source.h"
#include "interp/interp_ops.h"
#include "ir/verifier.h"

namespace tritium::interp {

using ir::OpKind;
using ir::ScalarType;

void refuse(const ir::Op& op, const std::string& msg) {
  throw frontend::CompileError(op.loc, fmt::format("interpreter cannot execute '{}': {}", op.name(), msg));
}

uint64_t poison_bits(ScalarType t, bool is_ptr) {
  if (is_ptr) return 0xDEADBEEFDEADBEEFull;
  switch (t) {
    case ScalarType::F16: return 0x7EAD;
    case ScalarType::BF16: return 0x7FDE;
    case ScalarType::F32: return 0x7FDEADBEull;
    case ScalarType::F64: return 0x7FFDEADBEEFDEADBull;
    case ScalarType::F8E4NV: case ScalarType::F8E5: case ScalarType::F8E4B15: return 0x7F;
    case ScalarType::I1: return 1;
    default: {
      const int w = ir::bitwidth(t);
      return w == 64 ? 0xDEADBEEFDEADBEEFull : (0xDEADBEEFDEADBEEFull & ((1ull << w) - 1ull));
    }
  }
}

namespace {

/// State shared by every program of one run() (and by the threads executing them).
struct Launch {
  const ir::Module* module = nullptr;
  const ir::Function* kernel = nullptr;
  const Options* options = nullptr;
  std::array<int32_t, 3> grid{};
  const std::vector<tritium_arg>* args = nullptr;
  std::mutex print_mutex;
  std::mutex atomic_mutex;
  bool parallel = false;
};

/// Values of one function invocation, indexed by ir::Value::id.
struct Frame {
  std::vector<Val> vals;
  std::vector<Val> returned;  ///< operands of the `return` that ended the invocation
  explicit Frame(const ir::Function& fn) : vals(fn.value_count()) {}
  const Val& get(const ir::Op& op, const ir::Value* v) const {
    if (v->id >= vals.size() || !vals[v->id].defined())
      refuse(op, fmt::format("operand %{} has no value (not dominating its use?)", v->id));
    return vals[v->id];
  }
  void set(const ir::Value* v, Val x) {
    if (v->id >= vals.size()) vals.resize(v->id + 1);
    vals[v->id] = std::move(x);
  }
};

enum class Flow { kNext, kReturn };

/// Executes programs of one launch; one Executor per thread.
class Executor {
 public:
  explicit Executor(Launch& l) : l_(l) { mc_.options = l.options; mc_.atomic_mutex = l.parallel ? &l.atomic_mutex : nullptr; }

  /// Runs program `pid`; returns the assert failures it recorded (empty if none).
  std::vector<std::string> run_program(const std::array<int32_t, 3>& pid) {
    pid_ = pid;
    failures_.clear();
    const ir::Function& fn = *l_.kernel;
    Frame frame(fn);
    for (size_t i = 0; i < fn.body.args.size(); ++i) frame.set(fn.body.args[i], arg_value(fn.body.args[i]->type, (*l_.args)[i]));
    exec_block(fn.body, frame, nullptr);
    return std::move(failures_);
  }

 private:
  Launch& l_;
  MemoryContext mc_;
  std::array<int32_t, 3> pid_{};
  std::vector<std::string> failures_;
  int call_depth_ = 0;

  Val arg_value(const ir::Type& t, const tritium_arg& a) const {
    if (t.is_tensor()) throw std::invalid_argument("interpreter: kernel parameter of tensor type " + t.str());
    if (t.is_ptr) return scalar_from_bits(t.scalar, true, reinterpret_cast<uint64_t>(a.ptr));
    switch (t.scalar) {
      case ScalarType::F32: return scalar_from_bits(t.scalar, false, bits_of(a.f32));
      case ScalarType::F64: return scalar_from_bits(t.scalar, false, bits_of(a.f64));
      case ScalarType::I1: return scalar_from_bits(t.scalar, false, a.u64 != 0);
      default: return scalar_from_bits(t.scalar, false, a.u64);  // truncated to the width
    }
  }

  /// Runs `b`; a terminator's operands go to *term (yield/condition/return).
  Flow exec_block(const ir::Block& b, Frame& f, std::vector<Val>* term) {
    for (const auto& op : b.ops) {
      switch (op->kind) {
        case OpKind::Yield: case OpKind::Condition: case OpKind::Return:
          if (op->kind == OpKind::Return) {
            f.returned.clear();
            for (const ir::Value* v : op->operands) f.returned.push_back(f.get(*op, v));
            return Flow::kReturn;
          }
          if (term) {
            term->clear();
            for (const ir::Value* v : op->operands) term->push_back(f.get(*op, v));
          }
          return Flow::kNext;
        default:
          if (exec_op(*op, f) == Flow::kReturn) return Flow::kReturn;
      }
    }
    return Flow::kNext;
  }

  /// Runs a region's block with arguments `args`; returns its terminator's operands.
  Flow run_region(const ir::Op& op, const ir::Block& b, Frame& f, const std::vector<Val>& args, std::vector<Val>& out) {
    if (args.size() != b.args.size()) refuse(op, "region argument count mismatch");
    for (size_t i = 0; i < args.size(); ++i) f.set(b.args[i], args[i]);
    return exec_block(b, f, &out);
  }

  void set_results(const ir::Op& op, Frame& f, std::vector<Val> vals) {
    if (vals.size() != op.results.size())
      refuse(op, fmt::format("{} values for {} results", vals.size(), op.results.size()));
    for (size_t i = 0; i < vals.size(); ++i) f.set(op.results[i], std::move(vals[i]));
  }

  Flow exec_for(const ir::Op& op, Frame& f) {
    const Val& lbv = f.get(op, op.operands[0]);
    const Val& ubv = f.get(op, op.operands[1]);
    const Val& stv = f.get(op, op.operands[2]);
    const ir::Type ivt = op.body().args.at(0)->type;
    const bool sgn = is_signed(ivt.scalar);
    const int64_t lb = load_int(lbv, 0), ub = load_int(ubv, 0), step = load_int(stv, 0);
    // Trip count computed once (in 128-bit arithmetic: no overflow for any width).
    const __int128 l = sgn ? __int128(lb) : __int128(static_cast<uint64_t>(lb));
    const __int128 u = sgn ? __int128(ub) : __int128(static_cast<uint64_t>(ub));
    const __int128 s = sgn ? __int128(step) : __int128(static_cast<uint64_t>(step));
    __int128 trips = 0;
    if (l < u) {
      if (s <= 0) refuse(op, fmt::format("loop step must be positive at run time (got {})", step));
      trips = (u - l + s - 1) / s;
    }
    std::vector<Val> iters;
    for (size_t i = 3; i < op.operands.size(); ++i) iters.push_back(f.get(op, op.operands[i]));
    std::vector<Val> args(iters.size() + 1), out;
    for (__int128 k = 0; k < trips; ++k) {
      const __int128 iv = l + k * s;
      args[0] = scalar_from_bits(ivt.scalar, false, static_cast<uint64_t>(iv));
      for (size_t i = 0; i < iters.size(); ++i) args[i + 1] = std::move(iters[i]);
      if (run_region(op, op.body(), f, args, out) == Flow::kReturn) return Flow::kReturn;
      if (out.size() != iters.size()) refuse(op, "loop body yields the wrong number of values");
      iters = std::move(out);
      out.clear();
    }
    set_results(op, f, std::move(iters));
    return Flow::kNext;
  }

  Flow exec_if(const ir::Op& op, Frame& f) {
    const bool c = load_bits(f.get(op, op.operands[0]), 0) != 0;
    const size_t region = c ? 0 : 1;
    std::vector<Val> out;
    if (region < op.regions.size()) {
      if (exec_block(op.body(region), f, &out) == Flow::kReturn) return Flow::kReturn;
    }
    set_results(op, f, std::move(out));
    return Flow::kNext;
  }

  Flow exec_while(const ir::Op& op, Frame& f) {
    std::vector<Val> args;
    for (const ir::Value* v : op.operands) args.push_back(f.get(op, v));
    std::vector<Val> cond_out, after_out;
    for (;;) {
      if (run_region(op, op.body(0), f, args, cond_out) == Flow::kReturn) return Flow::kReturn;
      if (cond_out.empty()) refuse(op, "'before' region must end in condition");
      const bool c = load_bits(cond_out[0], 0) != 0;
      std::vector<Val> vals(cond_out.begin() + 1, cond_out.end());
      if (!c) {
        set_results(op, f, std::move(vals));
        return Flow::kNext;
      }
      if (run_region(op, op.body(1), f, vals, after_out) == Flow::kReturn) return Flow::kReturn;
      args = std::move(after_out);
      after_out.clear();
    }
  }

  Flow exec_call(const ir::Op& op, Frame& f) {
    const std::string callee_name = op.attr_str("callee");
    const ir::Function* callee = l_.module->find(callee_name);
    if (!callee) refuse(op, "unknown callee '" + callee_name + "'");
    if (callee->body.args.size() != op.operands.size()) refuse(op, "argument count differs from @" + callee_name);
    if (call_depth_ > 256) refuse(op, "call depth exceeds 256 (recursion?)");
    Frame cf(*callee);
    for (size_t i = 0; i < op.operands.size(); ++i) cf.set(callee->body.args[i], f.get(op, op.operands[i]));
    ++call_depth_;
    exec_block(callee->body, cf, nullptr);
    --call_depth_;
    set_results(op, f, std::move(cf.returned));
    return Flow::kNext;
  }

  void exec_reduce_or_scan(const ir::Op& op, Frame& f) {
    std::vector<Val> operands;
    for (const ir::Value* v : op.operands) operands.push_back(f.get(op, v));
    const ir::Block& region = op.body();
    RegionFn combine = [&](const std::vector<Val>& args) {
      std::vector<Val> out;
      if (run_region(op, region, f, args, out) == Flow::kReturn) refuse(op, "return inside a combine region");
      return out;
    };
    const bool batched = region_is_elementwise(region);
    set_results(op, f, op.kind == OpKind::Reduce ? eval_reduce(op, operands, combine, batched)
                                                 : eval_scan(op, operands, combine, batched));
  }

  // tl.map_elementwise: the region once over whole tensors when it is plain elementwise
  // arithmetic (same values), else once per element with scalar arguments.
  void exec_map(const ir::Op& op, Frame& f) {
    std::vector<Val> operands;
    for (const ir::Value* v : op.operands) operands.push_back(f.get(op, v));
    const ir::Block& region = op.body();
    auto run = [&](const std::vector<Val>& args) {
      std::vector<Val> out;
      if (run_region(op, region, f, args, out) == Flow::kReturn) refuse(op, "return inside a map_elementwise region");
      if (out.size() != op.results.size()) refuse(op, "map_elementwise region yields the wrong number of values");
      return out;
    };
    const int64_t n = operands[0].numel;
    std::vector<Val> results;
    for (const ir::Value* r : op.results) results.push_back(Val::of_type(r->type));
    for (int64_t i = 0; i < n; ++i) {
      std::vector<Val> args;
      for (size_t k = 0; k < operands.size(); ++k) {
        Val a = Val::of_type(region.args[k]->type);
        store_bits(a, 0, load_bits(operands[k], i));
        args.push_back(std::move(a));
      }
      std::vector<Val> out = run(args);
      for (size_t k = 0; k < out.size(); ++k) {
        if (out[k].numel != 1 || out[k].scalar != results[k].scalar)
          refuse(op, "map_elementwise region yields a value of another type");
        store_bits(results[k], i, load_bits(out[k], 0));
      }
    }
    set_results(op, f, std::move(results));
  }

  void exec_assert(const ir::Op& op, Frame& f) {
    if (!l_.options->debug) return;
    const Val& c = f.get(op, op.operands[0]);
    for (int64_t i = 0; i < c.numel; ++i)
      if (load_bits(c, i) == 0) {
        failures_.push_back(format_assert_failure(op, l_.kernel->name, pid_));
        return;
      }
  }

  void exec_print(const ir::Op& op, Frame& f) {
    std::vector<const Val*> vals;
    for (const ir::Value* v : op.operands) vals.push_back(&f.get(op, v));
    const std::vector<std::string> lines = format_print(op, vals, pid_);
    std::lock_guard<std::mutex> lock(l_.print_mutex);
    for (const std::string& line : lines) {
      if (l_.options->print) l_.options->print(line);
      else std::cerr << line << '\n';
    }
  }

  Flow exec_op(const ir::Op& op, Frame& f) {
    auto in = [&](int i) -> const Val& { return f.get(op, op.operands.at(i)); };
    auto opt = [&](int i) -> const Val* { return i < static_cast<int>(op.operands.size()) ? &in(i) : nullptr; };
    auto res = [&](Val v) { f.set(op.results.at(0), std::move(v)); };
    switch (op.kind) {
      case OpKind::Constant: res(eval_constant(op)); break;
      case OpKind::ProgramId: case OpKind::NumPrograms: {
        const int64_t axis = op.attr_int("axis");
        if (axis < 0 || axis > 2) refuse(op, "axis must be 0, 1 or 2");
        const int32_t v = op.kind == OpKind::ProgramId ? pid_[axis] : l_.grid[axis];
        res(scalar_from_bits(ScalarType::I32, false, static_cast<uint32_t>(v)));
        break;
      }
      case OpKind::MakeRange: res(eval_make_range(op)); break;
      case OpKind::Undef: {
        const ir::Type& t = op.results.at(0)->type;
        res(filled(t.scalar, t.is_ptr, t.shape, poison_bits(t.scalar, t.is_ptr)));
        break;
      }
      case OpKind::Splat: res(eval_splat(op, in(0))); break;
      case OpKind::Broadcast: res(eval_broadcast(op, in(0))); break;
      case OpKind::ExpandDims: case OpKind::Reshape: {
        const ir::Type& t = op.results.at(0)->type;
        if (t.numel() != in(0).numel) refuse(op, "element count changes");
        res(in(0).reshaped(t.shape));
        break;
      }
      case OpKind::Trans: res(eval_trans(op, in(0))); break;
      case OpKind::Flip: res(eval_flip(op, in(0))); break;
      case OpKind::Sort: res(eval_sort(op, in(0))); break;
      case OpKind::Join: res(eval_join(op, in(0), in(1))); break;
      case OpKind::Split: {
        auto [lo, hi] = eval_split(op, in(0));
        set_results(op, f, {std::move(lo), std::move(hi)});
        break;
      }
      case OpKind::Cat: res(eval_cat(op, in(0), in(1))); break;
      case OpKind::Gather: res(eval_gather(op, in(0), in(1))); break;
      case OpKind::Histogram: res(eval_histogram(op, in(0), opt(1))); break;
      case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::IDiv:
      case OpKind::Rem: case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl:
      case OpKind::Shr: case OpKind::Min: case OpKind::Max: case OpKind::Cmp:
        res(eval_binary(op, in(0), in(1)));
        break;
      case OpKind::Neg: case OpKind::Not: res(eval_unary(op, in(0))); break;
      case OpKind::Math: {
        std::vector<const Val*> args;
        for (size_t i = 0; i < op.operands.size(); ++i) args.push_back(&in(static_cast<int>(i)));
        res(eval_math(op, args));
        break;
      }
      case OpKind::Select: res(eval_select(op, in(0), in(1), in(2))); break;
      case OpKind::Cast: res(eval_cast(op, in(0))); break;
      case OpKind::Bitcast: case OpKind::PtrToInt: case OpKind::IntToPtr: res(eval_bitcast(op, in(0))); break;
      case OpKind::AddPtr: res(eval_addptr(op, in(0), in(1))); break;
      case OpKind::Load: res(eval_load(op, in(0), opt(1), opt(2), mc_)); break;
      case OpKind::Store: eval_store(op, in(0), in(1), opt(2)); break;
      case OpKind::AtomicRMW: res(eval_atomic_rmw(op, in(0), in(1), opt(2), mc_)); break;
      case OpKind::AtomicCAS: res(eval_atomic_cas(op, in(0), in(1), in(2), mc_)); break;
      case OpKind::Dot: res(eval_dot(op, in(0), in(1), in(2))); break;
      case OpKind::Reduce: case OpKind::Scan: exec_reduce_or_scan(op, f); break;
      case OpKind::MapElementwise: exec_map(op, f); break;
      case OpKind::For: return exec_for(op, f);
      case OpKind::If: return exec_if(op, f);
      case OpKind::While: return exec_while(op, f);
      case OpKind::Call: return exec_call(op, f);
      case OpKind::Condition: case OpKind::Yield: case OpKind::Return:
        refuse(op, "terminator in the middle of a block");
      case OpKind::Assert: exec_assert(op, f); break;
      case OpKind::Print: exec_print(op, f); break;
      case OpKind::Barrier: break;  // programs run one after another: nothing to wait for
      case OpKind::Hint: res(in(0)); break;
    }
    return Flow::kNext;
  }
};

std::array<int32_t, 3> pid_of(int64_t linear, const std::array<int32_t, 3>& grid) {
  return {static_cast<int32_t>(linear % grid[0]), static_cast<int32_t>((linear / grid[0]) % grid[1]),
          static_cast<int32_t>(linear / (int64_t(grid[0]) * grid[1]))};
}

}  // namespace

void run(const ir::Module& m, const std::array<int32_t, 3>& grid, const std::vector<tritium_arg>& args,
         const Options& options) {
  const ir::Function* kernel = nullptr;
  for (const auto& fn : m.functions)
    if (fn->is_kernel) {
      kernel = fn.get();
      break;
    }
  if (!kernel) throw std::invalid_argument("interpreter: the module has no kernel function");
  for (const auto& fn : m.functions) ir::verify_or_throw(*fn, &m);
  if (args.size() != kernel->body.args.size())
    throw std::invalid_argument(fmt::format("interpreter: kernel @{} takes {} arguments, {} given", kernel->name,
                                            kernel->body.args.size(), args.size()));
  for (int32_t g : grid)
    if (g < 0) throw std::invalid_argument("interpreter: negative grid dimension");
  const int64_t total = int64_t(grid[0]) * grid[1] * grid[2];
  if (total == 0) return;

  Launch l;
  l.module = &m;
  l.kernel = kernel;
  l.options = &options;
  l.grid = grid;
  l.args = &args;
  const int threads = static_cast<int>(std::min<int64_t>(std::max(1, options.num_threads), total));
  l.parallel = threads > 1;

  if (!l.parallel) {
    Executor ex(l);
    for (int64_t p = 0; p < total; ++p) {
      std::vector<std::string> failures = ex.run_program(pid_of(p, grid));
      if (!failures.empty()) throw std::runtime_error(failures.front());
    }
    return;
  }

  // Parallel: contiguous chunks of programs per thread. The failure reported is the one of
  // the lowest failing program (deterministic); an exception stops the other threads early.
  std::mutex mu;
  int64_t first_failed = total;
  std::string failure;
  std::exception_ptr error;
  int64_t error_program = total;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    const int64_t lo = total * t / threads, hi = total * (t + 1) / threads;
    pool.emplace_back([&, lo, hi] {
      Executor ex(l);
      for (int64_t p = lo; p < hi; ++p) {
        {
          std::lock_guard<std::mutex> lock(mu);
          if (p > first_failed || p > error_program) return;
        }
        try {
          std::vector<std::string> failures = ex.run_program(pid_of(p, grid));
          if (!failures.empty()) {
            std::lock_guard<std::mutex> lock(mu);
            if (p < first_failed) {
              first_failed = p;
              failure = failures.front();
            }
            return;
          }
        } catch (...) {
          std::lock_guard<std::mutex> lock(mu);
          if (p < error_program) {
            error_program = p;
            error = std::current_exception();
          }
          return;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  if (error && error_program < first_failed) std::rethrow_exception(error);
  if (first_failed < total) throw std::runtime_error(failure);
  if (error) std::rethrow_exception(error);
}

}  // namespace tritium::interp
