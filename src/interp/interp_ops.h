// Op evaluation functions of the reference interpreter (internal to src/interp/). Each
// evaluates one op over whole Vals; the semantics are specified in interpreter.h.
//
// Elementwise functions accept operands whose element count is either the common count or
// 1 (a 1-element operand is repeated). In ordinary IR both counts are equal; the
// repetition lets reduce/scan evaluate a combine region over a whole round of independent
// combines at once, with the region's scalar constants repeated.
#pragma once
#include <array>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "interp/interp_values.h"
#include "interp/interpreter.h"
#include "ir/ir.h"

namespace tritium::interp {

/// Throws frontend::CompileError at the op's location: "interpreter cannot execute '<op>': msg".
[[noreturn]] void refuse(const ir::Op& op, const std::string& msg);

// ---- interp_elementwise.cpp ----
/// add sub mul div idiv rem and or xor shl shr min max cmp.
Val eval_binary(const ir::Op& op, const Val& a, const Val& b);
/// neg, not.
Val eval_unary(const ir::Op& op, const Val& a);
/// select(c, a, b).
Val eval_select(const ir::Op& op, const Val& c, const Val& a, const Val& b);

// ---- interp_math.cpp ----
/// The `math` op (attr fn), 1 to 3 operands.
Val eval_math(const ir::Op& op, const std::vector<const Val*>& args);

// ---- interp_cast.cpp ----
/// constant (attr value), splatted to the result shape.
Val eval_constant(const ir::Op& op);
/// cast (attr rounding).
Val eval_cast(const ir::Op& op, const Val& a);
/// bitcast, ptr_to_int, int_to_ptr.
Val eval_bitcast(const ir::Op& op, const Val& a);

// ---- interp_shape.cpp ----
/// make_range [start, end) as int32.
Val eval_make_range(const ir::Op& op);
/// splat a scalar to the result shape.
Val eval_splat(const ir::Op& op, const Val& a);
/// broadcast size-1 dims (or a scalar) to the result shape.
Val eval_broadcast(const ir::Op& op, const Val& a);
/// trans: result dim i = operand dim perm[i].
Val eval_trans(const ir::Op& op, const Val& a);
Val eval_flip(const ir::Op& op, const Val& a);  // reverses axis attr "axis"
Val eval_sort(const ir::Op& op, const Val& a);  // bitonic sort of the last dim (interpreter.h)
/// join two equal tensors along a new minor dim of size 2.
Val eval_join(const ir::Op& op, const Val& a, const Val& b);
/// split the minor dim of size 2 into two tensors.
std::pair<Val, Val> eval_split(const ir::Op& op, const Val& a);
/// cat along dim 0 (row-major concatenation).
Val eval_cat(const ir::Op& op, const Val& a, const Val& b);

// ---- interp_gather.cpp ----
/// gather src, index (attr axis): out[.., i, ..] = src[.., index[.., i, ..], ..]; an index
/// outside [0, n) gives an element with all bits zero.
Val eval_gather(const ir::Op& op, const Val& src, const Val& index);
/// histogram input [, mask]: int32 counts of the values in [0, num_bins) (result shape);
/// masked-off elements and values outside the range are not counted.
Val eval_histogram(const ir::Op& op, const Val& input, const Val* mask);

// ---- interp_memory.cpp ----
/// Serializes atomics when programs run on several threads (nullptr: no locking).
struct MemoryContext {
  const Options* options = nullptr;  ///< poison mode
  std::mutex* atomic_mutex = nullptr;
};
/// addptr: p + off · byte_size(pointee).
Val eval_addptr(const ir::Op& op, const Val& p, const Val& off);
/// load ptr [, mask [, other]] (mask/other may be null).
Val eval_load(const ir::Op& op, const Val& ptr, const Val* mask, const Val* other, const MemoryContext& mc);
/// store ptr, value [, mask].
void eval_store(const ir::Op& op, const Val& ptr, const Val& value, const Val* mask);
/// atomic_rmw ptr, value [, mask] (attr rmw); returns the old values.
Val eval_atomic_rmw(const ir::Op& op, const Val& ptr, const Val& value, const Val* mask, const MemoryContext& mc);
/// atomic_cas ptr, cmp, value (bitwise compare); returns the old values.
Val eval_atomic_cas(const ir::Op& op, const Val& ptr, const Val& cmp, const Val& value, const MemoryContext& mc);

// ---- interp_dot.cpp ----
/// dot a, b, acc (2-D or batched 3-D): sequential fma chain over k.
Val eval_dot(const ir::Op& op, const Val& a, const Val& b, const Val& acc);

// ---- interp_reduce.cpp ----
/// Evaluates the combine region once: arguments (lhs..., rhs...) → yielded values. The
/// arguments are either all scalars or all 1-D Vals of one length (a batch of combines).
using RegionFn = std::function<std::vector<Val>(const std::vector<Val>& args)>;
/// True when the region holds only elementwise ops, so a batch of combines may be evaluated
/// in one pass (each lane stays an independent combine).
bool region_is_elementwise(const ir::Block& region);
/// reduce in the canonical halving-tree order; `batched` when region_is_elementwise.
std::vector<Val> eval_reduce(const ir::Op& op, const std::vector<Val>& operands, const RegionFn& combine,
                             bool batched);
/// inclusive scan in index order (attr reverse: from the end).
std::vector<Val> eval_scan(const ir::Op& op, const std::vector<Val>& operands, const RegionFn& combine,
                           bool batched);

// ---- interp_debug.cpp ----
/// The device_print lines of a `print` op for program `pid`.
std::vector<std::string> format_print(const ir::Op& op, const std::vector<const Val*>& operands,
                                      const std::array<int32_t, 3>& pid);
/// The message of a failed `assert` op in kernel `kernel` for program `pid`.
std::string format_assert_failure(const ir::Op& op, const std::string& kernel, const std::array<int32_t, 3>& pid);

}  // namespace tritium::interp
