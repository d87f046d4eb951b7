// Dtypes, shapes and values of the differential fuzzer's generator (gen.cpp), and the
// result dtypes of Triton's promotion rules (ARCHITECTURE.md "Semantics to match"),
// written out independently of the compiler's frontend.
#pragma once

#include <string>
#include <vector>

namespace fuzz {

enum class Kind { Bool, SInt, UInt, Float };

struct DType {
  const char* tl;   ///< the tl spelling ("tl.float16")
  const char* sig;  ///< the signature spelling ("fp16")
  int bits;
  Kind kind;
};

/// Indices into dtypes().
enum DT { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, kNumDT };

const std::vector<DType>& dtypes();
inline bool is_float(int d) { return dtypes()[d].kind == Kind::Float; }
inline bool is_int(int d) { return !is_float(d) && d != I1; }
inline bool is_unsigned(int d) { return dtypes()[d].kind == Kind::UInt || d == I1; }

/// Triton's computation type of a binary arithmetic op (+ - * min max where ...) between
/// tensors of dtypes a and b: fp64 wins; fp32 beats fp16 / bf16; fp16 with bf16 gives fp32;
/// a float beats any int; ints by C's usual conversions without integer promotion (the
/// wider of the same signedness; unsigned wins at equal or greater width).
int promote(int a, int b);

/// Shapes: a scalar, a [BM] row-index vector, a [BN] column-index vector, a [BM, BN] tile.
enum class Shape { S, R, C, T };

/// A named value of the generated kernel.
struct Value {
  std::string name;
  int dt;
  Shape shape;
};

/// `v` as an operand of an expression whose shape is `to` (broadcasting vectors to tiles
/// with [:, None] / [None, :]).
std::string operand(const Value& v, Shape to);

/// The shape of an elementwise op between operands of shapes a and b (S with anything;
/// a vector with a tile gives the tile; equal shapes stay).
Shape join(Shape a, Shape b);
/// Whether two shapes may meet in an elementwise op (R and C may not: [BM] and [BN]).
bool compatible(Shape a, Shape b);

}  // namespace fuzz
