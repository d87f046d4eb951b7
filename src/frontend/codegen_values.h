// Helpers of the code generator over CValues (value.h): flattening the IR values held by a
// (possibly nested) tuple, rebuilding a value from a template, identity and type
// comparisons used to merge scopes after dynamic if / loops, and the text forms used in
// diagnostics, static_print and mangled helper names.
#pragma once
#include <string>
#include <vector>

#include "frontend/value.h"
#include "ir/ir.h"

namespace tritium::frontend::cg {

/// Appends the IR value of every tensor leaf of `v` (recursing into tuples), in order.
void flatten(const CValue& v, std::vector<ir::Value*>& out);
/// The IR values of every tensor leaf of `v`.
std::vector<ir::Value*> flatten(const CValue& v);
/// The types of flatten(v).
std::vector<ir::Type> flat_types(const CValue& v);
/// Rebuilds `tmpl` with its tensor leaves replaced by values[cursor], values[cursor+1], ...
/// (advancing `cursor`); non-tensor leaves are copied.
CValue unflatten(const CValue& tmpl, const std::vector<ir::Value*>& values, size_t& cursor);
/// True when `v` holds at least one tensor (itself or in a tuple).
bool has_tensor(const CValue& v);
/// True when `a` and `b` denote the same value: the same IR values for tensors, equal
/// Python values for constexprs, the same function / builtin / namespace, element-wise for
/// tuples.
bool same_value(const CValue& a, const CValue& b);
/// True when `a` and `b` have the same type in Triton's sense: the same tuple structure,
/// tensors of equal ir::Type, and equal values for every compile-time leaf.
bool same_type(const CValue& a, const CValue& b);
/// Type text for diagnostics: "fp32", "tensor<128xfp32>", "constexpr[4]", "(fp32, i32)".
std::string type_text(const CValue& v);
/// Python's str() of a compile-time value ("1", "0.5", "True", "None", "abc", "fp32",
/// "(1, 2)"); tensors print as their type.
std::string py_str(const CValue& v);
/// Python's repr() (strings quoted).
std::string py_repr(const CValue& v);
/// Identifier-safe fragment naming `v` in a mangled helper name: the type of a tensor
/// ("128x64xfp32", "pfp16", "i32"), the value of a constexpr ("128", "m1", "1_d_5",
/// "True", "None", "s_abc", "dt_fp16", "fn_name"), "T<n>_..._E" for tuples.
std::string mangle(const CValue& v);
/// Python's repr of a double ("1.0", "0.1", "1e+20", "inf", "nan").
std::string py_float(double f);

}  // namespace tritium::frontend::cg
