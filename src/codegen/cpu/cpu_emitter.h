// Internal to the CPU renderer: the Emitter that turns one ir::Function into C++ text.
// Its member functions are split by topic over cpu_codegen.cpp (driver, storage analysis,
// indexing, dispatch), cpu_emit_memory.cpp, cpu_emit_reduce.cpp, cpu_emit_gather.cpp, cpu_emit_dot.cpp and
// cpu_emit_control.cpp.
//
// How values live in the generated code (Storage):
//   Scalar  — a C++ local (`s12`), declared where its op is.
//   Array   — a local array in row-major order (`v12[4096]`), filled by one loop nest.
//   Virtual — no storage: elem() computes the element inside the consumer's loop
//             (elementwise chains, splat/broadcast/expand_dims/reshape/trans views,
//             make_range, constants). Within one loop body each virtual value is computed
//             once into a `const` temporary (memoized per index).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codegen/c_expr.h"
#include "frontend/source.h"
#include "ir/ir.h"
#include "runtime/device.h"

namespace tritium::codegen::cpu {

/// The position of one tensor element inside a generated loop nest: per-dimension index
/// expressions and/or the row-major linear index (either may be empty = unknown; the
/// other is then derived on demand).
struct Idx {
  std::vector<std::string> dims;
  std::string lin;
};

/// Where a value lives in generated code (see the file comment).
enum class Storage : uint8_t { Scalar, Array, Virtual };

/// What emit_fast_access emitted: nothing, a guarded fast path (the caller adds `else`
/// with the general loop), or a fast path that is always exact (nothing more to emit).
enum class FastAccess : uint8_t { kNone, kGuarded, kAlways };

class Emitter {
 public:
  /// `dialect`: C++ for the CPU backend; OpenCL C for the OpenCL backend's one-work-item
  /// programs (codegen/opencl/opencl_codegen.h), where the CPU-only paths (contiguous row
  /// fast paths, loads read in place, decoded twins, prefetch, streaming stores) are off, so
  /// every access is the general element loop.
  Emitter(const ir::Function& fn, const runtime::CodegenOptions& opts, Dialect dialect = Dialect::Cpp);
  /// Renders the program function and the tritium_run entry point (without the prelude);
  /// OpenCL C: `__kernel void tritium_kernel(...)` taking each pointer parameter as
  /// (__global uchar* base, ulong byte offset) and each scalar by value.
  std::string render();
  bool cl_like() const { return cx_.cl_like(); }

  // ---- output (cpu_codegen.cpp) --------------------------------------------------------
  /// Appends one indented line.
  void line(const std::string& s);
  /// Appends `head {` and indents.
  void open(const std::string& head);
  /// Unindents and appends `}` (or `tail`).
  void close(const std::string& tail = "}");
  /// A fresh identifier `<prefix><n>`.
  std::string fresh(const char* prefix);
  /// Throws frontend::CompileError(op.loc, "cpu backend: <op> not supported: <why>").
  [[noreturn]] void refuse(const ir::Op& op, const std::string& why) const;

  // ---- types and expressions (codegen/c_expr.h, shared with the CUDA renderer) --------
  std::string ctype(const ir::Type& t) const { return cx_.type(t); }
  static std::string compute_type(ir::ScalarType t) { return CExpr::compute_type(t); }
  static std::string to_compute(ir::ScalarType t, const std::string& e) { return CExpr::to_compute(t, e); }
  static std::string to_compute_arith(ir::ScalarType t, const std::string& e) { return CExpr::to_compute_arith(t, e); }
  static std::string from_compute(ir::ScalarType t, const std::string& e) { return CExpr::from_compute(t, e); }
  std::string literal(const ir::Op& constant) const { return cx_.literal(constant); }
  std::string zero_of(const ir::Type& t) const { return cx_.zero(t); }
  /// A call of the prelude's template helper `f` for element type `t` (CExpr::tcall).
  std::string tcall(const std::string& f, const std::string& t, const std::string& args) const {
    return cx_.tcall(f, t, args);
  }
  /// A local array declaration's alignment (`alignas(64) `; "" in OpenCL C).
  const char* align() const { return cl_like() ? "" : "alignas(64) "; }
  /// The address space of a pointer into a program's own arrays ("thread " in MSL, which
  /// requires one on every pointer; nothing elsewhere) and the no-alias qualifier (none in
  /// MSL).
  const char* priv() const { return cx_.msl() ? "thread " : ""; }
  const char* restrict_kw() const { return cx_.msl() ? "" : "__restrict "; }
  std::string cast_expr(const ir::Op& op, ir::ScalarType from, ir::ScalarType to, const std::string& rounding,
                        const std::string& x, const std::string& xc = "") const {
    return cx_.cast_expr(op, from, to, rounding, x, xc);
  }
  std::string elementwise_expr(const ir::Op& op, const std::vector<std::string>& args,
                               const std::vector<std::string>& dec = {}) const {
    return cx_.elementwise_expr(op, args, dec);
  }
  static std::string c_string(const std::string& s) { return CExpr::c_string(s); }

  // ---- values and indexing (cpu_codegen.cpp) --------------------------------------------
  Storage storage(const ir::Value* v) const;
  const std::string& name(const ir::Value* v) const;
  /// Gives `v` a name and storage (block arguments, op results with their own storage).
  void bind(const ir::Value* v, const std::string& name, Storage s);
  /// Expression of element `idx` of `v` (emits temporaries into the current loop body).
  std::string elem(const ir::Value* v, const Idx& idx);
  /// Expression of element `idx` of result `result` of a virtualizable op.
  std::string compute(const ir::Op& op, int result, const Idx& idx);
  /// The index into operand 0 of view op `op` (splat, broadcast, trans, ...) that element
  /// `idx` of its result `result` reads.
  Idx view_source(const ir::Op& op, int result, const Idx& idx);

  // ---- decoded twins (cpu_codegen.cpp) ------------------------------------------------------
  // An fp16 tensor load whose value is used as a number (used_as_number) gets a float array
  // beside it, its "decoded twin", filled right after the load by the prelude's bulk
  // hardware conversion tr_h2f_n (exact, the same bits as tr_h2f). Consumers that would
  // decode an element with to_compute(F16, elem(v)) read the twin instead (decoded);
  // consumers of the bits (stores of the unchanged value, bitcast, neg / abs bit tricks,
  // select) keep reading the fp16 array. The twin is filled from wherever the load's
  // pointer points (rank-1 loads read in place: load_may_alias), so it is a snapshot of
  // the loaded values from the start; the fp16 array keeps its own lazy snapshot.
  /// True when some op reads fp16 tensor `v` (directly or through views) as a number:
  /// casts to another type, arithmetic, comparisons, min / max, math but abs, dot operands.
  bool used_as_number(const ir::Value* v) const;
  /// The float expression of element `idx` of fp16 tensor `v` read from a decoded twin
  /// (following views back to the twinned load), or "" when there is none. Emits nothing.
  std::string decoded(const ir::Value* v, const Idx& idx);
  /// to_compute(type of v, elem(v, idx)), reading the decoded twin where there is one.
  std::string compute_elem(const ir::Value* v, const Idx& idx);
  /// The name of `v`'s own decoded twin array, or nullptr.
  const std::string* twin(const ir::Value* v) const;
  /// Emits a loop nest over `shape` (innermost = last dimension) calling `body` inside.
  /// `prefetch`: a compute loop heavy enough per element (ValueCost::heavy) to leave the
  /// memory system idle; when loads before it predict the next program's rows (tr_pf_note),
  /// its innermost loop prefetches them.
  void loop_nest(const std::vector<int64_t>& shape, const std::function<void(const Idx&)>& body,
                 bool prefetch = false);
  /// Row-major linear index / per-dimension indices of `i` in a tensor of `shape`.
  static std::string lin_of(const Idx& i, const std::vector<int64_t>& shape);
  static std::vector<std::string> dims_of(const Idx& i, const std::vector<int64_t>& shape);
  /// Declares a local array for tensor type `t`, returns its name.
  std::string declare_array(const ir::Type& t, const char* prefix);
  /// Writes every element of tensor `v` into array `dst` (memcpy when `v` is an array).
  void materialize_into(const std::string& dst, const ir::Value* v);
  /// Assigns `v` to storage `dst` of the same type (scalar assignment or array fill).
  void assign(const std::string& dst, const ir::Value* v);
  /// Byte size of a tensor of type `t`, as a C++ expression.
  static std::string bytes_of(const ir::Type& t);

  // ---- blocks and ops (cpu_codegen.cpp) ---------------------------------------------------
  void emit_block(const ir::Block& b);
  void emit_op(const ir::Op& op);
  void emit_materialized(const ir::Op& op);
  void emit_cat(const ir::Op& op);
  void emit_join(const ir::Op& op);

  // ---- contiguous fast paths (cpu_emit_access.cpp) ------------------------------------------
  /// For a load / store whose pointer is affine with stride 1 along the last dimension and
  /// whose mask is a conjunction of row-uniform terms and prefix bounds, emits contiguous
  /// row loops, guarded by `if (<no offset arithmetic wraps>)` when anything could wrap
  /// (kGuarded: the caller then emits `else { general loop }`). kNone: not applicable,
  /// nothing emitted. `dst`: the load's result array.
  /// `alias` (loads of rank 1 only, may be ""): a `const T*` local that the fast path points
  /// at the loaded row itself when no lane is masked off, instead of copying it to `dst`.
  FastAccess emit_fast_access(const ir::Op& op, const std::string& dst, const std::string& alias = "");
  /// True when the rank-1 result of load `op` may be read where it lies in memory rather
  /// than from a copy (not volatile, not int1). The copy is then made lazily: before any op
  /// that may write memory the value's range (snapshot_aliased_loads).
  bool load_may_alias(const ir::Op& op) const;
  // ---- sanitize mode (CodegenOptions::sanitize; C++ and msl-emu's MSL, not OpenCL C) ----
  /// Whether accesses are checked: sanitize mode in the C++ or the MSL dialect (msl-emu).
  bool sanitizing() const { return opts_.sanitize && (!cl_like() || cx_.msl()); }
  /// The parameter slot the pointer `v` is derived from (through addptr, splat, broadcast,
  /// reshapes, selects of one root, for-loop-carried values whose init and yield agree);
  /// -1 when it derives from several arguments (then any argument's buffer is accepted);
  /// -2 when it comes from an integer (int-to-ptr), from memory (a pointer array), from the
  /// results of a for / while / if, or from a while loop's or a combine region's arguments:
  /// not checked, as a raw pointer without an extent.
  int pointer_root(const ir::Value* v);
  /// The value masked-off lanes of a load without `other` read in sanitize mode: a NaN for
  /// floats (fp16 0x7e5a, bf16 0x7fe5, fp32 0x7fc0a5a5, fp64 0x7ff8a5a5a5a5a5a5), 1 for
  /// int1, 0xA5 bytes for the other integers and fp8.
  std::string poison_of(ir::ScalarType t) const;
  /// `access` guarded by the check of the element at pointer expression `p`: the checked
  /// expression (loads; on failure the report, then `fallback`) or statement (stores).
  /// `kind`: 0 a load, 2 an atomic (its old value is the expression's).
  std::string sanitized_load(const ir::Op& op, const ir::Value* ptr, const std::string& p, const std::string& load,
                             const std::string& fallback, int kind = 0);
  std::string sanitized_store(const ir::Op& op, const ir::Value* ptr, const std::string& p, const std::string& store);
  /// The parts of those: the check's condition ("" when `ptr` is not checked) and the report
  /// statement's call (no semicolon); `kind` as above, 1 a store.
  std::string san_condition(const ir::Value* ptr, const std::string& p);
  std::string san_report(const ir::Op& op, const ir::Value* ptr, const std::string& p, int kind);
  std::map<const ir::Value*, int> pointer_roots_;
  /// A load read in place (see load_may_alias): `ptr` (const T*) points at the row in memory
  /// or at `buf` (the local copy), `bytes` is the row's size.
  struct AliasedLoad {
    std::string ptr, buf, bytes;
  };
  /// Emits, for every aliased load in scope, `if (<ptr is memory> && <cond>) { copy to buf;
  /// ptr = buf; }` where cond is overlap_with(ptr, bytes) ("" = always): stores call it with
  /// their row's byte range, atomics and stores without a fast path unconditionally.
  void snapshot_aliased_loads(const std::function<std::string(const AliasedLoad&)>& overlap_with);
  std::vector<AliasedLoad> aliased_loads;  ///< in scope now (emit_block pops its own)

  /// For an fp16 / bf16 value computed in fp32 and rounded once at the end (a virtual cast
  /// from fp32 with RNE, or fp16 / bf16 + - * /), the fp32 expression before that rounding
  /// at `idx`; "" otherwise. The fast store then converts its row a chunk at a time with
  /// tr_f2h_n / tr_f2bf_n (same bits).
  std::string unrounded_f16(const ir::Value* v, const Idx& idx);
  /// True when computing `v` per element both reads a block in place from memory (an
  /// aliased load without a decoded twin) and does heavy arithmetic on it (a math function
  /// other than abs, a float division). Such a store row keeps ordinary stores: streaming
  /// ones measured slower there (SwiGLU bf16, 2026-12-01: 19 -> 25 ms), while rows computed
  /// from L1-resident arrays or by cheap arithmetic gain from them.
  bool heavy_in_place(const ir::Value* v);
  /// What computing `v` per element involves: `heavy`, a math function other than abs or a
  /// float division; `in_place`, reading a block in place from memory (an aliased load
  /// without a decoded twin).
  struct ValueCost {
    bool heavy = false;
    bool in_place = false;
  };
  ValueCost cost_of(const ir::Value* v);
  /// True when unrounded_f16(v, ...) has that form (checks the ops only, emits nothing).
  bool rounds_from_f32(const ir::Value* v) const;

  // ---- memory (cpu_emit_memory.cpp) ---------------------------------------------------------
  void emit_load(const ir::Op& op);
  void emit_store(const ir::Op& op);
  void emit_atomic_rmw(const ir::Op& op);
  void emit_atomic_cas(const ir::Op& op);
  /// OpenCL C: both atomics as compare-and-swap loops on the element's bits.
  void emit_atomic_cl(const ir::Op& op);
  /// Declares result `r` (a scalar, or an array over its shape), has `body` assign each
  /// element (index, destination lvalue) and binds `r` to it.
  void assign_per_element(const ir::Value* r, const std::function<void(const Idx&, const std::string&)>& body);

  // ---- reductions (cpu_emit_reduce.cpp) -------------------------------------------------
  void emit_reduce(const ir::Op& op);
  void emit_scan(const ir::Op& op);
  void emit_sort(const ir::Op& op);
  /// Emits the combine region of reduce/scan `op` applied to scalar expressions `lhs` and
  /// `rhs` (one per operand); returns the names of locals holding the combined values.
  std::vector<std::string> emit_combine(const ir::Op& op, const std::vector<std::string>& lhs,
                                        const std::vector<std::string>& rhs);

  // ---- value-indexed ops (cpu_emit_gather.cpp) ---------------------------------------------
  /// tl.gather: an array filled at positions read from the index (out of range: zero bits).
  void emit_gather(const ir::Op& op);
  /// tl.histogram: int32 counts of the (unmasked) input values in [0, num_bins).
  void emit_histogram(const ir::Op& op);

  // ---- tl.map_elementwise (cpu_emit_map.cpp) ------------------------------------------------
  /// The scalar function of the op's region, once per element of the common shape.
  void emit_map(const ir::Op& op);

  // ---- dot (cpu_emit_dot.cpp) -------------------------------------------------------------
  void emit_dot(const ir::Op& op);

  // ---- control flow and debugging (cpu_emit_control.cpp) ----------------------------------
  void emit_for(const ir::Op& op);
  void emit_if(const ir::Op& op);
  void emit_while(const ir::Op& op);
  void emit_assert(const ir::Op& op);
  void emit_print(const ir::Op& op);
  /// Handlers for the terminators of the region being emitted (top of the stack).
  std::vector<std::function<void(const ir::Op&)>> terminator_handlers;

  /// A loop-carried pointer tensor rendered as its initial value plus a scalar element
  /// offset (for `p += uniform` in a loop): no pointer array is stored or copied.
  struct CarriedPtr {
    const ir::Value* init;  ///< the value the loop started from
    std::string off;        ///< int64 local holding the accumulated offset
  };
  /// The carried-pointer form of `v` (a for body argument or result), or nullptr.
  const CarriedPtr* carried_ptr(const ir::Value* v) const;
  /// Bit d set when the elements of `v` may depend on index dimension d.
  uint64_t dims_used(const ir::Value* v);

  /// A run-time failure site (a device_assert, a non-positive loop step): the message as
  /// host->assert_fail takes it ("error: ..." for run-time errors), file, line.
  struct Failure {
    std::string message, file;
    int64_t line;
  };
  /// The statement that reports failure `f` of the running program and lets it run on: in
  /// C++ a host->assert_fail call; in OpenCL C the program's first failure is recorded as
  /// (linear program id << 20 | site) with atom_min into the status word (the lowest
  /// program's first failure wins, as on the CPU), site = index in failures() + 1.
  std::string fail_stmt(const Failure& f);
  /// The complete message of each failure site, by site number - 1, up to the program's
  /// coordinates, in the CPU backend's wording ("device_assert failed: <msg> at <file>:<line>
  /// in <kernel>", or the run-time error's text): what a status-word launcher raises.
  std::vector<std::string> failure_messages() const;
  /// OpenCL C: the failure sites fail_stmt registered, in site order.
  const std::vector<Failure>& failures() const { return failures_; }

  const runtime::CodegenOptions& options() const { return opts_; }
  const ir::Function& function() const { return fn_; }
  /// Bytes of the local arrays render() declared (tensors, decoded twins, staging rows),
  /// summed over the whole function: what a program's tensors take of its stack at most.
  /// The OpenCL serial shape checks it against PoCL's work-item stacks.
  int64_t array_bytes() const { return array_bytes_; }
  /// Ops that read `v` (each listed once per operand use).
  const std::vector<const ir::Op*>& users(const ir::Value* v) const;
  /// Whether every use of `v` quiets a signaling NaN itself: + - * /, comparisons, dot
  /// operands, exp / exp2, reached directly or through ops that pass a NaN on unchanged
  /// (views, select, min / max, reductions combining with those and arithmetic). A bf16 ->
  /// fp32 cast feeding only such uses needs no quieting of its own (CExpr::to_compute_arith).
  bool only_quieting_uses(const ir::Value* v, int depth = 0) const;

 private:
  // storage analysis (cpu_codegen.cpp)
  void collect_users(const ir::Block& b);
  void analyze_block(const ir::Block& b);
  bool cheap(const ir::Value* v);
  int weight(const ir::Value* v);

  struct UseInfo {
    std::unordered_set<const ir::Op*> roots;  // ops whose loops evaluate this virtual value
    bool nested = false;                      // read from a nested region
    bool expanded = false;                    // read through a broadcast that repeats it
  };

  const ir::Function& fn_;
  runtime::CodegenOptions opts_;
  CExpr cx_;
  std::string out_;
  int indent_ = 1;
  int counter_ = 0;
  std::unordered_map<const ir::Value*, Storage> storage_;
  std::unordered_map<const ir::Value*, std::string> names_;
  std::unordered_map<const ir::Value*, std::vector<const ir::Op*>> users_;
  std::unordered_map<const ir::Value*, UseInfo> use_info_;
  std::unordered_map<const ir::Value*, bool> cheap_memo_;
  std::unordered_map<const ir::Value*, int> weight_memo_;
  std::vector<std::unordered_map<std::string, std::string>> memo_;  // per loop body
  std::unordered_map<const ir::Value*, CarriedPtr> carried_ptrs_;
  std::unordered_map<const ir::Value*, std::string> twins_;  // fp16 load -> its decoded twin
  std::vector<Failure> failures_;
  bool has_atomics_ = false;  // the kernel has atomics (OpenCL C: its loads are then volatile)
  bool may_stream_ = false;  // the kernel may use streaming stores (it has no atomics)
  bool streams_ = false;     // some store was rendered with a streaming path
  int pf_sites_ = 0;         // rank-1 loads that predict the next program's rows (tr_pf_note)
  int64_t array_bytes_ = 0;  // see array_bytes()
};

/// True for ops whose tensor results may be virtual (views, leaves, elementwise).
bool is_virtualizable(ir::OpKind k);
/// True for ops that only re-index their operand (splat, broadcast, expand_dims, ...).
bool is_view(ir::OpKind k);

}  // namespace tritium::codegen::cpu
