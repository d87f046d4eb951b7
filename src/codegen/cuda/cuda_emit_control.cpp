// CUDA renderer: structured control flow (for / if / while), tl.map_elementwise and the
// debugging ops. Scalars are uniform over the block, so every branch and trip count is
// the same in all threads (barriers inside them are safe). Loop-carried values, if results
// and while values get storage declared before the construct (arrays in the result's
// layout); terminators assign to it, for loops in two phases (a yielded value may read the
// storage it replaces).
#include <fmt/format.h>

#include <cmath>
#include <functional>

#include "codegen/cuda/cuda_emitter.h"
#include "passes/known_positive.h"

namespace tritium::codegen::cuda {

using ir::Op;
using ir::OpKind;
using ir::ScalarType;
using ir::Value;

namespace {
bool writes_memory(const ir::Block& b) {
  for (const auto& op : b.ops) {
    if (op->kind == OpKind::Store || op->kind == OpKind::AtomicRMW || op->kind == OpKind::AtomicCAS) return true;
    for (const auto& r : op->regions)
      if (writes_memory(r->block)) return true;
  }
  return false;
}
}  // namespace

void Emitter::flush_before_loop(const ir::Block& body) {
  // Stores before a loop whose body accesses memory: one barrier here, not one per iteration.
  bool stored = false;
  for (const Access& a : accesses_) stored = stored || a.store;
  if (!stored) return;
  bool touches = false;
  std::function<void(const ir::Block&)> walk = [&](const ir::Block& b) {
    for (const auto& op : b.ops) {
      touches = touches || op->kind == OpKind::Load || op->kind == OpKind::Store || op->kind == OpKind::AtomicRMW ||
                op->kind == OpKind::AtomicCAS;
      for (const auto& r : op->regions) walk(r->block);
    }
  };
  walk(body);
  if (!touches) return;
  barrier("this program's earlier stores are done before the loop");
  accesses_.clear();
}

void Emitter::note_accesses_of(const ir::Block& b, const std::string& guard) {
  for (const auto& op : b.ops) {
    const bool st = op->kind == OpKind::Store || op->kind == OpKind::AtomicRMW || op->kind == OpKind::AtomicCAS;
    if (st || op->kind == OpKind::Load) accesses_.push_back(Access{st, nullptr, "", true, false, guard});
    for (const auto& r : op->regions) note_accesses_of(r->block, guard);
  }
}

void Emitter::emit_for(const Op& op) {
  const ir::Block& body = op.body();
  const size_t n = op.results.size();
  if (body.args.size() != n + 1 || op.operands.size() != n + 3) refuse(op, "malformed for");
  const ir::Type& ivt = body.args[0]->type;
  if (!ivt.is_int() || !ivt.is_scalar()) refuse(op, "induction variable must be a scalar integer");
  std::vector<std::string> carried(n);
  for (size_t k = 0; k < n; ++k) {
    carried[k] = declare_like(op.results[k], "c");
    const LinearLayout* l = op.results[k]->type.is_tensor() ? &layout_of(op.results[k]) : nullptr;
    assign(carried[k], op.operands[3 + k], l);
    if (l) {
      bind_array(op.results[k], carried[k]);
      bind_array(body.args[k + 1], carried[k]);
    } else {
      bind_scalar(op.results[k], carried[k]);
      bind_scalar(body.args[k + 1], carried[k]);
    }
  }
  // The trip count is computed once (as the interpreter does): iv = lb + k*step for
  // k < ceil((ub - lb) / step) when lb < ub, comparing by the iv type's signedness; a
  // non-positive step with lb < ub is a run-time error.
  const bool sgn = ir::is_signed_int(ivt.scalar);
  const char* wide = sgn ? "int64_t" : "uint64_t";
  std::string lb = fresh("lb"), ub = fresh("ub"), st = fresh("st"), trips = fresh("trips"), k = fresh("k");
  line(fmt::format("const {0} {1} = ({0}){2}, {3} = ({0}){4}, {5} = ({0}){6};", wide, lb, scalar(op.operands[0]), ub,
                   scalar(op.operands[1]), st, scalar(op.operands[2])));
  // The trip count of an iv of 32 bits or fewer is below 2^32: a 32-bit counter then.
  const bool narrow = ir::byte_size(ivt.scalar) <= 4;
  const char* ctr = narrow ? "uint32_t" : "uint64_t";
  line(fmt::format("{} {} = 0;", ctr, trips));
  open(fmt::format("if ({} < {})", lb, ub));
  if (!passes::known_positive(op.operands[2])) {  // e.g. a run-time step; not tl.num_programs(0)
    open(fmt::format("if ({} <= 0)", st));
    line(fail_statement("error: for loop step must be positive at run time", std::string(op.loc.filename()),
                        op.loc.line));
    line("return;");
    close();
  }
  if (!cuda() && !narrow)  // no 128-bit integers: ceil(d / st) as d / st + (d % st != 0)
    line(fmt::format("{0} = ((uint64_t){1} - (uint64_t){2}) / (uint64_t){3} + (((uint64_t){1} - (uint64_t){2}) % "
                     "(uint64_t){3} != 0);",
                     trips, ub, lb, st));
  else if (narrow)  // ub - lb < 2^32 and st < 2^32: the sum fits 64 bits
    line(fmt::format("{} = (uint32_t)(((uint64_t){} - (uint64_t){} + (uint64_t){} - 1) / (uint64_t){});", trips, ub, lb,
                     st, st));
  else
    line(fmt::format("{} = (uint64_t)(((unsigned __int128)((uint64_t){} - (uint64_t){}) + (uint64_t){} - 1) / (uint64_t){});",
                     trips, ub, lb, st, st));
  close();
  const bool stores = writes_memory(body);
  flush_before_loop(body);
  const PipePlan pp = plan_pipeline(op);  // cuda_emit_pipeline.cpp
  if (pp.ok) pipeline_prologue(op, pp, carried, lb, st, trips);
  const int64_t scratch_before = smem_bytes_;
  if (pp.ok) smem_bytes_ = 0;  // what the body stages in scratch, measured
  open(fmt::format("for ({2} {0} = 0; {0} < {1}; ++{0})", k, trips, ctr));
  if (stores) note_accesses_of(body, k);  // the previous iteration's loads and stores (none when k = 0)
  std::string ivn = fresh("s");
  line(fmt::format("{0} const {1} = ({0})(({2}){3} + {4} * ({2}){5});", cx_.type(ivt), ivn, ctr, lb, k, st));
  bind_scalar(body.args[0], ivn);
  if (pp.ok) pipeline_iteration(op, pp, carried, k, lb, st, trips, ivn);
  terminator_handlers.push_back([&, n](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != n) refuse(op, "loop body must yield the carried values");
    run_pending_prefetch();  // before the carried pointers advance (cuda_emit_pipeline.cpp)
    std::vector<std::string> src(n);
    for (size_t j = 0; j < n; ++j) {  // phase 1: every new value
      const Value* v = y.operands[j];
      if (v == body.args[j + 1]) continue;
      if (v->type.is_tensor()) {  // computed in place in the carried storage (an in-flight wgmma)
        auto it = arrays_.find(v);
        if (it != arrays_.end() && it->second == carried[j]) continue;
      }
      src[j] = declare_like(op.results[j], "n");
      assign(src[j], v, v->type.is_tensor() ? &layout_of(op.results[j]) : nullptr);
    }
    for (size_t j = 0; j < n; ++j) {  // phase 2: into the carried storage
      if (src[j].empty()) continue;
      if (op.results[j]->type.is_scalar()) {
        line(fmt::format("{} = {};", carried[j], src[j]));
      } else {
        for (int64_t r = 0; r < layout_of(op.results[j]).size(HwDim::Register); ++r)
          line(fmt::format("{}[{}] = {}[{}];", carried[j], r, src[j], r));
      }
    }
  });
  emit_block(body);
  terminator_handlers.pop_back();
  close();
  if (pp.ok) {
    pipeline_epilogue(pp);
    if (smem_bytes_ > 0) ring_scratch_disjoint_ = true;
    smem_bytes_ = std::max(smem_bytes_, scratch_before);
  }
  if (stores) note_accesses_of(body);
}

void Emitter::emit_if(const Op& op) {
  if (op.regions.size() != 2) refuse(op, "if needs then and else regions");
  const size_t n = op.results.size();
  std::vector<std::string> res(n);
  for (size_t k = 0; k < n; ++k) {
    res[k] = declare_like(op.results[k], "r");
    if (op.results[k]->type.is_tensor()) bind_array(op.results[k], res[k]);
    else bind_scalar(op.results[k], res[k]);
  }
  auto handler = [&, n](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != n) refuse(op, "branch must yield the if's results");
    for (size_t k = 0; k < n; ++k)
      assign(res[k], y.operands[k], op.results[k]->type.is_tensor() ? &layout_of(op.results[k]) : nullptr);
  };
  const std::vector<Access> before_if = accesses_;  // each branch starts from these
  const int barriers_before = barriers_;
  open(fmt::format("if ({})", scalar(op.operands[0])));
  terminator_handlers.push_back(handler);
  emit_block(op.body(0));
  terminator_handlers.pop_back();
  close();
  const std::vector<Access> after_then = accesses_;
  accesses_ = before_if;
  open("else");
  terminator_handlers.push_back(handler);
  emit_block(op.body(1));
  terminator_handlers.pop_back();
  close();
  accesses_.insert(accesses_.end(), after_then.begin(), after_then.end());  // either may have run
  // OpenCL: a work-group barrier inside an if (a scan, a layout conversion, ... in a branch)
  // is legal when the condition is uniform, as here, but PoCL's work-item loops miscompile
  // some (a scan in a branch read other replicas' local memory: fuzz regression
  // opencl_scan_in_if.json; pocl issues 1167 and 2239 describe the family). The work-group
  // shape is refused, so the serial shape (one work-item per program, no barriers) runs.
  if (opencl() && barriers_ != barriers_before)
    throw SimtUnsupported(op.loc, "a work-group barrier inside an if (a scan, reduction or layout conversion in a "
                                  "branch), which OpenCL implementations such as PoCL miscompile");
}

void Emitter::emit_while(const Op& op) {
  if (op.regions.size() != 2) refuse(op, "while needs before and after regions");
  const ir::Block& before = op.body(0);
  const ir::Block& after = op.body(1);
  const size_t nb = op.operands.size(), na = op.results.size();
  if (before.args.size() != nb || after.args.size() != na) refuse(op, "malformed while");
  std::vector<std::string> wv(nb), rv(na);
  for (size_t k = 0; k < nb; ++k) {
    const Value* a = before.args[k];
    wv[k] = declare_like(a, "w");
    assign(wv[k], op.operands[k], a->type.is_tensor() ? &layout_of(a) : nullptr);
    if (a->type.is_tensor()) bind_array(a, wv[k]);
    else bind_scalar(a, wv[k]);
  }
  for (size_t k = 0; k < na; ++k) {
    rv[k] = declare_like(op.results[k], "r");
    for (const Value* v : {static_cast<const Value*>(op.results[k]), static_cast<const Value*>(after.args[k])}) {
      if (v->type.is_tensor()) bind_array(v, rv[k]);
      else bind_scalar(v, rv[k]);
    }
  }
  const bool stores = writes_memory(before) || writes_memory(after);
  flush_before_loop(before);
  flush_before_loop(after);
  open("for (;;)");
  if (stores) note_accesses_of(before), note_accesses_of(after);
  terminator_handlers.push_back([&, na](const Op& c) {
    if (c.kind != OpKind::Condition || c.operands.size() != na + 1) refuse(op, "before region must end in condition");
    std::string cond = fresh("cond");
    line(fmt::format("const uint8_t {} = {};", cond, scalar(c.operands[0])));
    for (size_t k = 0; k < na; ++k)
      assign(rv[k], c.operands[k + 1], op.results[k]->type.is_tensor() ? &layout_of(op.results[k]) : nullptr);
    line(fmt::format("if (!{}) break;", cond));
  });
  emit_block(before);
  terminator_handlers.pop_back();
  terminator_handlers.push_back([&, nb](const Op& y) {
    if (y.kind != OpKind::Yield || y.operands.size() != nb) refuse(op, "after region must yield the loop values");
    std::vector<std::string> src(nb);
    for (size_t k = 0; k < nb; ++k) {
      src[k] = declare_like(before.args[k], "n");
      assign(src[k], y.operands[k], before.args[k]->type.is_tensor() ? &layout_of(before.args[k]) : nullptr);
    }
    for (size_t k = 0; k < nb; ++k) {
      if (before.args[k]->type.is_scalar()) line(fmt::format("{} = {};", wv[k], src[k]));
      else
        for (int64_t r = 0; r < layout_of(before.args[k]).size(HwDim::Register); ++r)
          line(fmt::format("{}[{}] = {}[{}];", wv[k], r, src[k], r));
    }
  });
  emit_block(after);
  terminator_handlers.pop_back();
  close();
  if (stores) note_accesses_of(before), note_accesses_of(after);
}

void Emitter::emit_map(const Op& op) {
  const ir::Block& body = op.body();
  const size_t N = op.operands.size(), M = op.results.size();
  if (body.args.size() != N) refuse(op, "map_elementwise region must take one scalar per operand");
  const LinearLayout& L = layout_of(op.results[0]);
  for (const Value* r : op.results)
    if (!(layout_of(r) == L)) refuse(op, "map_elementwise results in different layouts");
  const int64_t R = L.size(HwDim::Register);
  std::vector<std::string> out(M);
  for (size_t k = 0; k < M; ++k) out[k] = declare_array(op.results[k]->type, R, "mp");
  for (int64_t r = 0; r < R; ++r) {
    open("");
    for (size_t k = 0; k < N; ++k) {
      std::string a = fresh("ma");
      line(fmt::format("const {} {} = {};", cx_.type(op.operands[k]->type.element()), a, el(op.operands[k], L, r)));
      bind_scalar(body.args[k], a);
    }
    terminator_handlers.push_back([&, r](const Op& y) {
      if (y.kind != OpKind::Yield || y.operands.size() != M) refuse(op, "map_elementwise region must yield one value per result");
      for (size_t k = 0; k < M; ++k) line(fmt::format("{}[{}] = {};", out[k], r, scalar(y.operands[k])));
    });
    emit_block(body);
    terminator_handlers.pop_back();
    close();
  }
  for (size_t k = 0; k < M; ++k) bind_array(op.results[k], out[k]);
}

void Emitter::emit_assert(const Op& op) {
  if (!opts_.debug) {
    line("// device_assert: inactive (not a debug build)");
    return;
  }
  const Value* c = op.operands[0];
  std::string file = op.attr_str("file");
  if (file.empty()) file = std::string(op.loc.filename());
  const int64_t ln = op.has_attr("line") ? op.attr_int("line") : static_cast<int64_t>(op.loc.line);
  const std::string report = fail_statement(op.attr_str("msg"), file, ln);
  if (c->type.is_scalar()) {
    line(fmt::format("if (!{}) {}", scalar(c), report));
    return;
  }
  const LinearLayout& L = layout_of(c);
  std::string bad = fresh("bad");
  line(fmt::format("bool {} = false;", bad));
  for (int64_t r = 0; r < L.size(HwDim::Register); ++r) line(fmt::format("{} = {} || !{};", bad, bad, el(c, L, r)));
  line(fmt::format("if ({}) {}", bad, report));
}

void Emitter::emit_print(const Op& op) {
  if (!cuda()) not_simt(op, "tl.device_print");
  // One line per operand element, as upstream device_print and the interpreter:
  //   "pid (x, y, z) idx (i, j)<prefix>[(operand k) ]<value>" (in no particular order).
  const bool hex = op.attr_int("hex", 0) != 0;
  auto esc = [](const std::string& s) {
    std::string o;
    for (char c : s) o += c == '%' ? std::string("%%") : std::string(1, c);
    return o;
  };
  const std::string head = "pid (%d, %d, %d)";
  const std::string pids = "(int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z";
  const std::string prefix = esc(op.attr_str("prefix"));
  if (op.operands.empty()) {
    line(fmt::format("if (tr_tid == 0) printf({}, {});", CExpr::c_string(head + prefix + "\n"), pids));
    return;
  }
  const size_t nops = op.operands.size();
  for (size_t k = 0; k < nops; ++k) {
    const Value* v = op.operands[k];
    const ScalarType S = v->type.scalar;
    const std::string opnd = nops > 1 ? fmt::format("(operand {}) ", k) : "";
    std::vector<int> widths;
    for (int64_t d : v->type.shape)
      widths.push_back(d > 1 ? static_cast<int>(std::ceil(std::log10(static_cast<double>(d)))) : 0);
    auto one = [&](const std::string& e, const std::vector<std::string>& idx, const std::string& guard) {
      std::string vf, va;
      const int bits = ir::bitwidth(S);
      const char* ubits = bits == 64 ? "uint64_t" : bits == 32 ? "uint32_t" : bits == 16 ? "uint16_t" : "uint8_t";
      if (v->type.is_ptr) {
        vf = "0x%llx";
        va = fmt::format("(unsigned long long)(uintptr_t)({})", e);
      } else if (hex) {
        vf = fmt::format("0x%0{}llx", bits <= 1 ? 1 : (bits + 3) / 4);
        va = S == ScalarType::I1 ? fmt::format("(unsigned long long)({})", e)
                                 : fmt::format("(unsigned long long)tr_bits<{}>({})", ubits, e);
      } else if (ir::is_float(S)) {
        vf = "%f";
        va = fmt::format("(double)({})", CExpr::to_compute(S, e));
      } else if (ir::is_signed_int(S)) {
        vf = "%lld";
        va = fmt::format("(long long)({})", e);
      } else {
        vf = "%llu";
        va = fmt::format("(unsigned long long)({})", e);
      }
      std::string f = head + " idx (", args;
      for (size_t d = 0; d < idx.size(); ++d) {
        f += fmt::format("{}%{}lld", d ? ", " : "", widths[d]);
        args += fmt::format(", (long long)({})", idx[d]);
      }
      f += ")" + prefix + esc(opnd) + vf + "\n";
      line(fmt::format("if ({}) printf({}, {}{}, {});", guard, CExpr::c_string(f), pids, args, va));
    };
    if (v->type.is_scalar()) {
      one(scalar(v), {}, "tr_tid == 0");
      continue;
    }
    const LinearLayout& L = layout_of(v);
    std::string own = owner(L);
    if (own.empty()) own = "true";
    for (int64_t r = 0; r < L.size(HwDim::Register); ++r) {
      if (reg_dup(L, r)) continue;
      std::vector<std::string> idx;
      for (size_t d = 0; d < v->type.shape.size(); ++d) idx.push_back(coord(L, static_cast<int>(d), r));
      one(el(v, L, r), idx, own);
    }
  }
}

}  // namespace tritium::codegen::cuda
