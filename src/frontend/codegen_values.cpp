#include "frontend/codegen_values.h"

#include <fmt/format.h>

#include <cmath>

#include "frontend/ast.h"

namespace tritium::frontend::cg {

using K = CValue::Kind;

void flatten(const CValue& v, std::vector<ir::Value*>& out) {
  if (v.kind == K::Tensor) {
    out.push_back(v.tensor);
  } else if (v.kind == K::Tuple) {
    for (const auto& e : v.elems) flatten(e, out);
  }
}

std::vector<ir::Value*> flatten(const CValue& v) {
  std::vector<ir::Value*> out;
  flatten(v, out);
  return out;
}

std::vector<ir::Type> flat_types(const CValue& v) {
  std::vector<ir::Type> out;
  for (auto* x : flatten(v)) out.push_back(x->type);
  return out;
}

CValue unflatten(const CValue& tmpl, const std::vector<ir::Value*>& values, size_t& cursor) {
  if (tmpl.kind == K::Tensor) return CValue::of_tensor(values.at(cursor++));
  if (tmpl.kind == K::Tuple) {
    CValue out = tmpl;
    for (auto& e : out.elems) e = unflatten(e, values, cursor);
    return out;
  }
  return tmpl;
}

bool has_tensor(const CValue& v) {
  if (v.kind == K::Tensor) return true;
  if (v.kind == K::Tuple)
    for (const auto& e : v.elems)
      if (has_tensor(e)) return true;
  return false;
}

namespace {

// Equality of Python ints (possibly beyond int64 in `u`).
bool same_int(const CValue& a, const CValue& b) {
  if (a.is_u64 != b.is_u64) return false;
  return a.is_u64 ? a.u == b.u : a.i == b.i;
}

bool same_leaf(const CValue& a, const CValue& b, bool by_type) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::Tensor: return by_type ? a.tensor->type == b.tensor->type : a.tensor == b.tensor;
    case K::Int: return same_int(a, b);
    case K::Float: return a.f == b.f || (std::isnan(a.f) && std::isnan(b.f));
    case K::Bool: return a.b == b.b;
    case K::None: case K::Ellipsis: return true;
    case K::Str: case K::Builtin: case K::Namespace: return a.s == b.s;
    case K::DType: return a.dtype == b.dtype;
    case K::JitFn: case K::ConstexprFn: return a.fn == b.fn;
    case K::Lambda: return a.lambda_expr == b.lambda_expr;
    case K::Tuple: case K::Slice: case K::Method: {
      if (a.s != b.s || a.elems.size() != b.elems.size()) return false;
      for (size_t i = 0; i < a.elems.size(); ++i)
        if (!same_leaf(a.elems[i], b.elems[i], by_type)) return false;
      return true;
    }
  }
  return false;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(shape[i]);
  }
  return s;
}

std::string int_text(const CValue& v) { return v.is_u64 ? std::to_string(v.u) : std::to_string(v.i); }

std::string ident_safe(const std::string& s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out += c;
    else if (c == '_') out += "__";
    else out += fmt::format("_{:02x}", u);
  }
  return out;
}

}  // namespace

bool same_value(const CValue& a, const CValue& b) { return same_leaf(a, b, false); }

bool same_type(const CValue& a, const CValue& b) { return same_leaf(a, b, true); }

std::string py_float(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  std::string s = fmt::format("{}", f);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// "block pointer <[8, 16], fp32>": a block pointer / descriptor in diagnostics (its block
// shape is field 4 resp. 3, see builtins_block_ptr.cpp).
static std::string record_text(const CValue& v) {
  std::string dims;
  for (const auto& d : v.elems[v.s == kBlockPtrTag ? 4 : 3].elems) dims += (dims.empty() ? "" : ", ") + std::to_string(d.i);
  return fmt::format("{} <[{}], {}>", v.describe(), dims, ir::name(v.elems[0].tensor->type.scalar));
}

std::string type_text(const CValue& v) {
  switch (v.kind) {
    case K::Tensor: return v.tensor->type.str();
    case K::Tuple: {
      if (is_record(v)) return record_text(v);
      std::string s = "(";
      for (size_t i = 0; i < v.elems.size(); ++i) {
        if (i) s += ", ";
        s += type_text(v.elems[i]);
      }
      if (v.elems.size() == 1) s += ",";
      return s + ")";
    }
    case K::Int: case K::Float: case K::Bool: case K::Str:
      return "constexpr[" + py_repr(v) + "]";
    case K::None: return "None";
    default: return v.describe();
  }
}

std::string py_str(const CValue& v) {
  switch (v.kind) {
    case K::Int: return int_text(v);
    case K::Float: return py_float(v.f);
    case K::Bool: return v.b ? "True" : "False";
    case K::None: return "None";
    case K::Str: return v.s;
    case K::DType: return v.dtype.is_ptr ? "pointer<" + std::string(ir::name(v.dtype.scalar)) + ">"
                                         : std::string(ir::name(v.dtype.scalar));
    case K::Tuple: {
      if (is_record(v)) return record_text(v);
      std::string s = "(";
      for (size_t i = 0; i < v.elems.size(); ++i) {
        if (i) s += ", ";
        s += py_repr(v.elems[i]);
      }
      if (v.elems.size() == 1) s += ",";
      return s + ")";
    }
    case K::Tensor: return "tensor(" + v.tensor->type.str() + ")";
    case K::Ellipsis: return "Ellipsis";
    default: return v.describe();
  }
}

std::string py_repr(const CValue& v) {
  if (v.kind == K::Str) {
    std::string s = "'";
    for (char c : v.s) s += (c == '\'' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return s + "'";
  }
  return py_str(v);
}

std::string mangle(const CValue& v) {
  switch (v.kind) {
    case K::Tensor: {
      const ir::Type& t = v.tensor->type;
      std::string out;
      if (t.is_tensor()) {
        out += shape_text(t.shape);
        out += 'x';
      }
      if (t.is_ptr) out += 'p';
      out += ir::short_name(t.scalar);
      return out;
    }
    case K::Int: {
      std::string s = int_text(v);
      if (s[0] == '-') s[0] = 'm';
      return s;
    }
    case K::Float: {
      std::string s = py_float(v.f), out = "f";
      for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '.') out += "_d_";
        else if (c == '-') out += "m";
        else if (c == '+') out += "p";
        else out += c;
      }
      return out;
    }
    case K::Bool: return v.b ? "True" : "False";
    case K::None: return "None";
    case K::Str: {
      std::string out = "s_";
      out += ident_safe(v.s);
      return out;
    }
    case K::DType: {
      std::string out = v.dtype.is_ptr ? "dt_p" : "dt_";
      out += ir::short_name(v.dtype.scalar);
      return out;
    }
    case K::JitFn: {
      std::string out = "fn_";
      out += v.fn ? v.fn->name : std::string("?");
      return out;
    }
    case K::Tuple: {
      std::string s = "T";
      s += std::to_string(v.elems.size());
      for (const auto& e : v.elems) {
        s += '_';
        s += mangle(e);
      }
      return s + "_E";
    }
    default: {
      std::string out = "x_";
      out += ident_safe(v.describe());
      return out;
    }
  }
}

}  // namespace tritium::frontend::cg
