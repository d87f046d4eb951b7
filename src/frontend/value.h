// Values of the code generator (AST → IR): what a Python name or expression evaluates to
// while a kernel is being specialized, as in upstream Triton's code_generator.py, where a
// name can be bound to a tensor, a constexpr (Python value), a dtype, a tuple, a jit
// function, a builtin (tl.load), or a module namespace (tl, libdevice, triton).
//
// Tensors include scalars computed at run time (an ir::Value of scalar type, e.g. a
// non-constexpr int argument or tl.program_id). Constexprs are Python values known at
// compile time: Int, Float, Bool, None, Str. Python ints carry their exact value in
// `i` (int64) or, for values in [2^63, 2^64), in `u` with `is_u64 = true`.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "ir/ir.h"

namespace tritium::frontend {

struct CValue;
using CValues = std::vector<CValue>;

/// A keyword argument at a call site.
/// The tag (CValue::s) of the Tuple that represents a block pointer (tl.make_block_ptr;
/// fields in src/frontend/builtins_block_ptr.cpp). Its compile-time fields stay constexprs.
inline constexpr const char* kBlockPtrTag = "tl.block_ptr";
/// The tag of the Tuple that represents a tensor descriptor (tl.make_tensor_descriptor).
inline constexpr const char* kTensorDescTag = "tl.tensor_descriptor";
struct CValue;
/// True for a block pointer or tensor descriptor record (a Tuple with one of the tags above).
bool is_record(const CValue& v);

struct KwArg {
  std::string name;
  std::shared_ptr<CValue> value;
};

struct CValue {
  enum class Kind {
    Tensor,    // `tensor`: an IR value (scalar or block)
    Int,       // constexpr int (`i`, or `u` when is_u64)
    Float,     // constexpr float (`f`)
    Bool,      // constexpr bool (`b`)
    None,      // None
    Str,       // constexpr string (`s`)
    DType,     // a dtype object (`dtype`; pointer types have dtype.is_ptr), e.g. tl.float16, x.dtype
    Tuple,     // a tuple/list (`elems`), e.g. shapes, multiple returns
    JitFn,     // a @triton.jit function (`fn`, from module `fn_module`)
    Builtin,   // a language builtin by qualified name (`s`: "load", "math.exp", "libdevice.tanh", "static_range")
    Namespace, // a module namespace (`s`: "triton", "triton.language", "libdevice", "math", ...)
    Method,    // a bound method of a tensor/dtype (`s` = method name, `elems[0]` = receiver)
    Slice,     // a slice in a subscript (`elems` = lower, upper, step; None when absent)
    Ellipsis,  // `...`
    Lambda,    // a lambda expression (heuristics); `lambda_expr`
    ConstexprFn,  // a @triton.constexpr_function (`fn`, from module `fn_module`): host Python run at compile time
  };
  Kind kind = Kind::None;
  ir::Value* tensor = nullptr;
  int64_t i = 0;
  uint64_t u = 0;
  bool is_u64 = false;
  double f = 0;
  bool b = false;
  std::string s;
  ir::Type dtype;
  CValues elems;
  const FunctionDef* fn = nullptr;
  const struct Module* fn_module = nullptr;
  const LambdaExpr* lambda_expr = nullptr;

  static CValue of_tensor(ir::Value* v) { CValue c; c.kind = Kind::Tensor; c.tensor = v; return c; }
  static CValue of_int(int64_t v) { CValue c; c.kind = Kind::Int; c.i = v; return c; }
  static CValue of_float(double v) { CValue c; c.kind = Kind::Float; c.f = v; return c; }
  static CValue of_bool(bool v) { CValue c; c.kind = Kind::Bool; c.b = v; return c; }
  static CValue none() { return CValue{}; }
  static CValue of_str(std::string v) { CValue c; c.kind = Kind::Str; c.s = std::move(v); return c; }
  static CValue of_dtype(ir::Type t) { CValue c; c.kind = Kind::DType; c.dtype = std::move(t); return c; }
  static CValue of_tuple(CValues v) { CValue c; c.kind = Kind::Tuple; c.elems = std::move(v); return c; }
  static CValue builtin(std::string name) { CValue c; c.kind = Kind::Builtin; c.s = std::move(name); return c; }
  static CValue ns(std::string name) { CValue c; c.kind = Kind::Namespace; c.s = std::move(name); return c; }

  bool is_tensor() const { return kind == Kind::Tensor; }
  /// True for Int, Float, Bool, None, Str (compile-time Python values).
  bool is_constexpr() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool || kind == Kind::None || kind == Kind::Str;
  }
  /// Python-ish description for diagnostics ("tensor<128xfp32>", "constexpr int 4", "tuple").
  std::string describe() const;
};

}  // namespace tritium::frontend
