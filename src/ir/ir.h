// The block-level SSA IR: values of static-shape tensor or scalar type, ops from
// ops.def, structured control flow through single-block regions.
//
// Ownership: a Function owns every Value created for it; an Op owns its regions; a
// Block owns its ops. Values are referred to by raw pointers (stable for the life of
// the Function).
//
// Example (printer output for a vector add):
//   func @add(%0: ptr<fp32>, %1: ptr<fp32>, %2: ptr<fp32>, %3: i32) {
//     %4 = program_id {axis = 0} : i32
//     %5 = make_range {end = 1024, start = 0} : tensor<1024xi32>
//     ...
//     store %12, %11, %9 {has_mask = 1}
//     return
//   }
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ir/types.h"

#include "frontend/source.h"

namespace tritium::ir {

/// Source location of an op: the frontend's SrcLoc (file pointer, 1-based line and
/// column; line 0 = unknown). The Source must outlive the IR (the compiled kernel keeps
/// its SourceRef), so backend refusals can print `frontend::CompileError(op.loc, msg)`.
using Loc = frontend::SrcLoc;

enum class OpKind : uint16_t {
#define OP(e, n, mino, maxo, nres, flags) e,
#include "ir/ops.def"
#undef OP
};

enum class MathFn : uint16_t {
#define MATH(e, n, arity) e,
#include "ir/math_fns.def"
#undef MATH
};

enum OpFlags : unsigned {
  kNone = 0, kPure = 1, kRegions = 2, kTerminator = 4, kMemRead = 8, kMemWrite = 16, kSideEffect = 32,
};

struct OpInfo {
  const char* name;
  int min_operands, max_operands, num_results;
  unsigned flags;
};
const OpInfo& op_info(OpKind k);
const char* math_fn_name(MathFn f);
int math_fn_arity(MathFn f);
bool parse_math_fn(std::string_view name, MathFn* out);

class Op;
class Block;
class Function;

/// An SSA value: the result of an op or an argument of a block.
class Value {
 public:
  uint32_t id = 0;      // unique within its Function; printed as %id
  Type type;
  Op* def = nullptr;    // defining op, or nullptr for a block argument
  Block* block = nullptr;  // for block arguments: the owning block
  int index = 0;        // result index / argument index
  std::string name;     // optional source-level name hint (for readable generated code)
};

/// Attribute values: integers (also bools, enums, predicates), floats, strings, int lists.
using Attr = std::variant<int64_t, double, std::string, std::vector<int64_t>>;

class Region;

/// A block: arguments plus an ordered list of ops; the last op is a terminator for
/// region bodies (yield / condition / return).
class Block {
 public:
  std::vector<Value*> args;
  std::vector<std::unique_ptr<Op>> ops;
  Op* parent = nullptr;  // the op owning the region of this block (nullptr for a function body)
};

class Region {
 public:
  Block block;
};

/// An operation. Attributes are kept sorted by name so printing and hashing are stable.
class Op {
 public:
  OpKind kind;
  Loc loc;
  std::vector<Value*> operands;
  std::vector<Value*> results;
  std::vector<std::unique_ptr<Region>> regions;
  std::map<std::string, Attr> attrs;
  Block* parent = nullptr;

  const OpInfo& info() const { return op_info(kind); }
  const char* name() const { return info().name; }
  Value* result(int i = 0) const { return results.at(i); }
  Value* operand(int i) const { return operands.at(i); }
  Block& body(int region = 0) { return regions.at(region)->block; }
  const Block& body(int region = 0) const { return regions.at(region)->block; }

  bool has_attr(const std::string& k) const { return attrs.count(k) != 0; }
  int64_t attr_int(const std::string& k, int64_t dflt = 0) const;
  double attr_float(const std::string& k, double dflt = 0) const;
  std::string attr_str(const std::string& k, const std::string& dflt = "") const;
  std::vector<int64_t> attr_ints(const std::string& k) const;
  MathFn math_fn() const { return static_cast<MathFn>(attr_int("fn")); }
};

/// A function: a kernel (entry point) or a jit helper (to be inlined).
class Function {
 public:
  std::string name;
  bool is_kernel = false;
  Block body;                       // args = function parameters
  std::vector<Type> result_types;   // for helpers returning values
  Loc loc;

  /// Creates a fresh value owned by this function.
  Value* new_value(Type t);
  /// Number of values created so far (ids are 0..count-1).
  uint32_t value_count() const { return static_cast<uint32_t>(values_.size()); }

 private:
  std::deque<std::unique_ptr<Value>> values_;
};

class Module {
 public:
  std::vector<std::unique_ptr<Function>> functions;
  Function* find(const std::string& name) const;
  Function* add(std::string name);
};

/// Walks every op in a block recursively (pre-order: an op before the ops of its regions).
void walk(Block& b, const std::function<void(Op&)>& fn);

/// Replaces every use of `from` by `to` inside `b` (recursively).
void replace_all_uses(Block& b, Value* from, Value* to);

}  // namespace tritium::ir
