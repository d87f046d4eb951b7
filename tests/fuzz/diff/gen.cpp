// The random kernel generator (gen.h). The kernel's body is a list of statements, each
// defining a new value from values already defined (the pool); every expression ends in
// `.to(<dtype>)` of the dtype the generator expects (gen_types.h's promotion), so the
// generator always knows each value's dtype and only builds ops Triton accepts on them.
#include "gen.h"

#include <algorithm>
#include <sstream>

#include "gen_types.h"

namespace fuzz {
namespace {

const char* const kUnaryFloat[] = {"tl.exp", "tl.exp2", "tl.log", "tl.log2", "tl.sqrt", "tl.sqrt_rn",
                                   "tl.rsqrt", "tl.floor", "tl.ceil", "tl.sigmoid"};
const char* const kReduce[] = {"tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin", "tl.xor_sum"};
const char* const kScan[] = {"tl.cumsum", "tl.cumprod"};

class Gen {
 public:
  explicit Gen(uint64_t seed) : r_(seed) {}
  Case run();

 private:
  Rng r_;
  std::ostringstream body_;
  std::string indent_ = "    ";
  std::vector<Value> pool_;
  int next_ = 0;
  int bm_ = 1, bn_ = 1;
  bool square_ = false;  // BM == BN >= 16: dots and trans keep the tile's shape
  bool libm_ = false;

  std::string fresh(const char* stem = "v") { return stem + std::to_string(next_++); }
  const DType& d(int dt) const { return dtypes()[dt]; }
  // Never int1; fp64 only in a third of the kernels (Metal has no double: msl-emu skips them).
  int any_dtype() {
    for (;;) {
      const int t = static_cast<int>(r_.below(kNumDT - 1)) + 1;
      if (t != F64 || f64_) return t;
    }
  }
  bool f64_ = false;
  const Value& pick() { return pool_[pool_.size() - 1 - r_.below(std::min<size_t>(pool_.size(), 8))]; }
  const Value& pick_compatible(Shape with) {
    for (int tries = 0; tries < 16; ++tries) {
      const Value& v = pick();
      if (compatible(v.shape, with)) return v;
    }
    return pool_[0];  // the first load: a tile
  }
  const Value* pick_shape(Shape s) {
    for (int tries = 0; tries < 16; ++tries) {
      const Value& v = pick();
      if (v.shape == s) return &v;
    }
    for (const auto& v : pool_)
      if (v.shape == s) return &v;
    return nullptr;
  }
  /// A small Python literal valid with a tensor of dtype dt (weakly typed).
  std::string literal(int dt) {
    if (is_float(dt) && r_.chance(1, 2)) {
      const char* f[] = {"0.5", "1.5", "-2.0", "3.0", "0.125", "-0.75"};
      return f[r_.below(6)];
    }
    return std::to_string(r_.below(8));
  }
  std::string as(const Value& v, int dt, Shape to) {
    std::string s = operand(v, to);
    return v.dt == dt ? s : "(" + s + ").to(" + d(dt).tl + ")";
  }
  void emit(const std::string& line) { body_ << indent_ << line << "\n"; }
  void define(const std::string& expr, int dt, Shape shape) {
    Value v{fresh(), dt, shape};
    emit(v.name + " = (" + expr + ").to(" + d(dt).tl + ")");
    pool_.push_back(v);
  }
  bool expression(std::string& text, int& dt, Shape& shape);
  void statement(int depth);
  void loop(int depth);
  void branch();
};

// One random expression over the pool; false when the chosen op does not apply.
bool Gen::expression(std::string& text, int& dt, Shape& shape) {
  const Value& a = pick();
  switch (r_.below(19)) {
    case 0: case 1: {  // + - * with a value or a weak literal
      const char* ops[] = {" + ", " - ", " * "};
      const char* op = ops[r_.below(3)];
      if (a.dt == I1) return false;
      if (r_.chance(1, 3)) {
        std::string lit = literal(a.dt);
        bool float_lit = lit.find('.') != std::string::npos;
        dt = float_lit && !is_float(a.dt) ? F32 : a.dt;
        shape = a.shape;
        text = r_.chance(1, 2) ? a.name + op + lit : lit + op + a.name;
        return true;
      }
      const Value& b = pick_compatible(a.shape);
      if (b.dt == I1) return false;
      shape = join(a.shape, b.shape);
      dt = promote(a.dt, b.dt);
      text = operand(a, shape) + op + operand(b, shape);
      return true;
    }
    case 2: {  // / // %
      const Value& b = pick_compatible(a.shape);
      if (a.dt == I1 || b.dt == I1) return false;
      shape = join(a.shape, b.shape);
      const int kind = static_cast<int>(r_.below(3));
      if (is_int(a.dt) && is_int(b.dt) && is_unsigned(a.dt) != is_unsigned(b.dt)) return false;
      if (kind == 0) {
        dt = is_int(a.dt) && is_int(b.dt) ? F32 : promote(a.dt, b.dt);
        if (dt == F16 || dt == BF16) dt = F32;
        text = operand(a, shape) + " / " + operand(b, shape);
      } else if (kind == 1) {
        if (!is_int(a.dt) || !is_int(b.dt)) return false;
        dt = promote(a.dt, b.dt);
        text = operand(a, shape) + " // " + operand(b, shape);
      } else {
        dt = promote(a.dt, b.dt);
        if ((dt == F16 || dt == BF16)) dt = F32;
        text = operand(a, shape) + " % " + operand(b, shape);
      }
      return true;
    }
    case 3: {  // bitwise and shifts
      const Value& b = pick_compatible(a.shape);
      if (is_float(a.dt) || is_float(b.dt)) return false;
      const char* ops[] = {" & ", " | ", " ^ ", " << ", " >> "};
      const int k = static_cast<int>(r_.below(5));
      if (k >= 3 && (a.dt == I1 || b.dt == I1)) return false;
      shape = join(a.shape, b.shape);
      dt = promote(a.dt, b.dt);
      text = operand(a, shape) + ops[k] + operand(b, shape);
      return true;
    }
    case 4: {  // comparisons (int1)
      const char* ops[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
      const char* op = ops[r_.below(6)];
      shape = a.shape;
      dt = I1;
      if (r_.chance(1, 3)) {
        text = a.name + op + literal(a.dt);
        return true;
      }
      const Value& b = pick_compatible(a.shape);
      shape = join(a.shape, b.shape);
      text = operand(a, shape) + op + operand(b, shape);
      return true;
    }
    case 5: {  // where
      const Value& b = pick_compatible(a.shape);
      Shape s = join(a.shape, b.shape);
      const Value& c = pick_compatible(s);
      if (!compatible(c.shape, s)) return false;
      shape = join(s, c.shape);
      std::string cond = c.dt == I1 ? operand(c, shape) : "(" + operand(c, shape) + " > " + literal(c.dt) + ")";
      dt = promote(a.dt, b.dt);
      text = "tl.where(" + cond + ", " + operand(a, shape) + ", " + operand(b, shape) + ")";
      return true;
    }
    case 6: {  // unary
      shape = a.shape;
      switch (r_.below(4)) {
        case 0:
          if (a.dt == I1) return false;
          dt = a.dt;
          text = "-" + a.name;
          return true;
        case 1:
          if (a.dt == I1) return false;
          dt = a.dt;
          text = "tl.abs(" + a.name + ")";
          return true;
        case 2:
          if (!is_int(a.dt)) return false;
          dt = a.dt;
          text = "~" + a.name;
          return true;
        default: {
          std::string fn = kUnaryFloat[r_.below(10)];
          // fp64 exp / log / sigmoid call the C library (interpreter.h), which differs between
          // backends by an ulp or two — outside the bit-exact contract, so they run in fp32;
          // sqrt_rn takes fp32 only.
          const bool f64_ok = fn == "tl.sqrt" || fn == "tl.rsqrt" || fn == "tl.floor" || fn == "tl.ceil";
          dt = a.dt == F64 && f64_ok ? F64 : F32;
          text = fn + "(" + as(a, dt, a.shape) + ")";
          return true;
        }
      }
    }
    case 7: {  // cast, bitcast
      shape = a.shape;
      dt = any_dtype();
      if (r_.chance(1, 3) && a.dt != I1) {
        std::vector<int> same;
        for (int t = I8; t < kNumDT; ++t)
          if (d(t).bits == d(a.dt).bits && t != a.dt) same.push_back(t);
        if (same.empty()) return false;
        dt = same[r_.below(same.size())];
        text = a.name + ".to(" + d(dt).tl + ", bitcast=True)";
        return true;
      }
      text = a.name + ".to(" + d(dt).tl + ")";
      return true;
    }
    case 8: {  // maximum / minimum / clamp
      const Value& b = pick_compatible(a.shape);
      shape = join(a.shape, b.shape);
      dt = promote(a.dt, b.dt);
      if (dt == I1) return false;
      if (is_float(dt) && r_.chance(1, 3)) {
        shape = a.shape;
        text = "tl.clamp(" + as(a, dt, shape) + ", -1.5, 2.0)";
        return true;
      }
      std::string fn = r_.chance(1, 2) ? "tl.maximum(" : "tl.minimum(";
      std::string nan = is_float(dt) && r_.chance(1, 2) ? ", propagate_nan=tl.PropagateNan.ALL" : "";
      text = fn + operand(a, shape) + ", " + operand(b, shape) + nan + ")";
      return true;
    }
    case 9: {  // fma
      const Value& b = pick_compatible(a.shape);
      Shape s = join(a.shape, b.shape);
      const Value& c = pick_compatible(s);
      if (!compatible(c.shape, s)) return false;
      shape = join(s, c.shape);
      dt = promote(promote(a.dt, b.dt), c.dt) == F64 ? F64 : F32;
      text = "tl.fma(" + as(a, dt, shape) + ", " + as(b, dt, shape) + ", " + as(c, dt, shape) + ")";
      return true;
    }
    case 10: {  // reductions: of a tile along an axis, of a vector to a scalar, or keep_dims against a tile
      if (a.shape == Shape::S) return false;
      const std::string fn = kReduce[r_.below(6)];
      if (fn == "tl.xor_sum" && !is_int(a.dt)) return false;
      int src = a.dt == I1 ? I32 : a.dt;
      const bool arg = fn == "tl.argmax" || fn == "tl.argmin";
      dt = arg ? I32 : (fn == "tl.sum" && is_int(src) && d(src).bits < 32 ? (is_unsigned(src) ? U32 : I32) : src);
      std::string x = as(a, src, a.shape);
      if (a.shape != Shape::T) {
        shape = Shape::S;
        text = fn + "(" + x + ", axis=0)";
        return true;
      }
      const int axis = static_cast<int>(r_.below(2));
      if (!arg && r_.chance(1, 3)) {  // x - reduce(x, keep_dims=True): a tile
        shape = Shape::T;
        dt = promote(src, dt);
        text = x + " - " + fn + "(" + x + ", axis=" + std::to_string(axis) + ", keep_dims=True)";
        return true;
      }
      shape = axis == 1 ? Shape::R : Shape::C;
      text = fn + "(" + x + ", axis=" + std::to_string(axis) + ")";
      return true;
    }
    case 11: {  // scans
      if (a.shape == Shape::S || a.dt == I1) return false;
      const std::string fn = kScan[r_.below(2)];
      shape = a.shape;
      dt = a.dt == BF16 ? F32 : a.dt;
      const int axis = a.shape == Shape::T ? static_cast<int>(r_.below(2)) : 0;
      text = fn + "(" + a.name + ", axis=" + std::to_string(axis) + ")";
      return true;
    }
    case 12: {  // dot (square tiles), trans
      if (!square_ || a.shape != Shape::T) return false;
      if (r_.chance(1, 4)) {
        shape = Shape::T;
        dt = a.dt;
        text = "tl.trans(" + a.name + ")";
        return true;
      }
      const Value* b = pick_shape(Shape::T);
      if (!b) return false;
      const int ops[] = {F16, BF16, F32, I8};
      const int od = ops[r_.below(bn_ >= 32 ? 4 : 3)];  // int8 dots need K >= 32
      shape = Shape::T;
      dt = od == I8 ? I32 : F32;
      std::string extra = od == F32 ? ", input_precision=\"ieee\"" : "";
      if (od == F16 && r_.chance(1, 3)) {
        dt = F16;
        extra += ", out_dtype=tl.float16";
      }
      if (r_.chance(1, 3)) {
        const Value* c = pick_shape(Shape::T);
        // upstream asserts the accumulator's dtype is out_dtype (default fp32)
        if (c) extra += ", acc=" + as(*c, dt, Shape::T) + (dt == I32 ? ", out_dtype=tl.int32" : "");
      }
      text = "tl.dot(" + as(a, od, shape) + ", " + as(*b, od, shape) + extra + ")";
      return true;
    }
    case 14: {  // fp8 and rounding-mode round trips through a narrower float
      if (!is_float(a.dt)) return false;
      shape = a.shape;
      dt = a.dt == F64 ? F32 : a.dt;
      const char* fp8[] = {"tl.float8e4nv", "tl.float8e5", "tl.float8e4b15"};
      if (r_.chance(1, 2) && dt == F32) {
        text = a.name + ".to(tl.float16, fp_downcast_rounding=\"rtz\")";
        return true;
      }
      text = "(" + as(a, F32, a.shape) + ").to(" + fp8[r_.below(3)] + ").to(tl.float32)";
      dt = F32;
      return true;
    }
    case 15: {  // the helper jit functions: a call, a custom (non-associative) reduce and scan
      shape = a.shape;
      if (a.dt == I1) return false;
      const int k = static_cast<int>(r_.below(3));
      if (k == 0) {
        const Value& b = pick_compatible(a.shape);
        if (b.dt == I1) return false;
        shape = join(a.shape, b.shape);
        dt = F32;
        text = "_mix(" + as(a, F32, shape) + ", " + as(b, F32, shape) + ")";
        return true;
      }
      if (a.shape == Shape::S) return false;
      dt = F32;
      const int axis = a.shape == Shape::T ? static_cast<int>(r_.below(2)) : 0;
      if (k == 1) {
        shape = a.shape != Shape::T ? Shape::S : axis == 1 ? Shape::R : Shape::C;
        text = "tl.reduce(" + as(a, F32, a.shape) + ", " + std::to_string(axis) + ", _comb)";
      } else {
        text = "tl.associative_scan(" + as(a, F32, a.shape) + ", " + std::to_string(axis) + ", _comb)";
      }
      return true;
    }
    case 16: {  // shape ops: flip, reshape round trip, join / split
      if (a.shape != Shape::T) return false;
      shape = Shape::T;
      dt = a.dt;
      switch (r_.below(3)) {
        case 0: text = "tl.flip(" + a.name + ", " + std::to_string(r_.below(2)) + ")"; return true;
        case 1: text = "tl.reshape(tl.reshape(" + a.name + ", (BM * BN,)), (BM, BN))"; return true;
        default: {
          const Value* b = pick_shape(Shape::T);
          if (!b || b->dt != a.dt) return false;
          text = "tl.split(tl.join(" + a.name + ", " + b->name + "))[" + std::to_string(r_.below(2)) + "]";
          return true;
        }
      }
    }
    case 17: {  // integer extras: umulhi, cdiv by a literal
      if (!is_int(a.dt)) return false;
      shape = a.shape;
      dt = a.dt;
      if (r_.chance(1, 2) && (a.dt == I32 || a.dt == U32 || a.dt == I64 || a.dt == U64)) {
        const Value& b = pick_compatible(a.shape);
        if (b.dt != a.dt) return false;
        shape = join(a.shape, b.shape);
        text = "tl.umulhi(" + operand(a, shape) + ", " + operand(b, shape) + ")";
        return true;
      }
      text = "tl.cdiv(" + a.name + ", " + std::to_string(1 + r_.below(7)) + ")";
      return true;
    }
    case 18: {  // where with a scalar condition
      const Value& b = pick_compatible(a.shape);
      shape = join(a.shape, b.shape);
      dt = promote(a.dt, b.dt);
      const char* conds[] = {"k0 > 0", "s0 < 1.0", "pid_n == 0"};
      text = std::string("tl.where(") + conds[r_.below(3)] + ", " + operand(a, shape) + ", " + operand(b, shape) + ")";
      return true;
    }
    default: {  // broadcast a vector or scalar to a tile
      if (a.shape == Shape::T) return false;
      shape = Shape::T;
      dt = a.dt;
      std::string s = a.shape == Shape::R ? a.name + "[:, None]" : a.shape == Shape::C ? a.name + "[None, :]" : a.name;
      text = "tl.broadcast_to(" + s + ", (BM, BN))";
      return true;
    }
  }
}

void Gen::statement(int depth) {
  if (depth < 1 && r_.chance(1, 10)) return loop(depth + 1);
  if (depth < 1 && r_.chance(1, 12)) return branch();
  std::string text;
  int dt;
  Shape shape;
  for (int tries = 0; tries < 32; ++tries)
    if (expression(text, dt, shape)) return define(text, dt, shape);
}

// A loop carrying an accumulator (for over range or while), its body a few statements.
void Gen::loop(int depth) {
  const Value* init = pick_shape(Shape::T);
  if (!init || init->dt == I1) return;
  Value acc{fresh("acc"), init->dt, Shape::T};
  emit(acc.name + " = " + init->name);
  const bool use_while = r_.chance(1, 3);
  std::string iv = fresh("i");
  bool static_form = false;
  if (use_while) {
    emit(iv + " = 0");
    emit("while " + iv + " < n_iter:");
  } else {
    const char* forms[] = {"range(0, n_iter)", "tl.range(0, n_iter)", "range(n_iter - 1, -1, -1)",
                           "tl.static_range(2)"};
    const int form = static_cast<int>(r_.below(4));
    static_form = form == 3;
    emit("for " + iv + " in " + forms[form] + ":");
  }
  const std::string outer = indent_;
  indent_ += "    ";
  const size_t before = pool_.size();
  if (!static_form) pool_.push_back({iv, I32, Shape::S});  // a static_range index is a constexpr
  pool_.push_back(acc);
  const int n = 1 + static_cast<int>(r_.below(3));
  for (int i = 0; i < n; ++i) statement(depth);
  const Value& last = pool_.back();
  Shape s = compatible(last.shape, Shape::T) ? Shape::T : Shape::S;
  std::string update = s == Shape::T ? operand(last, Shape::T) : static_form ? "1" : iv;
  const char* ops[] = {" + ", " * ", " - "};
  emit(acc.name + " = (" + acc.name + ops[r_.below(3)] + "(" + update + ")).to(" + d(acc.dt).tl + ")");
  if (use_while) emit(iv + " += 1");
  indent_ = outer;
  pool_.resize(before);  // values defined in the body are not visible after it
  pool_.push_back(acc);
}

// An if / else on a scalar condition, each branch defining the same value.
void Gen::branch() {
  std::string ta, tb;
  int da = 0, db = 0;
  Shape sa = Shape::S, sb = Shape::S;
  bool ok = false;
  for (int tries = 0; tries < 32 && !ok; ++tries) ok = expression(ta, da, sa);
  if (!ok) return;
  ok = false;
  for (int tries = 0; tries < 64 && !ok; ++tries) ok = expression(tb, db, sb) && sb == sa;
  if (!ok) tb = ta, db = da;
  Value v{fresh(), da, sa};
  const char* conds[] = {"k0 > 3", "n_iter == 0", "(pid_m % 2) == 1", "s0 < 0.5"};
  emit(std::string("if ") + conds[r_.below(4)] + ":");
  emit("    " + v.name + " = (" + ta + ").to(" + d(da).tl + ")");
  emit("else:");
  emit("    " + v.name + " = (" + tb + ").to(" + d(da).tl + ")");
  pool_.push_back(v);
}

Case Gen::run() {
  Case c;
  f64_ = r_.chance(1, 3);
  const int sizes[] = {1, 2, 4, 8, 16, 32};
  square_ = r_.chance(1, 4);
  if (square_) {
    bm_ = bn_ = r_.chance(2, 3) ? 16 : 32;
  } else {
    bm_ = sizes[r_.below(6)];
    bn_ = sizes[r_.below(6)];
  }
  c.n_rows = 1 + static_cast<int64_t>(r_.below(3 * bm_));
  c.n_cols = 1 + static_cast<int64_t>(r_.below(3 * bn_));
  c.grid_x = (c.n_rows + bm_ - 1) / bm_;
  c.grid_y = (c.n_cols + bn_ - 1) / bn_;
  c.n_iter = static_cast<int32_t>(r_.below(4));
  c.k0 = r_.chance(1, 2) ? static_cast<int32_t>(r_.below(16)) - 4 : static_cast<int32_t>(r_.next());
  const float s0s[] = {0.25f, -1.5f, 3.0f, 1e-3f, -0.f, 100.f};
  c.s0 = s0s[r_.below(6)];
  c.input_seed = r_.next();

  std::ostringstream params;
  std::vector<std::string> sig;
  auto buffer = [&](const std::string& name, int dt, int64_t n, bool out) {
    c.buffers.push_back({name, d(dt).sig, n, out});
    params << name << ", ";
    sig.push_back(std::string("*") + d(dt).sig);
  };

  // Inputs: 1-3 tiles, a row vector, a column vector.
  const int n_tiles = 1 + static_cast<int>(r_.below(3));
  std::vector<int> tile_dt, lines;
  for (int i = 0; i < n_tiles; ++i) {
    tile_dt.push_back(any_dtype());
    buffer("x" + std::to_string(i), tile_dt.back(), c.n_rows * c.n_cols, false);
  }
  const int row_dt = any_dtype(), col_dt = any_dtype();
  buffer("xr", row_dt, c.n_rows, false);
  buffer("xc", col_dt, c.n_cols, false);
  // Outputs: 1-3 tiles (dtypes fixed after the body), one per-program row vector.
  const int n_out = 1 + static_cast<int>(r_.below(3));

  emit("pid_m = tl.program_id(0)");
  emit("pid_n = tl.program_id(1)");
  emit("rm = pid_m * BM + tl.arange(0, BM)");
  emit("rn = pid_n * BN + tl.arange(0, BN)");
  emit("mask = (rm[:, None] < n_rows) & (rn[None, :] < n_cols)");
  emit("offs = rm[:, None] * n_cols + rn[None, :]");
  for (int i = 0; i < n_tiles; ++i) {
    const std::string x = "x" + std::to_string(i);
    Value v{fresh(), tile_dt[i], Shape::T};
    const std::string other = literal(tile_dt[i]).find('.') != std::string::npos && !is_float(tile_dt[i])
                                  ? "1" : literal(tile_dt[i]);
    switch (r_.below(3)) {
      case 0:
        emit(v.name + " = tl.load(" + x + " + offs, mask=mask, other=" + other + ")");
        break;
      case 1:
        emit(v.name + " = tl.load(" + x + " + offs, mask=mask & (rn[None, :] % 3 != 1), other=" + other + ")");
        break;
      default:
        emit(v.name + " = tl.load(tl.make_block_ptr(base=" + x +
             ", shape=(n_rows, n_cols), strides=(n_cols, 1), offsets=(pid_m * BM, pid_n * BN), "
             "block_shape=(BM, BN), order=(1, 0)), boundary_check=(0, 1), padding_option=\"zero\")");
    }
    pool_.push_back(v);
  }
  {
    Value vr{fresh(), row_dt, Shape::R}, vc{fresh(), col_dt, Shape::C};
    emit(vr.name + " = tl.load(xr + rm, mask=rm < n_rows, other=" + (is_float(row_dt) ? "0.5" : "1") + ")");
    emit(vc.name + " = tl.load(xc + rn, mask=rn < n_cols, other=" + (is_float(col_dt) ? "-1.0" : "2") + ")");
    pool_.push_back(vr);
    pool_.push_back(vc);
    pool_.push_back({"s0", F32, Shape::S});
    pool_.push_back({"k0", I32, Shape::S});
  }
  const int n_stmt = 4 + static_cast<int>(r_.below(10));
  for (int i = 0; i < n_stmt; ++i) statement(0);

  // Stores: the newest tiles, then a row vector (a tile reduced along axis 1 if none).
  std::vector<const Value*> outs;
  for (auto it = pool_.rbegin(); it != pool_.rend() && static_cast<int>(outs.size()) < n_out; ++it)
    if (it->shape == Shape::T) outs.push_back(&*it);
  for (size_t i = 0; i < outs.size(); ++i) {
    const int odt = outs[i]->dt == I1 ? I8 : outs[i]->dt;
    const std::string y = "y" + std::to_string(i);
    buffer(y, odt, c.n_rows * c.n_cols, true);
    const std::string val = as(*outs[i], odt, Shape::T);
    if (r_.chance(1, 3))
      emit("tl.store(tl.make_block_ptr(base=" + y +
           ", shape=(n_rows, n_cols), strides=(n_cols, 1), offsets=(pid_m * BM, pid_n * BN), "
           "block_shape=(BM, BN), order=(1, 0)), " + val + ", boundary_check=(0, 1))");
    else if (r_.chance(1, 3))  // a partial store: the other elements must keep their poison
      emit("tl.store(" + y + " + offs, " + val + ", mask=mask & ((rm[:, None] + rn[None, :]) % 3 != 0))");
    else
      emit("tl.store(" + y + " + offs, " + val + ", mask=mask)");
  }
  {
    const Value* rv = pick_shape(Shape::R);
    std::string val;
    int odt;
    if (rv) {
      odt = rv->dt == I1 ? I8 : rv->dt;
      val = as(*rv, odt, Shape::R);
    } else {
      const Value* t = pick_shape(Shape::T);
      odt = t->dt == I1 ? I32 : t->dt;
      val = "tl.max(" + as(*t, odt, Shape::T) + ", axis=1)";
    }
    buffer("yr", odt, c.n_rows * c.grid_y, true);
    emit("tl.store(yr + rm * tl.num_programs(1) + pid_n, " + val + ", mask=rm < n_rows)");
  }

  std::ostringstream src;
  // Helpers the kernels call: a function inlined at each call, and a combine function that
  // is neither associative nor commutative, so reduce / scan results pin the combining order.
  src << "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef _mix(a, b):\n    return a * 0.75 - b\n\n\n"
         "@triton.jit\ndef _comb(a, b):\n    return a * 0.5 + b\n\n\n@triton.jit\ndef fuzz_kernel("
      << params.str() << "n_rows, n_cols, s0, k0, n_iter, BM: tl.constexpr, BN: tl.constexpr):\n"
      << body_.str();
  c.source = src.str();
  for (const char* s : {"i32", "i32", "fp32", "i32", "i32"}) sig.push_back(s);
  sig.push_back(std::to_string(bm_));
  sig.push_back(std::to_string(bn_));
  for (size_t i = 0; i < sig.size(); ++i) c.signature += (i ? ", " : "") + sig[i];
  c.libm = libm_;
  return c;
}

}  // namespace

Case generate(uint64_t seed) { return Gen(seed).run(); }

}  // namespace fuzz
