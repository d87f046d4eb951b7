#include "ir/verifier.h"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

namespace tritium::ir {
namespace {

constexpr int64_t kNumMathFns = 0
#define MATH(e, n, arity) +1
#include "ir/math_fns.def"
#undef MATH
    ;

class Verifier {
 public:
  const Module* module;
  std::vector<std::string> errors;
  std::vector<std::set<const Value*>> scopes;

  void fail(const Op& op, const std::string& msg) {
    errors.push_back(fmt::format("{} (line {}): {}", op.name(), op.loc.line, msg));
  }
  bool visible(const Value* v) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
      if (it->count(v)) return true;
    return false;
  }

  void block(const Block& b, OpKind expected_terminator, bool require_terminator) {
    scopes.emplace_back();
    for (auto* a : b.args) scopes.back().insert(a);
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op& o = *b.ops[i];
      bool last = i + 1 == b.ops.size();
      if ((o.info().flags & kTerminator) && !last) fail(o, "terminator is not the last op of its block");
      op(o);
      for (auto* r : o.results) scopes.back().insert(r);
    }
    if (require_terminator) {
      if (b.ops.empty() || b.ops.back()->kind != expected_terminator)
        errors.push_back(fmt::format("region must end with '{}'", op_info(expected_terminator).name));
    }
    scopes.pop_back();
  }

  void same_types(const Op& o) {
    for (size_t i = 1; i < o.operands.size(); ++i)
      if (!(o.operands[i]->type == o.operands[0]->type))
        fail(o, fmt::format("operand types differ: {} vs {}", o.operands[0]->type.str(), o.operands[i]->type.str()));
  }
  void result_is(const Op& o, const Type& t) {
    if (o.results.size() != 1 || !(o.results[0]->type == t))
      fail(o, fmt::format("result type should be {}", t.str()));
  }
  void yields_match(const Op& o, const Block& b, const std::vector<Type>& expected, size_t skip = 0) {
    if (b.ops.empty()) return;
    const Op& t = *b.ops.back();
    if (t.operands.size() != expected.size() + skip) {
      fail(o, fmt::format("region terminator passes {} values, expected {}",
                          static_cast<long>(t.operands.size()) - static_cast<long>(skip), expected.size()));
      return;
    }
    for (size_t i = 0; i < expected.size(); ++i)
      if (t.operands[i + skip] && !(t.operands[i + skip]->type == expected[i]))
        fail(o, fmt::format("region value {} has type {}, expected {}", i, t.operands[i + skip]->type.str(),
                            expected[i].str()));
  }

  void op(const Op& o) {
    try {
      checked_op(o);
    } catch (const std::logic_error& e) {  // e.g. an attribute of the wrong kind
      fail(o, e.what());
    }
  }

  void checked_op(const Op& o) {
    const OpInfo& info = o.info();
    int n = static_cast<int>(o.operands.size());
    bool counts_ok = true;
    if (n < info.min_operands || (info.max_operands >= 0 && n > info.max_operands)) {
      fail(o, "wrong operand count");
      counts_ok = false;
    }
    if (info.num_results >= 0 && static_cast<int>(o.results.size()) != info.num_results) {
      fail(o, "wrong result count");
      counts_ok = false;
    }
    for (auto* v : o.operands) {
      if (!v) {
        fail(o, "null operand");
        counts_ok = false;
      } else if (!visible(v)) {
        fail(o, fmt::format("operand %{} does not dominate its use", v->id));
      }
    }
    if (!counts_ok) return;  // the type rules below index operands and results
    switch (o.kind) {
      case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Min: case OpKind::Max:
        same_types(o);
        if (o.operands[0]->type.is_ptr) fail(o, "pointer operand");
        result_is(o, o.operands[0]->type);
        break;
      case OpKind::Div:
        same_types(o);
        if (!o.operands[0]->type.is_float()) fail(o, "div needs float operands");
        break;
      case OpKind::IDiv: case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
        same_types(o);
        if (!o.operands[0]->type.is_int()) fail(o, "integer operands required");
        result_is(o, o.operands[0]->type);
        break;
      case OpKind::Rem:
        same_types(o);
        result_is(o, o.operands[0]->type);
        break;
      case OpKind::Cmp: {
        same_types(o);
        result_is(o, o.operands[0]->type.with_scalar(ScalarType::I1));
        static const std::set<std::string> preds = {"eq", "ne", "lt", "le", "gt", "ge"};
        if (!preds.count(o.attr_str("pred"))) fail(o, "bad predicate");
        break;
      }
      case OpKind::Neg: case OpKind::Not:
        result_is(o, o.operands[0]->type);
        break;
      case OpKind::Math: {
        int64_t fn = o.attr_int("fn", -1);
        if (fn < 0 || fn >= kNumMathFns) { fail(o, "unknown math function"); break; }
        MathFn f = o.math_fn();
        if (n != math_fn_arity(f)) fail(o, "wrong arity for math function");
        same_types(o);
        break;
      }
      case OpKind::Select:
        if (!o.operands[0]->type.is_bool()) fail(o, "select condition must be int1");
        if (o.operands[0]->type.shape != o.operands[1]->type.shape) fail(o, "select condition shape differs");
        if (!(o.operands[1]->type == o.operands[2]->type)) fail(o, "select operands differ");
        break;
      case OpKind::Cast: case OpKind::Bitcast:
        if (o.operands[0]->type.shape != o.results[0]->type.shape) fail(o, "shape changes");
        if (o.kind == OpKind::Bitcast && !o.results[0]->type.is_ptr && !o.operands[0]->type.is_ptr &&
            bitwidth(o.operands[0]->type.scalar) != bitwidth(o.results[0]->type.scalar))
          fail(o, "bitcast between different widths");
        break;
      case OpKind::AddPtr:
        if (!o.operands[0]->type.is_ptr || !o.operands[1]->type.is_int()) fail(o, "addptr needs ptr and int");
        if (o.operands[0]->type.shape != o.operands[1]->type.shape) fail(o, "addptr shapes differ");
        result_is(o, o.operands[0]->type);
        break;
      case OpKind::Splat:
        if (!o.operands[0]->type.is_scalar()) fail(o, "splat of a tensor");
        if (!(o.results[0]->type.element() == o.operands[0]->type)) fail(o, "splat element type differs");
        break;
      case OpKind::Broadcast: {
        auto& s = o.operands[0]->type.shape;
        auto& d = o.results[0]->type.shape;
        if (s.size() != d.size()) fail(o, "broadcast changes rank");
        else
          for (size_t i = 0; i < s.size(); ++i)
            if (s[i] != d[i] && s[i] != 1) fail(o, "broadcast of a non-1 dimension");
        break;
      }
      case OpKind::ExpandDims: case OpKind::Reshape:
        if (o.operands[0]->type.numel() != o.results[0]->type.numel()) fail(o, "element count changes");
        break;
      case OpKind::Sort: {
        const ir::Type& in = o.operands[0]->type;
        ir::Type want = in;
        if (!want.shape.empty()) want.shape.back() = o.attr_int("k", want.shape.back());
        if (in.rank() < 1 || !(o.results[0]->type == want)) fail(o, "sort result is not the input with k columns");
        break;
      }
      case OpKind::Gather: {
        const Type& src = o.operands[0]->type;
        const Type& index = o.operands[1]->type;
        const int64_t axis = o.attr_int("axis", -1);
        if (!index.is_int()) fail(o, "gather index must be an integer tensor");
        if (src.rank() < 1 || index.rank() != src.rank()) fail(o, "gather source and index ranks differ");
        else if (axis < 0 || axis >= src.rank()) fail(o, "gather axis out of range");
        else
          for (int d = 0; d < src.rank(); ++d)
            if (d != axis && index.shape[d] != src.shape[d]) fail(o, "gather index and source differ off the axis");
        result_is(o, src.with_shape(index.shape));
        break;
      }
      case OpKind::Histogram: {
        const Type& in = o.operands[0]->type;
        if (in.rank() != 1 || !in.is_int()) fail(o, "histogram input must be a 1-D integer tensor");
        if (n == 2 && !(o.operands[1]->type == in.with_scalar(ScalarType::I1))) fail(o, "histogram mask is not int1 of the input's shape");
        const Type& r = o.results[0]->type;
        if (r.rank() != 1 || !(r.element() == Type::of(ScalarType::I32))) fail(o, "histogram result must be 1-D int32");
        break;
      }
      case OpKind::Flip: {
        const int64_t axis = o.attr_int("axis", -1);
        if (axis < 0 || axis >= o.operands[0]->type.rank()) fail(o, "flip axis out of range");
        if (!(o.results[0]->type == o.operands[0]->type)) fail(o, "flip changes the type");
        break;
      }
      case OpKind::Trans: {
        auto perm = o.attr_ints("perm");
        auto& s = o.operands[0]->type.shape;
        if (perm.size() != s.size() || o.results[0]->type.shape.size() != s.size()) {
          fail(o, "perm rank mismatch");
          break;
        }
        for (size_t i = 0; i < perm.size(); ++i)
          if (perm[i] < 0 || perm[i] >= static_cast<int64_t>(s.size())) {
            fail(o, "perm entry out of range");
            return;
          }
        for (size_t i = 0; i < perm.size(); ++i)
          if (o.results[0]->type.shape[i] != s[perm[i]]) fail(o, "trans result shape");
        break;
      }
      case OpKind::MakeRange: {
        int64_t len = o.attr_int("end") - o.attr_int("start");
        if (len <= 0 || (len & (len - 1))) fail(o, "range length must be a positive power of two");
        result_is(o, Type::tensor(ScalarType::I32, {len}));
        break;
      }
      case OpKind::Load:
        if (!o.operands[0]->type.is_ptr) fail(o, "load needs a pointer");
        else if (!(o.results[0]->type == o.operands[0]->type.with_scalar(o.operands[0]->type.scalar)))
          fail(o, "load result type differs from pointee");
        if (n >= 2 && (!o.operands[1]->type.is_bool() || o.operands[1]->type.shape != o.operands[0]->type.shape))
          fail(o, "load mask must be int1 of the pointer's shape");
        if (n >= 3 && !(o.operands[2]->type == o.results[0]->type)) fail(o, "load other type differs");
        if (o.has_attr("window")) {
          const int64_t w = o.attr_int("window");
          if (w < 1 || n != 4 + 3 * w) fail(o, "load window: expected 4 + 3 * window operands");
          else {
            if (!o.operands[3]->type.is_ptr || o.operands[3]->type.is_tensor()) fail(o, "load window base must be a scalar pointer");
            for (int64_t i = 0; i < 3 * w; ++i) {
              const Type& t = o.operands[static_cast<size_t>(4 + i)]->type;
              if (t.is_tensor() || t.is_ptr || t.scalar != (i < w ? ScalarType::I32 : ScalarType::I64))
                fail(o, "load window offsets must be i32 scalars, shape and strides i64 scalars");
            }
          }
        } else if (n > 3) {
          fail(o, "load takes at most 3 operands without a window");
        }
        break;
      case OpKind::Store:
        if (!o.operands[0]->type.is_ptr) fail(o, "store needs a pointer");
        else if (!(o.operands[1]->type == o.operands[0]->type.with_scalar(o.operands[0]->type.scalar)))
          fail(o, "stored value type differs from pointee");
        if (n == 3 && (!o.operands[2]->type.is_bool() || o.operands[2]->type.shape != o.operands[0]->type.shape))
          fail(o, "store mask must be int1 of the pointer's shape");
        break;
      case OpKind::Dot: {
        auto& a = o.operands[0]->type.shape;
        auto& b = o.operands[1]->type.shape;
        auto& c = o.operands[2]->type.shape;
        if (a.size() < 2 || a.size() != b.size() || a.size() != c.size()) { fail(o, "dot ranks"); break; }
        size_t r = a.size();
        if (a[r - 1] != b[r - 2] || c[r - 2] != a[r - 2] || c[r - 1] != b[r - 1]) fail(o, "dot shapes");
        if (o.operands[0]->type.scalar != o.operands[1]->type.scalar) fail(o, "dot operand dtypes differ");
        result_is(o, o.operands[2]->type);
        break;
      }
      case OpKind::Reduce: case OpKind::Scan: {
        if (o.regions.size() != 1) { fail(o, "needs one combine region"); break; }
        int axis = static_cast<int>(o.attr_int("axis"));
        for (auto* v : o.operands)
          if (axis < 0 || axis >= v->type.rank()) fail(o, "axis out of range");
        std::vector<Type> elems;
        for (auto* v : o.operands) elems.push_back(v->type.element());
        block(o.body(), OpKind::Yield, true);
        yields_match(o, o.body(), elems);
        break;
      }
      case OpKind::MapElementwise: {
        if (o.regions.size() != 1) { fail(o, "needs one region"); break; }
        const Block& body = o.body();
        if (body.args.size() != o.operands.size()) fail(o, "one region argument per operand expected");
        for (size_t i = 0; i < o.operands.size() && i < body.args.size(); ++i) {
          if (o.operands[i]->type.shape != o.operands[0]->type.shape) fail(o, "operands of different shapes");
          if (!(body.args[i]->type == o.operands[i]->type.element())) fail(o, "region argument type differs");
        }
        std::vector<Type> elems;
        for (auto* r : o.results) {
          if (r->type.shape != o.operands[0]->type.shape) fail(o, "result shape differs from the operands'");
          elems.push_back(r->type.element());
        }
        block(body, OpKind::Yield, true);
        yields_match(o, body, elems);
        break;
      }
      case OpKind::For: {
        if (o.regions.size() != 1) { fail(o, "for needs one region"); break; }
        for (int i = 0; i < 3; ++i)
          if (!o.operands[i]->type.is_int() || !o.operands[i]->type.is_scalar()) fail(o, "loop bounds must be scalar ints");
        std::vector<Type> it;
        for (auto* r : o.results) it.push_back(r->type);
        if (o.operands.size() != it.size() + 3) fail(o, "loop-carried init count differs from result count");
        else
          for (size_t i = 0; i < it.size(); ++i)
            if (!(o.operands[3 + i]->type == it[i])) fail(o, fmt::format("loop-carried value {} init type differs", i));
        if (o.body().args.size() != it.size() + 1) {
          fail(o, "body argument count");
        } else {
          if (!(o.body().args[0]->type == o.operands[0]->type)) fail(o, "induction variable type differs from lb");
          for (size_t i = 0; i < it.size(); ++i)
            if (!(o.body().args[i + 1]->type == it[i])) fail(o, fmt::format("body argument {} type differs", i + 1));
        }
        block(o.body(), OpKind::Yield, true);
        yields_match(o, o.body(), it);
        break;
      }
      case OpKind::If: {
        if (!o.operands[0]->type.is_bool() || !o.operands[0]->type.is_scalar()) fail(o, "if condition must be scalar int1");
        if (o.regions.size() != 2) { fail(o, "if needs two regions"); break; }
        std::vector<Type> rt;
        for (auto* r : o.results) rt.push_back(r->type);
        for (auto& reg : o.regions) {
          block(reg->block, OpKind::Yield, true);
          yields_match(o, reg->block, rt);
        }
        break;
      }
      case OpKind::While: {
        if (o.regions.size() != 2) { fail(o, "while needs two regions"); break; }
        std::vector<Type> before, after;
        for (auto* v : o.operands) before.push_back(v->type);
        for (auto* r : o.results) after.push_back(r->type);
        if (o.body(0).args.size() != before.size()) {
          fail(o, "before-region argument count differs from init count");
        } else {
          for (size_t i = 0; i < before.size(); ++i)
            if (!(o.body(0).args[i]->type == before[i])) fail(o, fmt::format("before-region argument {} type differs", i));
        }
        if (o.body(1).args.size() != after.size()) {
          fail(o, "after-region argument count differs from result count");
        } else {
          for (size_t i = 0; i < after.size(); ++i)
            if (!(o.body(1).args[i]->type == after[i])) fail(o, fmt::format("after-region argument {} type differs", i));
        }
        block(o.body(0), OpKind::Condition, true);
        if (!o.body(0).ops.empty() && o.body(0).ops.back()->kind == OpKind::Condition &&
            !o.body(0).ops.back()->operands.empty() && o.body(0).ops.back()->operands[0]) {
          const Type& c = o.body(0).ops.back()->operands[0]->type;
          if (!c.is_bool() || !c.is_scalar()) fail(o, "while condition must be scalar int1");
        }
        yields_match(o, o.body(0), after, 1);
        block(o.body(1), OpKind::Yield, true);
        yields_match(o, o.body(1), before);
        break;
      }
      case OpKind::Call: {
        if (module && !module->find(o.attr_str("callee"))) fail(o, "unknown callee " + o.attr_str("callee"));
        break;
      }
      default:
        for (auto& reg : o.regions) block(reg->block, OpKind::Yield, false);
        break;
    }
  }
};

}  // namespace

std::vector<std::string> verify(const Function& fn, const Module* module) {
  Verifier v;
  v.module = module;
  v.block(fn.body, OpKind::Return, false);
  return v.errors;
}

void verify_or_throw(const Function& fn, const Module* module) {
  auto errs = verify(fn, module);
  if (errs.empty()) return;
  std::string msg = "internal compiler error: invalid IR in @" + fn.name + ":";
  for (auto& e : errs) msg += "\n  " + e;
  throw std::logic_error(msg);
}

}  // namespace tritium::ir
