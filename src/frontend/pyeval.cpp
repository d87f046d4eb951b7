// Host-side Python expression evaluator for kernel decorators (see pyeval.h).
#include "frontend/pyeval.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "common/process_environ.h"
#include "common/stack_room.h"
#include "frontend/decorators.h"
#include "frontend/module_loader.h"


#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::frontend {
namespace {

using K = PyValue::Kind;

[[noreturn]] void fail(SrcLoc loc, const std::string& msg) { throw CompileError(loc, msg); }

// The thread's host-evaluation state (see HostEvalBudget in pyeval.h): shared by every
// evaluator on the thread, so calls between modules (each evaluated by its own
// PyEvaluator) count toward one depth and one budget.
thread_local int t_budgets = 0;      // HostEvalBudgets alive
thread_local int64_t t_steps = 0;    // steps since the outermost one began
thread_local int t_call_depth = 0;   // PyEvaluator::call nesting

void charge(SrcLoc loc) {
  if (stack_nearly_exhausted())
    fail(loc, "host code nests too deeply to evaluate at compile time (it uses up the thread's stack)");
  t_steps += 1 + std::exchange(HostCopyCounter::count(), 0);  // copies and dict scans cost steps too
  if (t_steps > kMaxHostSteps)
    fail(loc, fmt::format("host code took more than {} evaluation steps (loops, recursion or copies of large values too long to evaluate "
                          "at compile time)",
                          kMaxHostSteps));
}

// Values (and string bytes) inside `v`, counted up to just past kMaxHostItems.
size_t deep_count(const PyValue& v, size_t so_far = 0) {
  size_t n = so_far + 1 + v.s.size();
  for (const PyValue& x : v.items) {
    if (n > kMaxHostItems) break;
    n = deep_count(x, n);
  }
  for (const PyValue& x : v.keys) {
    if (n > kMaxHostItems) break;
    n = deep_count(x, n);
  }
  return n;
}

// A list / tuple / string about to hold `n` elements (bytes).
void check_size(size_t n, SrcLoc loc) {
  if (n > kMaxHostItems)
    fail(loc, fmt::format("a list, tuple or string of {} elements is too large to build at compile time (at most {})",
                          n, kMaxHostItems));
}

const char* kind_name(K k) {
  switch (k) {
    case K::None: return "None";
    case K::Bool: return "bool";
    case K::Int: return "int";
    case K::Float: return "float";
    case K::Str: return "str";
    case K::List: return "list";
    case K::Tuple: return "tuple";
    case K::Dict: return "dict";
    case K::Config: return "triton.Config";
    case K::Function: return "function";
    case K::Lambda: return "lambda";
    case K::Module: return "module";
    case K::Builtin: return "builtin function";
    case K::Tensor: return "tensor argument";
  }
  return "?";
}

bool is_number(const PyValue& v) { return v.kind == K::Int || v.kind == K::Bool || v.kind == K::Float; }
bool is_intlike(const PyValue& v) { return v.kind == K::Int || v.kind == K::Bool; }
int64_t as_int(const PyValue& v) { return v.kind == K::Bool ? (v.b ? 1 : 0) : v.i; }
double as_float(const PyValue& v) { return v.kind == K::Float ? v.f : static_cast<double>(as_int(v)); }

[[noreturn]] void overflow(SrcLoc loc) {
  fail(loc, "integer overflow: decorator arithmetic is limited to 64-bit integers here");
}

// a op b for op in + - *, refusing a result past 64 bits.
template <class F>
int64_t checked(F op, int64_t a, int64_t b, SrcLoc loc) {
  int64_t r = 0;
  if (op(a, b, &r)) overflow(loc);
  return r;
}
bool add_ovf(int64_t a, int64_t b, int64_t* r) { return __builtin_add_overflow(a, b, r); }
bool sub_ovf(int64_t a, int64_t b, int64_t* r) { return __builtin_sub_overflow(a, b, r); }
bool mul_ovf(int64_t a, int64_t b, int64_t* r) { return __builtin_mul_overflow(a, b, r); }

int64_t floor_div(int64_t a, int64_t b, SrcLoc loc) {
  if (b == 0) fail(loc, "integer division or modulo by zero");
  if (a == std::numeric_limits<int64_t>::min() && b == -1) overflow(loc);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floor_mod(int64_t a, int64_t b, SrcLoc loc) {
  if (b == 0) fail(loc, "integer division or modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

PyValue arith(BinOp op, const PyValue& a, const PyValue& b, SrcLoc loc) {
  if ((a.kind == K::List || a.kind == K::Tuple) && a.kind == b.kind && op == BinOp::Add) {
    check_size(a.items.size() + b.items.size(), loc);
    PyValue r = a;
    r.items.insert(r.items.end(), b.items.begin(), b.items.end());
    return r;
  }
  if (a.kind == K::Str && b.kind == K::Str && op == BinOp::Add) {
    check_size(a.s.size() + b.s.size(), loc);
    return PyValue::of_str(a.s + b.s);
  }
  if (!is_number(a) || !is_number(b))
    fail(loc, fmt::format("unsupported operand types for {}: '{}' and '{}'", to_string(op), kind_name(a.kind),
                          kind_name(b.kind)));
  const bool ints = is_intlike(a) && is_intlike(b);
  if (ints) {
    int64_t x = as_int(a), y = as_int(b);
    switch (op) {
      case BinOp::Add: return PyValue::of_int(checked(add_ovf, x, y, loc));
      case BinOp::Sub: return PyValue::of_int(checked(sub_ovf, x, y, loc));
      case BinOp::Mul: return PyValue::of_int(checked(mul_ovf, x, y, loc));
      case BinOp::FloorDiv: return PyValue::of_int(floor_div(x, y, loc));
      case BinOp::Mod: return PyValue::of_int(floor_mod(x, y, loc));
      case BinOp::Div:
        if (y == 0) fail(loc, "division by zero");
        return PyValue::of_float(static_cast<double>(x) / static_cast<double>(y));
      case BinOp::Pow: {
        if (y < 0) return PyValue::of_float(std::pow(static_cast<double>(x), static_cast<double>(y)));
        int64_t acc = 1, base = x;  // exponentiation by squaring
        for (int64_t e = y; e > 0; e >>= 1) {
          if (e & 1) acc = checked(mul_ovf, acc, base, loc);
          if (e > 1) base = checked(mul_ovf, base, base, loc);
        }
        return PyValue::of_int(acc);
      }
      case BinOp::LShift:
        if (y < 0) fail(loc, "negative shift count");
        if (x == 0) return PyValue::of_int(0);
        if (y >= 63 || x > (std::numeric_limits<int64_t>::max() >> y) || x < (std::numeric_limits<int64_t>::min() >> y))
          overflow(loc);
        return PyValue::of_int(static_cast<int64_t>(static_cast<uint64_t>(x) << y));
      case BinOp::RShift:
        if (y < 0) fail(loc, "negative shift count");
        return PyValue::of_int(y >= 63 ? (x < 0 ? -1 : 0) : (x >> y));
      case BinOp::BitAnd: return PyValue::of_int(x & y);
      case BinOp::BitOr: return PyValue::of_int(x | y);
      case BinOp::BitXor: return PyValue::of_int(x ^ y);
      case BinOp::MatMul: break;
    }
    fail(loc, fmt::format("unsupported operator {} here", to_string(op)));
  }
  double x = as_float(a), y = as_float(b);
  switch (op) {
    case BinOp::Add: return PyValue::of_float(x + y);
    case BinOp::Sub: return PyValue::of_float(x - y);
    case BinOp::Mul: return PyValue::of_float(x * y);
    case BinOp::Div:
      if (y == 0) fail(loc, "float division by zero");
      return PyValue::of_float(x / y);
    case BinOp::FloorDiv:
      if (y == 0) fail(loc, "float floor division by zero");
      return PyValue::of_float(std::floor(x / y));
    case BinOp::Mod: {
      if (y == 0) fail(loc, "float modulo by zero");
      double m = std::fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return PyValue::of_float(m);
    }
    case BinOp::Pow: return PyValue::of_float(std::pow(x, y));
    default: break;
  }
  fail(loc, fmt::format("unsupported operand types for {}: '{}' and '{}'", to_string(op), kind_name(a.kind),
                        kind_name(b.kind)));
}

int compare3(const PyValue& a, const PyValue& b, SrcLoc loc) {
  if (is_number(a) && is_number(b)) {
    if (is_intlike(a) && is_intlike(b)) return as_int(a) < as_int(b) ? -1 : as_int(a) > as_int(b) ? 1 : 0;
    double x = as_float(a), y = as_float(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.kind == K::Str && b.kind == K::Str) return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  fail(loc, fmt::format("'<' is not supported between '{}' and '{}'", kind_name(a.kind), kind_name(b.kind)));
}

bool contains(const PyValue& container, const PyValue& v, SrcLoc loc) {
  switch (container.kind) {
    case K::List: case K::Tuple:
      return std::any_of(container.items.begin(), container.items.end(), [&](const PyValue& x) { return x.equals(v); });
    case K::Dict: return container.get(v) != nullptr;
    case K::Str:
      if (v.kind != K::Str) fail(loc, "'in <string>' requires a string as left operand");
      return container.s.find(v.s) != std::string::npos;
    default: fail(loc, fmt::format("argument of type '{}' is not iterable", kind_name(container.kind)));
  }
}

std::vector<PyValue> iterate(const PyValue& v, SrcLoc loc) {
  switch (v.kind) {
    case K::List: case K::Tuple: return v.items;
    case K::Dict: return v.keys;
    case K::Str: {
      std::vector<PyValue> out;
      for (char c : v.s) out.push_back(PyValue::of_str(std::string(1, c)));
      return out;
    }
    default: fail(loc, fmt::format("'{}' object is not iterable here", kind_name(v.kind)));
  }
}

int64_t index_of(const PyValue& seq, const PyValue& idx, SrcLoc loc) {
  if (!is_intlike(idx)) fail(loc, fmt::format("{} indices must be integers", kind_name(seq.kind)));
  int64_t i = as_int(idx), n = static_cast<int64_t>(seq.items.size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) fail(loc, fmt::format("{} index out of range", kind_name(seq.kind)));
  return i;
}

}  // namespace

PyValue PyValue::of_bool(bool v) {
  PyValue r;
  r.kind = K::Bool;
  r.b = v;
  return r;
}
PyValue PyValue::of_int(int64_t v) {
  PyValue r;
  r.kind = K::Int;
  r.i = v;
  return r;
}
PyValue PyValue::of_float(double v) {
  PyValue r;
  r.kind = K::Float;
  r.f = v;
  return r;
}
PyValue PyValue::of_str(std::string v) {
  PyValue r;
  r.kind = K::Str;
  r.s = std::move(v);
  return r;
}
PyValue PyValue::named(Kind k, std::string s) {
  PyValue r;
  r.kind = k;
  r.s = std::move(s);
  return r;
}
PyValue PyValue::list(std::vector<PyValue> v, Kind k) {
  PyValue r;
  r.kind = k;
  r.items = std::move(v);
  return r;
}

std::string PyValue::repr() const {
  auto join = [](const std::vector<PyValue>& v) {
    std::string s;
    for (const PyValue& x : v) s += (s.empty() ? "" : ", ") + x.repr();
    return s;
  };
  switch (kind) {
    case K::None: return "None";
    case K::Bool: return b ? "True" : "False";
    case K::Int: return std::to_string(i);
    case K::Float: return fmt::format("{}", f);
    case K::Str: return "'" + s + "'";
    case K::List: return fmt::format("[{}]", join(items));
    case K::Tuple: return fmt::format("({}{})", join(items), items.size() == 1 ? "," : "");
    case K::Dict: {
      std::string t;
      for (size_t k = 0; k < keys.size(); ++k) t += (k ? ", " : "") + keys[k].repr() + ": " + items[k].repr();
      return "{" + t + "}";
    }
    case K::Config: {
      std::string t;
      for (const auto& [n, v] : config->kwargs) t += (t.empty() ? "" : ", ") + n + ": " + v.repr();
      return fmt::format("triton.Config({{{}}}, num_warps={}, num_stages={})", t, config->num_warps,
                         config->num_stages);
    }
    case K::Function: return "<function " + fn->name + ">";
    case K::Lambda: return "<lambda>";
    case K::Module: return "<module " + s + ">";
    case K::Builtin: return "<built-in " + s + ">";
    case K::Tensor: return "<tensor of " + s + ">";
  }
  return "?";
}

bool PyValue::truthy() const {
  switch (kind) {
    case K::None: return false;
    case K::Bool: return b;
    case K::Int: return i != 0;
    case K::Float: return f != 0;
    case K::Str: return !s.empty();
    case K::List: case K::Tuple: return !items.empty();
    case K::Dict: return !keys.empty();
    default: return true;
  }
}

int64_t& HostCopyCounter::count() {
  thread_local int64_t n = 0;
  return n;
}

const PyValue* PyValue::get(const PyValue& key) const {
  HostCopyCounter::count() += static_cast<int64_t>(keys.size());  // a linear scan
  for (size_t k = 0; k < keys.size(); ++k)
    if (keys[k].equals(key)) return &items[k];
  return nullptr;
}

void PyValue::set(const PyValue& key, PyValue value) {
  HostCopyCounter::count() += static_cast<int64_t>(keys.size());  // a linear scan
  for (size_t k = 0; k < keys.size(); ++k)
    if (keys[k].equals(key)) {
      items[k] = std::move(value);
      return;
    }
  keys.push_back(key);
  items.push_back(std::move(value));
}

bool PyValue::equals(const PyValue& o) const {
  if (is_number(*this) && is_number(o)) {
    if (is_intlike(*this) && is_intlike(o)) return as_int(*this) == as_int(o);
    return as_float(*this) == as_float(o);
  }
  if (kind != o.kind) return false;
  switch (kind) {
    case K::None: return true;
    case K::Str: case K::Module: case K::Builtin: case K::Tensor: return s == o.s;
    case K::List: case K::Tuple:
      if (items.size() != o.items.size()) return false;
      for (size_t k = 0; k < items.size(); ++k)
        if (!items[k].equals(o.items[k])) return false;
      return true;
    case K::Dict:
      if (keys.size() != o.keys.size()) return false;
      for (size_t k = 0; k < keys.size(); ++k) {
        const PyValue* v = o.get(keys[k]);
        if (!v || !v->equals(items[k])) return false;
      }
      return true;
    case K::Config: return config == o.config;
    case K::Function: return fn == o.fn;
    case K::Lambda: return lambda_expr == o.lambda_expr;
    default: return false;
  }
}

// ---- evaluator -------------------------------------------------------------------------------

HostEvalBudget::HostEvalBudget() {
  if (t_budgets++ == 0) t_steps = 0;
}
HostEvalBudget::~HostEvalBudget() { --t_budgets; }

PyEvaluator::PyEvaluator(const Module& module, uint32_t at) : module_(module), at_(at) {}

const Stmt* PyEvaluator::find_binding(const std::string& name, std::string* if_failure) {
  // The last binding of `name` above the decorated def (Python executes the module in order).
  const Stmt* binding = nullptr;
  std::function<void(const StmtList&)> scan = [&](const StmtList& body) {
    for (const auto& s : body) {
      if (s->loc.offset >= at_) break;
      if (auto* i = s->dyn<IfStmt>()) {  // the branch Python takes (the condition is host Python too)
        evaluating_.push_back(name);
        bool taken = false, known = true;
        try {
          taken = eval(*i->test).truthy();
        } catch (const CompileError& e) {
          known = false;
          if (if_failure && if_failure->empty())
            *if_failure = fmt::format(" (the module-level `if` at line {} may bind it, but its condition cannot be "
                                      "evaluated: {})",
                                      s->loc.line, e.message());
        }
        evaluating_.pop_back();
        if (known) scan(taken ? i->body : i->orelse);
        continue;
      }
      if (auto* a = s->dyn<AssignStmt>()) {
        for (const auto& t : a->targets)
          if (auto* n = t->dyn<NameExpr>(); n && n->id == name) binding = s.get();
      } else if (auto* a = s->dyn<AnnAssignStmt>()) {
        if (auto* n = a->target->dyn<NameExpr>(); n && n->id == name && a->value) binding = s.get();
      } else if (auto* f = s->dyn<FunctionDef>()) {
        if (f->name == name) binding = s.get();
      } else if (auto* im = s->dyn<ImportStmt>()) {
        for (const Alias& al : im->names)
          if (al.import_bound() == name) binding = s.get();
      } else if (auto* im = s->dyn<ImportFromStmt>()) {
        for (const Alias& al : im->names)
          if (al.from_bound() == name) binding = s.get();
      }
    }
  };
  scan(module_.body);
  return binding;
}

PyValue PyEvaluator::global(const std::string& name, SrcLoc loc) {
  if (auto it = globals_.find(name); it != globals_.end()) return it->second;
  if (std::find(evaluating_.begin(), evaluating_.end(), name) != evaluating_.end())
    fail(loc, fmt::format("module-level name '{}' refers to itself", name));
  std::string if_failure;
  const Stmt* binding = find_binding(name, &if_failure);
  PyValue v;
  if (!binding) {
    static const char* kBuiltins[] = {"min",  "max",   "abs",   "int",    "float", "bool",      "len",
                                      "range", "list", "tuple", "sorted", "str",   "round",     "dict",
                                      "filter", "map", "enumerate", "zip"};
    for (const char* b : kBuiltins)
      if (name == b) {
        v.kind = K::Builtin;
        v.s = name;
        return globals_[name] = v;
      }
    static const char* kPythonBuiltins[] = {"getattr", "hasattr", "isinstance", "print", "open", "type", "set",
                                            "any", "all", "sum", "callable", "vars", "eval", "exec", "super"};
    for (const char* b : kPythonBuiltins)
      if (name == b) fail(loc, fmt::format("the Python builtin '{}' cannot be evaluated in a decorator argument", name));
    fail(loc, fmt::format("name '{}' is not defined above the kernel at module level{}", name, if_failure));
  }
  evaluating_.push_back(name);
  if (auto* a = binding->dyn<AssignStmt>()) {
    PyValue whole = eval(*a->value);
    for (const auto& t : a->targets) {
      Env env;
      bind(*t, whole, env);
      if (auto it = env.find(name); it != env.end()) v = it->second;
    }
  } else if (auto* an = binding->dyn<AnnAssignStmt>()) {
    v = eval(*an->value);
  } else if (auto* f = binding->dyn<FunctionDef>()) {
    v.kind = K::Function;
    v.fn = f;
    v.module = &module_;
  } else if (auto* im = binding->dyn<ImportStmt>()) {
    for (const Alias& al : im->names)
      if (al.import_bound() == name) v = import_module(al.asname.empty() ? al.import_bound() : al.name, 0, loc);
  } else if (auto* im = binding->dyn<ImportFromStmt>()) {
    for (const Alias& al : im->names)
      if (al.from_bound() == name) {
        PyValue m = im->level == 0 && is_triton_module(im->module)
                        ? PyValue::named(K::Module, triton_alias(im->module))
                        : import_module(im->module, im->level, loc);
        v = attribute(m, al.name, loc);
      }
  }
  evaluating_.pop_back();
  return globals_[name] = v;
}

PyValue PyEvaluator::import_module(const std::string& dotted, int level, SrcLoc loc) {
  if (level == 0 && is_triton_module(dotted)) return PyValue::named(K::Module, triton_alias(dotted));
  if (level == 0 && dotted == "os") return PyValue::named(K::Module, "os");  // os.environ / os.getenv only
  if (level == 0 && is_host_module(dotted))
    fail(loc, fmt::format("module '{}' cannot be used in a decorator argument (only the triton package and "
                          "modules of Python files tritium can find)",
                          dotted));
  LoadedModule lm = load_module(module_, dotted, level);
  if (!lm.module)
    fail(loc, fmt::format("module '{}{}' cannot be used in a decorator argument: {}", std::string(level, '.'), dotted,
                          lm.why_not));
  PyValue m = PyValue::named(K::Module, std::string(level, '.') + dotted);
  m.module = lm.module;
  m.b = lm.is_package;
  return m;
}

PyValue PyEvaluator::attribute(const PyValue& v, const std::string& attr, SrcLoc loc) {
  if (v.kind == K::Module && v.module) {  // another Python file: its global, or its submodule
    const Module& m = *v.module;
    PyEvaluator other(m, std::numeric_limits<uint32_t>::max());
    if (other.find_binding(attr, nullptr)) return other.global(attr, loc);
    if (v.b) {
      LoadedModule sub = load_module(m, attr, 1);
      if (sub.module) {
        PyValue r = PyValue::named(K::Module, v.s + "." + attr);
        r.module = sub.module;
        r.b = sub.is_package;
        return r;
      }
    }
    fail(loc, fmt::format("module '{}' has no attribute '{}'", v.s, attr));
  }
  if (v.kind == K::Module && v.s == "os") {  // the process environment, as Python reads it
    note_dynamic_input();  // kernels may now depend on it: no lowering-free cache hits
    if (attr == "getenv") return PyValue::named(K::Builtin, "os.getenv");
    if (attr == "environ") {
      PyValue d;
      d.kind = K::Dict;
      d.s = "os.environ";
      for (char** e = process_environ(); e && *e; ++e) {
        const std::string kv = *e;
        const size_t eq = kv.find('=');
        if (eq == std::string::npos) continue;
        d.keys.push_back(PyValue::of_str(kv.substr(0, eq)));
        d.items.push_back(PyValue::of_str(kv.substr(eq + 1)));
      }
      return d;
    }
    fail(loc, fmt::format("os.{} cannot be evaluated in a decorator argument or module-level condition (only "
                          "os.environ and os.getenv)",
                          attr));
  }
  if (v.kind == K::Dict && attr == "get") {
    PyValue m = PyValue::named(K::Builtin, "dict.get");
    m.items.push_back(v);
    return m;
  }
  if (v.kind == K::Module) {
    static const char* kTriton[] = {"Config", "next_power_of_2", "cdiv", "autotune", "heuristics", "jit"};
    if (v.s == "triton")
      for (const char* n : kTriton)
        if (attr == n) return PyValue::named(K::Builtin, "triton." + attr);
    if (v.s == "triton" && attr == "__version__")  // what the Python package reports (compat.py)
      return PyValue::of_str(std::string("3.6.0+tritium.") + TRITIUM_VERSION);
    PyValue m;
    m.kind = K::Module;
    m.s = v.s + "." + attr;
    if (v.s == "triton" && (attr == "runtime" || attr == "backends" || attr == "testing" || attr == "compiler" ||
                            attr == "knobs" || attr == "tools"))
      fail(loc, fmt::format("triton.{} cannot be evaluated in a decorator argument: it is host code (device queries, "
                            "benchmarking), which tritium does not run",
                            attr));
    if (is_triton_module(v.s)) return m;
    fail(loc, fmt::format("module '{}' cannot be used in a decorator argument (only the triton package)", v.s));
  }
  if (v.kind == K::Config) {
    if (attr == "num_warps") return PyValue::of_int(v.config->num_warps);
    if (attr == "num_stages") return PyValue::of_int(v.config->num_stages);
    if (attr == "num_ctas") return PyValue::of_int(v.config->num_ctas);
    if (attr == "kwargs") {
      PyValue d;
      d.kind = K::Dict;
      for (const auto& [n, x] : v.config->kwargs) d.keys.push_back(PyValue::of_str(n)), d.items.push_back(x);
      return d;
    }
  }
  if (v.kind == K::Tensor && attr == "dtype") return PyValue::of_str(v.s);
  fail(loc, fmt::format("attribute '{}' of a {} cannot be evaluated in a decorator argument", attr, kind_name(v.kind)));
}

void PyEvaluator::bind(const Expr& target, const PyValue& v, Env& env) {
  if (auto* n = target.dyn<NameExpr>()) {
    env[n->id] = v;
    return;
  }
  const ExprList* elts = nullptr;
  if (auto* t = target.dyn<TupleExpr>()) elts = &t->elts;
  if (auto* l = target.dyn<ListExpr>()) elts = &l->elts;
  if (!elts) fail(target.loc, "only names and tuples of names can be assigned here");
  std::vector<PyValue> parts = iterate(v, target.loc);
  if (parts.size() != elts->size())
    fail(target.loc, fmt::format("cannot unpack {} values into {} names", parts.size(), elts->size()));
  for (size_t k = 0; k < parts.size(); ++k) bind(*(*elts)[k], parts[k], env);
}

void PyEvaluator::comprehension(const std::vector<Comprehension>& gens, size_t i, Env& env,
                                const std::function<void(Env&)>& emit) {
  if (i == gens.size()) {
    emit(env);
    return;
  }
  const Comprehension& g = gens[i];
  for (const PyValue& x : iterate(eval(*g.iter, env), g.iter->loc)) {
    Env inner = env;
    bind(*g.target, x, inner);
    bool keep = true;
    for (const auto& c : g.ifs) keep = keep && eval(*c, inner).truthy();
    if (keep) comprehension(gens, i + 1, inner, emit);
  }
}

PyValue PyEvaluator::eval(const Expr& e, const Env& locals) {
  charge(e.loc);
  switch (e.kind) {
    case ExprKind::Int: {
      const auto& x = e.as<IntExpr>();
      if (x.overflow || x.value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail(e.loc, "integer literal " + x.text + " does not fit in 64 bits");
      return PyValue::of_int(static_cast<int64_t>(x.value));
    }
    case ExprKind::Float: return PyValue::of_float(e.as<FloatExpr>().value);
    case ExprKind::Str:
      if (e.as<StrExpr>().is_fstring) fail(e.loc, "f-strings cannot be evaluated in a decorator argument");
      return PyValue::of_str(e.as<StrExpr>().value);
    case ExprKind::Bool: return PyValue::of_bool(e.as<BoolExpr>().value);
    case ExprKind::None: return PyValue::none();
    case ExprKind::Name: {
      const std::string& id = e.as<NameExpr>().id;
      if (auto it = locals.find(id); it != locals.end()) return it->second;
      if (id == "True" || id == "False") return PyValue::of_bool(id == "True");
      return global(id, e.loc);
    }
    case ExprKind::Attribute: {
      const auto& a = e.as<AttributeExpr>();
      return attribute(eval(*a.value, locals), a.attr, a.attr_loc);
    }
    case ExprKind::Subscript: {
      const auto& s = e.as<SubscriptExpr>();
      PyValue v = eval(*s.value, locals);
      if (s.index->is<SliceExpr>()) fail(s.index->loc, "slices cannot be evaluated in a decorator argument");
      PyValue idx = eval(*s.index, locals);
      if (v.kind == K::Dict) {
        if (const PyValue* r = v.get(idx)) return *r;
        if (v.s == "os.environ")
          fail(s.index->loc, fmt::format("os.environ[{}]: the environment variable is not set", idx.repr()));
        fail(s.index->loc, fmt::format("key {} is not among the kernel's arguments here", idx.repr()));
      }
      if (v.kind == K::List || v.kind == K::Tuple) return v.items[static_cast<size_t>(index_of(v, idx, s.index->loc))];
      fail(e.loc, fmt::format("'{}' object is not subscriptable", kind_name(v.kind)));
    }
    case ExprKind::Call: return call_expr(e.as<CallExpr>(), locals);
    case ExprKind::BinOp: {
      const auto& b = e.as<BinaryExpr>();
      PyValue l = eval(*b.lhs, locals), r = eval(*b.rhs, locals);
      if (b.op == BinOp::Mul && (l.kind == K::List || r.kind == K::List) && (is_intlike(l) || is_intlike(r))) {
        const PyValue& seq = l.kind == K::List ? l : r;
        int64_t n = as_int(l.kind == K::List ? r : l);
        // The elements are copied whole: [[0] * 10**6] * 10**6 holds 10**12 values.
        if (n > 0 && !seq.items.empty()) {
          check_size(static_cast<size_t>(n), b.op_loc);  // first: bounds the product below
          check_size(static_cast<size_t>(n) * (deep_count(seq) - 1), b.op_loc);
        }
        PyValue out = PyValue::list({});
        for (int64_t k = 0; k < n; ++k) out.items.insert(out.items.end(), seq.items.begin(), seq.items.end());
        return out;
      }
      return arith(b.op, l, r, b.op_loc);
    }
    case ExprKind::UnaryOp: {
      const auto& u = e.as<UnaryExpr>();
      PyValue v = eval(*u.operand, locals);
      if (u.op == UnaryOp::Not) return PyValue::of_bool(!v.truthy());
      if (!is_number(v)) fail(e.loc, fmt::format("bad operand type for unary {}: '{}'", to_string(u.op), kind_name(v.kind)));
      if (u.op == UnaryOp::UAdd) return is_intlike(v) ? PyValue::of_int(as_int(v)) : v;
      if (u.op == UnaryOp::Invert) {
        if (!is_intlike(v)) fail(e.loc, "bad operand type for unary ~: 'float'");
        return PyValue::of_int(~as_int(v));
      }
      if (v.kind == K::Float) return PyValue::of_float(-v.f);
      return arith(BinOp::Sub, PyValue::of_int(0), v, e.loc);
    }
    case ExprKind::BoolOp: {
      const auto& b = e.as<BoolOpExpr>();
      PyValue v;
      for (const auto& x : b.values) {
        v = eval(*x, locals);
        if ((b.op == BoolOp::And) != v.truthy()) return v;
      }
      return v;
    }
    case ExprKind::Compare: {
      const auto& c = e.as<CompareExpr>();
      PyValue l = eval(*c.left, locals);
      for (size_t k = 0; k < c.ops.size(); ++k) {
        PyValue r = eval(*c.comparators[k], locals);
        SrcLoc at = c.op_locs.size() > k ? c.op_locs[k] : e.loc;
        bool ok = false;
        switch (c.ops[k]) {
          case CmpOp::Eq: ok = l.equals(r); break;
          case CmpOp::NotEq: ok = !l.equals(r); break;
          case CmpOp::Lt: ok = compare3(l, r, at) < 0; break;
          case CmpOp::LtE: ok = compare3(l, r, at) <= 0; break;
          case CmpOp::Gt: ok = compare3(l, r, at) > 0; break;
          case CmpOp::GtE: ok = compare3(l, r, at) >= 0; break;
          case CmpOp::Is: ok = (l.kind == K::None && r.kind == K::None) || (l.kind == r.kind && l.equals(r) && l.kind == K::Bool); break;
          case CmpOp::IsNot: ok = !((l.kind == K::None && r.kind == K::None) || (l.kind == r.kind && l.equals(r) && l.kind == K::Bool)); break;
          case CmpOp::In: ok = contains(r, l, at); break;
          case CmpOp::NotIn: ok = !contains(r, l, at); break;
        }
        if (!ok) return PyValue::of_bool(false);
        l = r;
      }
      return PyValue::of_bool(true);
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<IfExpExpr>();
      return eval(*i.test, locals).truthy() ? eval(*i.body, locals) : eval(*i.orelse, locals);
    }
    case ExprKind::Lambda: {
      PyValue v;
      v.kind = K::Lambda;
      v.lambda_expr = &e.as<LambdaExpr>();
      if (!locals.empty()) fail(e.loc, "a lambda inside a comprehension or function cannot be evaluated here");
      v.module = &module_;
      return v;
    }
    case ExprKind::Tuple: case ExprKind::List: {
      const ExprList& elts = e.kind == ExprKind::Tuple ? e.as<TupleExpr>().elts : e.as<ListExpr>().elts;
      PyValue out = PyValue::list({}, e.kind == ExprKind::Tuple ? K::Tuple : K::List);
      for (const auto& x : elts) {
        if (auto* st = x->dyn<StarredExpr>()) {
          for (const PyValue& y : iterate(eval(*st->value, locals), st->loc)) out.items.push_back(y);
          continue;
        }
        out.items.push_back(eval(*x, locals));
      }
      return out;
    }
    case ExprKind::Dict: {
      const auto& d = e.as<DictExpr>();
      PyValue out;
      out.kind = K::Dict;
      auto put = [&](const PyValue& k, const PyValue& v) {
        out.set(k, v);
        charge(e.loc);  // the set's scan is counted: merging large dicts is refused, not slow
        check_size(out.keys.size(), e.loc);
      };
      for (size_t k = 0; k < d.keys.size(); ++k) {
        if (!d.keys[k]) {
          PyValue inner = eval(*d.values[k], locals);
          if (inner.kind != K::Dict) fail(d.values[k]->loc, "'**' needs a dict here");
          for (size_t j = 0; j < inner.keys.size(); ++j) put(inner.keys[j], inner.items[j]);
          continue;
        }
        put(eval(*d.keys[k], locals), eval(*d.values[k], locals));
      }
      return out;
    }
    case ExprKind::ListComp: case ExprKind::GeneratorExp: {
      const auto& gens = e.kind == ExprKind::ListComp ? e.as<ListCompExpr>().generators : e.as<GeneratorExpr>().generators;
      const Expr& elt = e.kind == ExprKind::ListComp ? *e.as<ListCompExpr>().elt : *e.as<GeneratorExpr>().elt;
      PyValue out = PyValue::list({});
      Env env = locals;
      comprehension(gens, 0, env, [&](Env& inner) {
        out.items.push_back(eval(elt, inner));
        check_size(out.items.size(), elt.loc);
      });
      return out;
    }
    case ExprKind::DictComp: {
      const auto& d = e.as<DictCompExpr>();
      PyValue out;
      out.kind = K::Dict;
      Env env = locals;
      comprehension(d.generators, 0, env, [&](Env& inner) {
        PyValue k = eval(*d.key, inner);
        out.set(k, eval(*d.value, inner));  // a repeated key replaces its value, as in Python
        check_size(out.keys.size(), d.loc);
      });
      return out;
    }
    default: break;
  }
  fail(e.loc, fmt::format("a {} expression cannot be evaluated in a decorator argument", to_string(e.kind)));
}

PyValue PyEvaluator::call_expr(const CallExpr& c, const Env& locals) {
  // `lst.append(x)` is a statement-level mutation (see exec_block); refuse it elsewhere.
  PyValue fn = eval(*c.func, locals);
  std::vector<PyValue> args;
  for (const auto& a : c.args) {
    if (auto* st = a->dyn<StarredExpr>()) {
      for (const PyValue& y : iterate(eval(*st->value, locals), st->loc)) args.push_back(y);
      continue;
    }
    args.push_back(eval(*a, locals));
  }
  std::vector<std::pair<std::string, PyValue>> kwargs;
  for (const Keyword& k : c.keywords) {
    // Config(pre_hook=...) runs host code: refuse it before evaluating its (host) value.
    if (fn.kind == K::Builtin && fn.s == "triton.Config" && (k.name == "pre_hook" || k.name == "ir_override") &&
        !k.value->is<NoneExpr>())
      fail(c.loc, fmt::format("triton.Config({}=...) is not supported: tritium cannot run host code", k.name));
    if (k.name.empty()) {
      PyValue d = eval(*k.value, locals);
      if (d.kind != K::Dict) fail(k.loc, "'**' needs a dict here");
      for (size_t j = 0; j < d.keys.size(); ++j) {
        if (d.keys[j].kind != K::Str) fail(k.loc, "keywords must be strings");
        kwargs.emplace_back(d.keys[j].s, d.items[j]);
      }
      continue;
    }
    kwargs.emplace_back(k.name, eval(*k.value, locals));
  }
  if (fn.kind == K::Builtin && fn.s == "dict.get") {
    if (args.empty() || args.size() > 2 || !kwargs.empty()) fail(c.loc, "dict.get() takes a key and an optional default");
    const PyValue* v = fn.items[0].get(args[0]);
    return v ? *v : (args.size() == 2 ? args[1] : PyValue::none());
  }
  if (fn.kind == K::Builtin) return call_builtin(fn.s, args, kwargs, c.loc);
  if (!kwargs.empty() && fn.kind != K::Function)
    fail(c.loc, fmt::format("keyword arguments to {} cannot be evaluated in a decorator argument", fn.repr()));
  return call(fn, args, c.loc, kwargs);
}

PyValue PyEvaluator::call(const PyValue& fn, const std::vector<PyValue>& args, SrcLoc loc,
                          const std::vector<std::pair<std::string, PyValue>>& kwargs) {
  if (++t_call_depth > kMaxHostCallDepth) {
    --t_call_depth;
    fail(loc, "calls nested too deeply in host code evaluated at compile time");
  }
  struct Guard {
    ~Guard() { --t_call_depth; }
  } guard;
  if (fn.kind == K::Builtin) return call_builtin(fn.s, args, {}, loc);
  if ((fn.kind == K::Function || fn.kind == K::Lambda) && fn.module && fn.module != &module_) {
    PyEvaluator other(*fn.module, std::numeric_limits<uint32_t>::max());
    return other.call(fn, args, loc, kwargs);
  }
  if (fn.kind == K::Lambda) {
    const LambdaExpr& l = *fn.lambda_expr;
    Env env;
    size_t k = 0;
    for (const Param& p : l.params) {
      if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKwargs)
        fail(p.loc, "a lambda with *args or **kwargs cannot be evaluated here");
      if (k < args.size()) env[p.name] = args[k++];
      else if (p.default_value) env[p.name] = eval(*p.default_value);
      else fail(loc, fmt::format("the lambda at line {} takes {} argument(s), {} given", l.loc.line, l.params.size(), args.size()));
    }
    if (k < args.size())
      fail(loc, fmt::format("the lambda at line {} takes {} argument(s), {} given", l.loc.line, l.params.size(), args.size()));
    return eval(*l.body, env);
  }
  if (fn.kind == K::Function) return call_def(*fn.fn, args, kwargs, loc);
  fail(loc, fmt::format("'{}' object is not callable", kind_name(fn.kind)));
}

PyValue PyEvaluator::call_def(const FunctionDef& f, const std::vector<PyValue>& args,
                              const std::vector<std::pair<std::string, PyValue>>& kwargs, SrcLoc loc) {
  if (f.parse_error) fail(loc, fmt::format("function '{}' does not parse: {}", f.name, f.parse_error->message));
  bool plain = f.decorators.empty();
  for (const auto& d : f.decorators) plain = plain || decorator_name(*d) == "constexpr_function";
  if (!plain) fail(loc, fmt::format("decorated function '{}' cannot be called in a decorator argument", f.name));
  Env env;
  size_t k = 0;
  for (const auto& [name, v] : kwargs) {
    bool known = false;
    for (const Param& p : f.params) known = known || p.name == name;
    if (!known) fail(loc, fmt::format("{}() got an unexpected keyword argument '{}'", f.name, name));
  }
  for (const Param& p : f.params) {
    if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKwargs)
      fail(p.loc, fmt::format("function '{}' with *args / **kwargs cannot be evaluated here", f.name));
    const PyValue* kw = nullptr;
    for (const auto& [name, v] : kwargs)
      if (name == p.name) kw = &v;
    if (k < args.size() && p.kind != ParamKind::KeywordOnly) {
      if (kw) fail(loc, fmt::format("{}() got multiple values for argument '{}'", f.name, p.name));
      env[p.name] = args[k++];
    } else if (kw) {
      env[p.name] = *kw;
    } else if (p.default_value) {
      env[p.name] = eval(*p.default_value);
    } else {
      fail(loc, fmt::format("{}() missing argument '{}'", f.name, p.name));
    }
  }
  if (k < args.size()) fail(loc, fmt::format("{}() takes {} argument(s), {} given", f.name, f.params.size(), args.size()));
  PyValue ret;
  exec_block(f.body, env, ret);
  return ret;
}

bool PyEvaluator::exec_block(const StmtList& body, Env& env, PyValue& ret) {
  for (const auto& s : body) {
    charge(s->loc);
    switch (s->kind) {
      case StmtKind::Pass: continue;
      case StmtKind::Expr: {
        const Expr& x = *s->as<ExprStmt>().value;
        if (x.is<StrExpr>()) continue;  // docstring
        const auto* c = x.dyn<CallExpr>();
        const auto* a = c ? c->func->dyn<AttributeExpr>() : nullptr;
        const auto* n = a ? a->value->dyn<NameExpr>() : nullptr;
        if (n && (a->attr == "append" || a->attr == "extend") && c->args.size() == 1 && env.count(n->id) &&
            env[n->id].kind == K::List) {
          PyValue v = eval(*c->args[0], env);
          if (a->attr == "append") env[n->id].items.push_back(v);
          else for (const PyValue& y : iterate(v, c->args[0]->loc)) env[n->id].items.push_back(y);
          check_size(env[n->id].items.size(), s->loc);
          continue;
        }
        break;
      }
      case StmtKind::Assign: {
        const auto& a = s->as<AssignStmt>();
        PyValue v = eval(*a.value, env);
        for (const auto& t : a.targets) bind(*t, v, env);
        continue;
      }
      case StmtKind::AugAssign: {
        const auto& a = s->as<AugAssignStmt>();
        const auto* n = a.target->dyn<NameExpr>();
        if (!n || !env.count(n->id)) break;
        PyValue r = eval(*a.value, env);
        PyValue& l = env[n->id];
        if (l.kind == K::List && a.op == BinOp::Add) {
          for (const PyValue& y : iterate(r, a.value->loc)) l.items.push_back(y);
          check_size(l.items.size(), s->loc);
        } else {
          l = arith(a.op, l, r, s->loc);
        }
        continue;
      }
      case StmtKind::If: {
        const auto& i = s->as<IfStmt>();
        if (exec_block(eval(*i.test, env).truthy() ? i.body : i.orelse, env, ret)) return true;
        continue;
      }
      case StmtKind::For: {
        const auto& f = s->as<ForStmt>();
        if (!f.orelse.empty()) break;
        for (const PyValue& x : iterate(eval(*f.iter, env), f.iter->loc)) {
          bind(*f.target, x, env);
          if (exec_block(f.body, env, ret)) return true;
        }
        continue;
      }
      case StmtKind::While: {
        const auto& w = s->as<WhileStmt>();
        if (!w.orelse.empty()) break;
        for (int iter = 0; eval(*w.test, env).truthy(); ++iter) {
          if (iter > 1000000) fail(s->loc, "a while loop in host code ran more than 10^6 iterations");
          if (exec_block(w.body, env, ret)) return true;
        }
        continue;
      }
      case StmtKind::Return: {
        const auto& r = s->as<ReturnStmt>();
        ret = r.value ? eval(*r.value, env) : PyValue::none();
        return true;
      }
      default: break;
    }
    fail(s->loc, fmt::format("a {} statement cannot be evaluated in a function called by a decorator (only "
                             "assignments, if, for, while, list.append and return)",
                             to_string(s->kind)));
  }
  return false;
}

PyValue PyEvaluator::call_builtin(const std::string& name, const std::vector<PyValue>& args,
                                  const std::vector<std::pair<std::string, PyValue>>& kwargs, SrcLoc loc) {
  auto need = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      fail(loc, fmt::format("{}() takes {} argument(s), {} given", name, lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi), args.size()));
  };
  auto int_arg = [&](const PyValue& v) {
    if (!is_intlike(v)) fail(loc, fmt::format("{}() needs an integer, got {}", name, v.repr()));
    return as_int(v);
  };
  if (name == "triton.Config") {
    auto c = std::make_shared<PyConfig>();
    c->loc = loc;
    const PyValue* kw = args.empty() ? nullptr : &args[0];
    if (args.size() > 1) fail(loc, "triton.Config takes its options as keywords (num_warps=, num_stages=, ...)");
    for (const auto& [k, v] : kwargs) {
      if (k == "kwargs") kw = &v;
      else if (k == "num_warps") c->num_warps = int_arg(v);
      else if (k == "num_stages") c->num_stages = int_arg(v);
      else if (k == "num_ctas") c->num_ctas = int_arg(v);
      else if (k == "maxnreg") {
        if (v.kind != K::None) c->has_maxnreg = true, c->maxnreg = int_arg(v);
      } else if (k == "pre_hook") {
        if (v.kind != K::None) fail(loc, "triton.Config(pre_hook=...) is not supported: tritium cannot run host code");
      } else if (k == "ir_override") {
        if (v.kind != K::None) fail(loc, "triton.Config(ir_override=...) is not supported");
      } else {
        fail(loc, fmt::format("triton.Config() got an unexpected keyword argument '{}'", k));
      }
    }
    // Checked here, at the Config, before they are narrowed to the launch's int fields (2**32 + 4
    // warps became 4 without a word).
    if (c->num_warps < 1 || c->num_warps > 64 || (c->num_warps & (c->num_warps - 1)) != 0)
      fail(loc, fmt::format("triton.Config(num_warps={}): num_warps must be a power of two in [1, 64]", c->num_warps));
    if (c->num_stages < 0 || c->num_stages > 64)
      fail(loc, fmt::format("triton.Config(num_stages={}): num_stages must be in [0, 64]", c->num_stages));
    if (c->num_ctas < 1 || c->num_ctas > 16)
      fail(loc, fmt::format("triton.Config(num_ctas={}): num_ctas must be in [1, 16]", c->num_ctas));
    if (c->has_maxnreg && (c->maxnreg < 1 || c->maxnreg > 255))
      fail(loc, fmt::format("triton.Config(maxnreg={}): maxnreg must be in [1, 255]", c->maxnreg));
    if (!kw) fail(loc, "triton.Config() needs its meta-parameter dict (triton.Config({'BLOCK': 128}, ...))");
    if (kw->kind != K::Dict) fail(loc, fmt::format("triton.Config() needs a dict of meta-parameters, got {}", kw->repr()));
    for (size_t j = 0; j < kw->keys.size(); ++j) {
      if (kw->keys[j].kind != K::Str) fail(loc, "triton.Config meta-parameter names must be strings");
      c->kwargs.emplace_back(kw->keys[j].s, kw->items[j]);
    }
    PyValue v;
    v.kind = K::Config;
    v.config = c;
    return v;
  }
  if (!kwargs.empty() && name != "sorted" && name != "dict")
    fail(loc, fmt::format("keyword arguments to {}() cannot be evaluated here", name));
  if (name == "triton.next_power_of_2") {
    need(1, 1);
    int64_t n = int_arg(args[0]);
    if (n > (int64_t{1} << 62)) fail(loc, "next_power_of_2 overflows 64 bits");
    int64_t p = 1;
    while (p < n) p <<= 1;
    return PyValue::of_int(p);
  }
  if (name == "triton.cdiv") {
    need(2, 2);
    if (is_intlike(args[0]) && is_intlike(args[1]))
      return PyValue::of_int(floor_div(as_int(args[0]) + as_int(args[1]) - 1, as_int(args[1]), loc));
    return arith(BinOp::FloorDiv, arith(BinOp::Sub, arith(BinOp::Add, args[0], args[1], loc), PyValue::of_int(1), loc),
                 args[1], loc);
  }
  if (name == "min" || name == "max") {
    std::vector<PyValue> xs = args.size() == 1 ? iterate(args[0], loc) : args;
    if (xs.empty()) fail(loc, name + "() of an empty sequence");
    PyValue best = xs[0];
    for (size_t j = 1; j < xs.size(); ++j) {
      int c = compare3(xs[j], best, loc);
      if (name == "min" ? c < 0 : c > 0) best = xs[j];
    }
    return best;
  }
  if (name == "abs") {
    need(1, 1);
    if (args[0].kind == K::Float) return PyValue::of_float(std::fabs(args[0].f));
    int64_t v = int_arg(args[0]);
    return v < 0 ? arith(BinOp::Sub, PyValue::of_int(0), PyValue::of_int(v), loc) : PyValue::of_int(v);
  }
  if (name == "int") {
    need(1, 1);
    if (args[0].kind == K::Float) {
      if (!std::isfinite(args[0].f) || std::fabs(args[0].f) >= 9.2e18) fail(loc, "int() of a float out of range");
      return PyValue::of_int(static_cast<int64_t>(std::trunc(args[0].f)));
    }
    return PyValue::of_int(int_arg(args[0]));
  }
  if (name == "float") {
    need(1, 1);
    if (!is_number(args[0])) fail(loc, fmt::format("float() of {}", args[0].repr()));
    return PyValue::of_float(as_float(args[0]));
  }
  if (name == "bool") {
    need(0, 1);
    return PyValue::of_bool(!args.empty() && args[0].truthy());
  }
  if (name == "str") {
    need(1, 1);
    if (args[0].kind == K::Str) return args[0];
    // repr() of a container is about as long as its elements' reprs: bound it before
    // building it (str([s, s]) doubled 40 times ran out of memory).
    check_size(deep_count(args[0]), loc);
    PyValue r = PyValue::of_str(args[0].repr());
    check_size(r.s.size(), loc);
    return r;
  }
  if (name == "round") {
    need(1, 1);
    if (is_intlike(args[0])) return PyValue::of_int(as_int(args[0]));
    return PyValue::of_int(static_cast<int64_t>(std::nearbyint(args[0].f)));  // ties to even, as Python
  }
  if (name == "len") {
    need(1, 1);
    const PyValue& v = args[0];
    if (v.kind == K::Str) return PyValue::of_int(static_cast<int64_t>(v.s.size()));
    if (v.kind == K::Dict) return PyValue::of_int(static_cast<int64_t>(v.keys.size()));
    if (v.kind == K::List || v.kind == K::Tuple) return PyValue::of_int(static_cast<int64_t>(v.items.size()));
    fail(loc, fmt::format("object of type '{}' has no len()", kind_name(v.kind)));
  }
  if (name == "range") {
    need(1, 3);
    int64_t lo = 0, hi = 0, st = 1;
    if (args.size() == 1) hi = int_arg(args[0]);
    else lo = int_arg(args[0]), hi = int_arg(args[1]);
    if (args.size() == 3) st = int_arg(args[2]);
    if (st == 0) fail(loc, "range() arg 3 must not be zero");
    PyValue out = PyValue::list({});
    for (int64_t v = lo; st > 0 ? v < hi : v > hi; v += st) {
      out.items.push_back(PyValue::of_int(v));
      if (out.items.size() > 100000) fail(loc, "range() too long for a decorator argument");
    }
    return out;
  }
  if (name == "list" || name == "tuple") {
    need(0, 1);
    return PyValue::list(args.empty() ? std::vector<PyValue>{} : iterate(args[0], loc), name == "list" ? K::List : K::Tuple);
  }
  if (name == "sorted") {
    need(1, 1);
    bool reverse = false;
    for (const auto& [k, v] : kwargs) {
      if (k != "reverse") fail(loc, fmt::format("sorted() keyword '{}' cannot be evaluated here", k));
      reverse = v.truthy();
    }
    std::vector<PyValue> xs = iterate(args[0], loc);
    std::stable_sort(xs.begin(), xs.end(), [&](const PyValue& a, const PyValue& b) { return compare3(a, b, loc) < 0; });
    if (reverse) std::reverse(xs.begin(), xs.end());
    return PyValue::list(xs);
  }
  if (name == "os.getenv") {
    need(1, 2);
    if (args[0].kind != K::Str) fail(loc, "os.getenv() needs a string name");
    const char* v = std::getenv(args[0].s.c_str());
    return v ? PyValue::of_str(v) : (args.size() == 2 ? args[1] : PyValue::none());
  }
  if (name == "filter" || name == "map") {
    need(2, 2);
    PyValue out = PyValue::list({});
    for (const PyValue& x : iterate(args[1], loc)) {
      if (name == "map") {
        out.items.push_back(call(args[0], {x}, loc));
      } else {
        const bool keep = args[0].kind == K::None ? x.truthy() : call(args[0], {x}, loc).truthy();
        if (keep) out.items.push_back(x);
      }
    }
    return out;
  }
  if (name == "enumerate") {
    need(1, 1);
    PyValue out = PyValue::list({});
    int64_t i = 0;
    for (const PyValue& x : iterate(args[0], loc)) out.items.push_back(PyValue::list({PyValue::of_int(i++), x}, K::Tuple));
    return out;
  }
  if (name == "zip") {
    std::vector<std::vector<PyValue>> seqs;
    for (const PyValue& a : args) seqs.push_back(iterate(a, loc));
    PyValue out = PyValue::list({});
    for (size_t i = 0; !seqs.empty(); ++i) {
      PyValue t = PyValue::list({}, K::Tuple);
      bool done = false;
      for (const auto& sq : seqs) {
        if (i >= sq.size()) done = true;
        else t.items.push_back(sq[i]);
      }
      if (done) break;
      out.items.push_back(t);
    }
    return out;
  }
  if (name == "dict") {
    need(0, 0);
    PyValue d;
    d.kind = K::Dict;
    for (const auto& [k, v] : kwargs) d.keys.push_back(PyValue::of_str(k)), d.items.push_back(v);
    return d;
  }
  fail(loc, fmt::format("{} cannot be called in a decorator argument", name));
}

}  // namespace tritium::frontend
