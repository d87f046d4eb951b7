#include "ir/printer.h"

#include <fmt/format.h>

#include <sstream>

namespace tritium::ir {
namespace {

std::string attr_str(const Attr& a) {
  struct V {
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return fmt::format("{}", v); }
    std::string operator()(const std::string& v) const { return "\"" + v + "\""; }
    std::string operator()(const std::vector<int64_t>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
      return s + "]";
    }
  };
  return std::visit(V{}, a);
}

std::string val(const Value* v) { return "%" + std::to_string(v->id); }

class Printer {
 public:
  std::ostringstream os;
  void block(const Block& b, int indent) {
    for (const auto& op : b.ops) this->op(*op, indent);
  }
  void op(const Op& o, int indent) {
    std::string pad(indent * 2, ' ');
    os << pad;
    for (size_t i = 0; i < o.results.size(); ++i) os << (i ? ", " : "") << val(o.results[i]);
    if (!o.results.empty()) os << " = ";
    os << o.name();
    if (o.kind == OpKind::Math) os << "." << math_fn_name(o.math_fn());
    for (size_t i = 0; i < o.operands.size(); ++i) os << (i ? ", " : " ") << val(o.operands[i]);
    bool first = true;
    for (const auto& [k, a] : o.attrs) {
      if (o.kind == OpKind::Math && k == "fn") continue;
      os << (first ? " {" : ", ") << k << " = " << attr_str(a);
      first = false;
    }
    if (!first) os << "}";
    if (!o.results.empty()) {
      os << " : ";
      for (size_t i = 0; i < o.results.size(); ++i) os << (i ? ", " : "") << o.results[i]->type.str();
    }
    if (!o.regions.empty()) {
      os << " {\n";
      for (size_t r = 0; r < o.regions.size(); ++r) {
        const Block& b = o.regions[r]->block;
        if (r) os << pad << "} {\n";
        os << pad << " ^(";
        for (size_t i = 0; i < b.args.size(); ++i)
          os << (i ? ", " : "") << val(b.args[i]) << ": " << b.args[i]->type.str();
        os << "):\n";
        block(b, indent + 1);
      }
      os << pad << "}";
    }
    os << "\n";
  }
};

}  // namespace

std::string print(const Function& fn) {
  Printer p;
  p.os << (fn.is_kernel ? "kernel @" : "func @") << fn.name << "(";
  for (size_t i = 0; i < fn.body.args.size(); ++i)
    p.os << (i ? ", " : "") << val(fn.body.args[i]) << ": " << fn.body.args[i]->type.str();
  p.os << ")";
  if (!fn.result_types.empty()) {
    p.os << " -> (";
    for (size_t i = 0; i < fn.result_types.size(); ++i) p.os << (i ? ", " : "") << fn.result_types[i].str();
    p.os << ")";
  }
  p.os << " {\n";
  p.block(fn.body, 1);
  p.os << "}\n";
  return p.os.str();
}

std::string print(const Module& m) {
  std::string s;
  for (size_t i = 0; i < m.functions.size(); ++i) s += (i ? "\n" : "") + print(*m.functions[i]);
  return s;
}

}  // namespace tritium::ir
