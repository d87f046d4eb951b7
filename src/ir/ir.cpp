#include "ir/ir.h"

#include <array>
#include <stdexcept>

namespace tritium::ir {

namespace {
constexpr std::array kOpInfo = {
#define OP(e, n, mino, maxo, nres, flags) OpInfo{n, mino, maxo, nres, static_cast<unsigned>(flags)},
#include "ir/ops.def"
#undef OP
};
struct MathInfo {
  const char* name;
  int arity;
};
constexpr std::array kMathInfo = {
#define MATH(e, n, arity) MathInfo{n, arity},
#include "ir/math_fns.def"
#undef MATH
};
}  // namespace

const OpInfo& op_info(OpKind k) { return kOpInfo[static_cast<size_t>(k)]; }
const char* math_fn_name(MathFn f) { return kMathInfo[static_cast<size_t>(f)].name; }
int math_fn_arity(MathFn f) { return kMathInfo[static_cast<size_t>(f)].arity; }
bool parse_math_fn(std::string_view name, MathFn* out) {
  for (size_t i = 0; i < kMathInfo.size(); ++i)
    if (name == kMathInfo[i].name) {
      *out = static_cast<MathFn>(i);
      return true;
    }
  return false;
}

int64_t Op::attr_int(const std::string& k, int64_t dflt) const {
  auto it = attrs.find(k);
  if (it == attrs.end()) return dflt;
  if (auto* p = std::get_if<int64_t>(&it->second)) return *p;
  throw std::logic_error(std::string("attribute '") + k + "' of " + name() + " is not an int");
}
double Op::attr_float(const std::string& k, double dflt) const {
  auto it = attrs.find(k);
  if (it == attrs.end()) return dflt;
  if (auto* p = std::get_if<double>(&it->second)) return *p;
  if (auto* p = std::get_if<int64_t>(&it->second)) return static_cast<double>(*p);
  throw std::logic_error(std::string("attribute '") + k + "' of " + name() + " is not a float");
}
std::string Op::attr_str(const std::string& k, const std::string& dflt) const {
  auto it = attrs.find(k);
  if (it == attrs.end()) return dflt;
  if (auto* p = std::get_if<std::string>(&it->second)) return *p;
  throw std::logic_error(std::string("attribute '") + k + "' of " + name() + " is not a string");
}
std::vector<int64_t> Op::attr_ints(const std::string& k) const {
  auto it = attrs.find(k);
  if (it == attrs.end()) return {};
  if (auto* p = std::get_if<std::vector<int64_t>>(&it->second)) return *p;
  throw std::logic_error(std::string("attribute '") + k + "' of " + name() + " is not an int list");
}

Value* Function::new_value(Type t) {
  auto v = std::make_unique<Value>();
  v->id = static_cast<uint32_t>(values_.size());
  v->type = std::move(t);
  values_.push_back(std::move(v));
  return values_.back().get();
}

Function* Module::find(const std::string& name) const {
  for (auto& f : functions)
    if (f->name == name) return f.get();
  return nullptr;
}
Function* Module::add(std::string name) {
  functions.push_back(std::make_unique<Function>());
  functions.back()->name = std::move(name);
  return functions.back().get();
}

void walk(Block& b, const std::function<void(Op&)>& fn) {
  for (auto& op : b.ops) {
    fn(*op);
    for (auto& r : op->regions) walk(r->block, fn);
  }
}

void replace_all_uses(Block& b, Value* from, Value* to) {
  walk(b, [&](Op& op) {
    for (auto& v : op.operands)
      if (v == from) v = to;
  });
}

}  // namespace tritium::ir
