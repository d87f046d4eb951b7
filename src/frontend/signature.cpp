#include "frontend/signature.h"

#include <cctype>
#include <stdexcept>

namespace tritium::frontend {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\n");
  return s.substr(b, e - b + 1);
}

bool parse_int(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
  try {
    *out = std::stoll(s);
  } catch (...) {
    return false;
  }
  return true;
}

bool parse_float(const std::string& s, double* out) {
  try {
    size_t pos = 0;
    *out = std::stod(s, &pos);
    return pos == s.size();
  } catch (...) {
    return false;
  }
}

// "tensordesc<fp16[64, 64]>" / "tensordesc<fp32[16, 32], nan>" (the prefix already matched).
ArgSpec parse_tensordesc(const std::string& e) {
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument("bad tensor descriptor entry '" + e + "': " + why +
                                " (expected e.g. tensordesc<fp16[64, 64]> or tensordesc<fp32[16, 32], nan>)");
  };
  if (e.back() != '>') bad("no closing '>'");
  const std::string inner = e.substr(11, e.size() - 12);
  const size_t lb = inner.find('['), rb = inner.find(']');
  if (lb == std::string::npos || rb == std::string::npos || rb < lb) bad("no [block shape]");
  ArgSpec a;
  a.kind = ArgSpec::Kind::TensorDesc;
  auto t = ir::parse_scalar_type(trim(inner.substr(0, lb)));
  if (!t) bad("unknown dtype '" + trim(inner.substr(0, lb)) + "'");
  a.dtype = *t;
  std::string dims = inner.substr(lb + 1, rb - lb - 1);
  size_t start = 0;
  while (start <= dims.size()) {
    size_t c = dims.find(',', start);
    std::string d = trim(dims.substr(start, c == std::string::npos ? std::string::npos : c - start));
    int64_t v = 0;
    if (!parse_int(d, &v) || v < 1) bad("block dimension '" + d + "' is not a positive integer");
    a.block_shape.push_back(v);
    if (c == std::string::npos) break;
    start = c + 1;
  }
  if (a.block_shape.empty() || a.block_shape.size() > 5) bad("a descriptor has 1 to 5 dimensions");
  std::string rest = trim(inner.substr(rb + 1));
  if (!rest.empty()) {
    if (rest[0] != ',') bad("unexpected '" + rest + "'");
    rest = trim(rest.substr(1));
    if (rest == "nan") a.padding_nan = true;
    else if (rest != "zero") bad("padding must be zero or nan, got '" + rest + "'");
  }
  return a;
}

ArgSpec parse_entry(const std::string& raw) {
  std::string e = trim(raw);
  if (e.empty()) throw std::invalid_argument("empty signature entry");
  if (e.rfind("tensordesc<", 0) == 0) return parse_tensordesc(e);
  ArgSpec a;
  if (e.size() >= 2 && (e[0] == '\'' || e[0] == '"') && e.back() == e[0]) {  // a string constexpr
    a.kind = ArgSpec::Kind::Constexpr;
    a.value = e.substr(1, e.size() - 2);
    return a;
  }
  for (const char* prefix : {"tl.", "triton.language."}) {  // a dtype constexpr: tl.float16
    const std::string pre = prefix;
    if (e.rfind(pre, 0) == 0) {
      auto t = ir::parse_scalar_type(e.substr(pre.size()));
      if (!t) throw std::invalid_argument("unknown dtype '" + e + "'");
      a.kind = ArgSpec::Kind::Constexpr;
      a.value = DTypeValue{*t};
      return a;
    }
  }
  if (e == "None") {
    a.kind = ArgSpec::Kind::Constexpr;
    a.is_none = true;
    return a;
  }
  if (e == "True" || e == "False" || e == "true" || e == "false") {
    a.kind = ArgSpec::Kind::Constexpr;
    a.value = (e == "True" || e == "true");
    return a;
  }
  int64_t iv;
  double fv;
  if (parse_int(e, &iv)) {
    a.kind = ArgSpec::Kind::Constexpr;
    a.value = iv;
    return a;
  }
  if (std::isdigit(static_cast<unsigned char>(e[0])) || e[0] == '-' || e[0] == '.') {
    if (parse_float(e, &fv)) {
      a.kind = ArgSpec::Kind::Constexpr;
      a.value = fv;
      return a;
    }
  }
  std::string body = e;
  std::string attr;
  if (auto c = e.find(':'); c != std::string::npos) {
    body = trim(e.substr(0, c));
    attr = trim(e.substr(c + 1));
  }
  bool ptr = !body.empty() && body[0] == '*';
  if (ptr) body = trim(body.substr(1));
  auto t = ir::parse_scalar_type(body);
  if (!t) throw std::invalid_argument("unknown type '" + body + "' in signature entry '" + e + "'");
  a.kind = ptr ? ArgSpec::Kind::Pointer : ArgSpec::Kind::Scalar;
  a.dtype = *t;
  if (!attr.empty()) {
    if (attr == "16") {
      a.divisibility = 16;
    } else if (attr == "1" && !ptr && ir::is_int(*t)) {
      a.equal_to_1 = true;
    } else {
      throw std::invalid_argument("bad attribute ':" + attr + "' in signature entry '" + e +
                                  "' (expected :16, or :1 on an integer)");
    }
    if (a.divisibility == 16 && !ptr && !ir::is_int(*t))
      throw std::invalid_argument("':16' applies to pointers and integers only, in '" + e + "'");
  }
  return a;
}

}  // namespace

// The triton.language attribute naming dtype `t` (fp16 → "float16", i32 → "int32").
static std::string python_dtype_name(ir::ScalarType t) {
  std::string n(ir::short_name(t));
  if (n == "bf16") return "bfloat16";
  if (n.rfind("fp", 0) == 0) return "float" + n.substr(2);
  if (n[0] == 'i') return "int" + n.substr(1);
  if (n[0] == 'u') return "uint" + n.substr(1);
  return n;
}

std::string ArgSpec::str() const {
  switch (kind) {
    case Kind::Pointer:
      return "*" + std::string(ir::short_name(dtype)) + (divisibility == 16 ? ":16" : "");
    case Kind::Scalar:
      return std::string(ir::short_name(dtype)) + (divisibility == 16 ? ":16" : "") + (equal_to_1 ? ":1" : "");
    case Kind::TensorDesc: {
      std::string s = "tensordesc<" + std::string(ir::short_name(dtype)) + "[";
      for (size_t i = 0; i < block_shape.size(); ++i) s += (i ? ", " : "") + std::to_string(block_shape[i]);
      return s + "]" + (padding_nan ? ", nan>" : ">");
    }
    case Kind::Constexpr:
      if (is_none) return "None";
      if (auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
      if (auto* d = std::get_if<double>(&value)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", *d);
        std::string s = buf;
        if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
        return s;
      }
      if (auto* b = std::get_if<bool>(&value)) return *b ? "True" : "False";
      if (auto* t = std::get_if<DTypeValue>(&value)) return "tl." + python_dtype_name(t->type);
      return "'" + std::get<std::string>(value) + "'";
  }
  return "?";
}

std::string Specialization::str() const {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].str();
  for (auto& [n, a] : named) s += (s.empty() ? "" : ", ") + n + "=" + a.str();
  return s;
}

std::vector<ArgSpec> parse_signature(const std::string& text) {
  std::vector<ArgSpec> out;
  std::string cur;
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(parse_entry(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(parse_entry(cur));
  return out;
}

}  // namespace tritium::frontend
