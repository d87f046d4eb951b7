// Internal to the CUDA renderer (cuda_codegen.h): the Emitter that turns one ir::Function
// into the body of a __global__ function. Split by topic: cuda_emitter.cpp (output, layout
// coordinates, values, conversions, dispatch, elementwise ops), cuda_emit_memory.cpp
// (loads, stores, atomics), cuda_emit_reduce.cpp (reduce, scan, sort, shared-memory gathers:
// split, flip, cat, gather, histogram), cuda_emit_control.cpp (for / if / while,
// map_elementwise, assert, print), cuda_emit_dot.cpp.
//
// Values in the generated code:
//   scalars — a local per value (`s12_3`), identical in every thread of the block (uniform);
//   arrays  — `T v12[R]`: register r of the value's layout in this thread;
//   views   — no storage: el() reads the operand through the layout algebra.
// Names are fresh per emission (a combine region is emitted once per register pair).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/c_expr.h"
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/cuda/cuda_layouts.h"
#include "ir/dot_params.h"
#include "frontend/source.h"
#include "passes/axis_info.h"

namespace tritium::codegen::cuda {

/// Element i (each eb bytes) of the 32-bit word array `w`, as the bits of type T.
std::string unpack_word(const std::string& w, int i, int eb, const std::string& T);
/// "uint4", "uint2" or "uint32_t" for a vector of 16, 8 or 4 bytes.
const char* vec_type(int bytes);
/// The vector (make_uint4(...), ...) holding the bits of `elems` (each eb bytes, 4 to 16
/// bytes in all), the first element in the lowest bytes.
std::string pack_words(const std::vector<std::string>& elems, int eb);

class Emitter;
/// The vector width (elements) of a tensor access in layout `l` through `ptr` with `mask`
/// (elements of `eb` bytes): registers whose low bits run along one dimension, pointers
/// proved contiguous and aligned over the vector and the mask constant there (axis
/// analysis); up to 16 bytes, at least 4 (else 1). *dim receives that dimension.
int access_vector(const Emitter& e, const LinearLayout& l, const ir::Value* ptr, const ir::Value* mask, int eb, int* dim);

/// The language the emitter writes. Cuda: CUDA C++ for NVRTC. Msl: the Metal Shading
/// Language for one threadgroup of 32 x num_warps threads per program (codegen/metal,
/// msl_simt.cpp): the same layouts and canonical orders, spelled with Metal's threadgroup
/// barriers, simd_shuffle_xor and address spaces; no tensor cores, no pipelining (dots are
/// the FMA chain), what has no Metal spelling refused with SimtUnsupported. OpenCL: OpenCL
/// C 1.2 for one work-group of 32 x num_warps work-items per program (codegen/opencl,
/// opencl_simt.cpp), likewise, with lane exchanges through local memory between barriers
/// and scalar (unvectorized) memory accesses.
enum class Target { Cuda, Msl, OpenCL };

/// Thrown (Target::Msl) for a construct the threadgroup-parallel MSL path does not lower
/// yet; the MSL renderer then renders the program with one thread per threadgroup instead.
struct SimtUnsupported : frontend::CompileError {
  using frontend::CompileError::CompileError;
  /// "file:line:col: message" (the file name without its directory: a program text must
  /// not depend on where its source lives), or the message alone without a location.
  std::string brief() const;
};

/// The shared / threadgroup / local memory every Metal and OpenCL device offers a program
/// (bytes): the portable targets stage dots and layout conversions through at most this.
constexpr int64_t kPortableSharedBytes = 32 * 1024;

class Emitter {
 public:
  /// `sm`: the target's compute capability x 10 (e.g. 90), which picks mma.sync or wgmma
  /// (ignored for Target::Msl: no tensor cores).
  Emitter(const ir::Function& fn, const runtime::CodegenOptions& opts, int sm, Target target = Target::Cuda);
  /// The kernel body's text (declarations of the per-thread coordinates first).
  std::string render();
  /// Dynamic shared memory: the pipelining ring, then scratch — or both from the start when
  /// no pipelined loop's body uses scratch (they are never live together then).
  int64_t shared_bytes() const {
    return (ring_scratch_disjoint_ ? ring_bytes_ + smem_bytes_ : std::max(ring_bytes_, smem_bytes_)) +
           (sm90a() ? 1024 : 0);
  }
  int threads() const { return 32 * num_warps_; }
  /// OpenCL: local memory the lane exchanges take besides shared_bytes() (8 bytes a work-item).
  int64_t exchange_bytes() const { return uses_exchange_ ? 8 * int64_t{threads()} : 0; }
  std::vector<CudaFailSite> fail_sites;
  /// Metal / OpenCL: each failure site's complete message, by site number - 1, in the CPU
  /// backend's wording ("device_assert failed: <msg> at <file>:<line> in <kernel>").
  std::vector<std::string> failure_messages() const;

  // ---- output ----------------------------------------------------------------------------
  bool msl() const { return target_ == Target::Msl; }
  bool opencl() const { return target_ == Target::OpenCL; }
  bool cuda() const { return target_ == Target::Cuda; }
  /// Emits `const T name = <x from the lane (this lane ^ mask)>;` (a warp shuffle; OpenCL:
  /// an exchange through local memory between two barriers, every work-item taking part).
  /// OpenCL: exchange lanes with cl_intel_subgroups' intel_sub_group_shuffle_xor (the
  /// kernel then requires sub-groups of 32, which the device must have been checked to map
  /// to lane = work-item & 31) instead of local memory between barriers. Before render().
  void use_intel_subgroups(bool on) { intel_subgroups_ = on; }
  void shfl_xor(const std::string& T, const std::string& name, const std::string& x, int mask);
  /// A threadgroup-wide barrier statement that also orders this program's global-memory
  /// accesses (`comment`, if any, after it).
  void barrier(const char* comment = nullptr);
  /// Barriers emitted so far (emit_if: OpenCL refuses a barrier inside an if).
  int barriers_ = 0;
  /// The type of a pointer to `T` in shared (threadgroup) memory / in global (device) memory.
  std::string sp(const std::string& T) const;
  std::string gp(const std::string& T) const;
  /// A device-scope memory fence statement (before and after an atomic with acquire / release).
  std::string fence() const;
  /// Target::Msl: throws SimtUnsupported naming `op` (CUDA: refuse()).
  [[noreturn]] void not_simt(const ir::Op& op, const std::string& why) const;
  void line(const std::string& s);
  void open(const std::string& head);
  void close(const std::string& tail = "}");
  std::string fresh(const char* prefix);
  [[noreturn]] void refuse(const ir::Op& op, const std::string& why) const { cx_.refuse(op, why); }
  const CExpr& cx() const { return cx_; }

  // ---- layout coordinates --------------------------------------------------------------
  /// Coordinates of register r (the register bits' part of the layout map).
  static LinearLayout::Coord reg_coord(const LinearLayout& l, int64_t r);
  /// Expression of coordinate d of register r in this thread (int32).
  std::string coord(const LinearLayout& l, int d, int64_t r);
  /// Expression of the row-major index of register r's element in this thread (int32).
  std::string lin(const LinearLayout& l, int64_t r);
  /// True when register r differs from a register holding the same element by a set
  /// zero-vector register bit (a duplicate: skipped by stores and shared-memory writes).
  static bool reg_dup(const LinearLayout& l, int64_t r);
  /// The lowest register holding the same value of `v` as register r: r with each register
  /// bit cleared whose basis moves along one dimension d by less than v's proven constancy
  /// there (axis analysis: aligned runs of equal values), or moves nowhere (a duplicate).
  /// el() reads that register, so a mask constant over a vector is one compare, not one
  /// per element (the strings are equal and the C++ compiler evaluates them once).
  int64_t constancy_reg(const ir::Value* v, const LinearLayout& l, int64_t r) const;
  /// A bool expression, true in the threads that own their elements (no broadcast lane or
  /// warp bit set); "" when every thread does.
  std::string owner(const LinearLayout& l);
  /// The (hardware dim, bit) holding coordinate bit `bit` of dimension d, or {-1, -1}.
  static std::pair<int, int> holder(const LinearLayout& l, int d, int bit);

  // ---- values ------------------------------------------------------------------------------
  const LinearLayout& layout_of(const ir::Value* v) const { return plan_.of(v); }
  std::string scalar(const ir::Value* v) const;
  void bind_scalar(const ir::Value* v, const std::string& name);
  void bind_array(const ir::Value* v, const std::string& name);
  /// Expression of register r of tensor `v` read in layout `l` (l.shape() == v's shape).
  std::string el(const ir::Value* v, const LinearLayout& l, int64_t r);
  /// Emits now whatever reading `v` in `l` needs (conversions through shared memory), so
  /// that el() emits nothing later: called before thread-divergent blocks (a barrier must
  /// not be inside one).
  void ensure(const ir::Value* v, const LinearLayout& l);
  /// el() in v's own layout.
  std::string el(const ir::Value* v, int64_t r) { return el(v, layout_of(v), r); }
  /// Declares `T name[R]` for elements of type `t` and returns the name.
  std::string declare_array(const ir::Type& t, int64_t regs, const char* prefix);
  /// Shared memory of `bytes` needed from offset 0 (raises the kernel's dynamic size).
  void need_smem(int64_t bytes);
  /// Writes every element of tensor `v` to shared memory at its row-major index (typed
  /// pointer `name` returned), between barriers: afterwards every thread may read any element.
  std::string to_smem(const ir::Value* v, int64_t byte_offset = 0);
  /// to_smem() with element i stored at index `index(i)` instead (an expression over the
  /// row-major index expression; it must keep runs of 8 elements aligned at multiples of 8
  /// together, e.g. an XOR swizzle of the 16-byte chunks).
  std::string to_smem(const ir::Value* v, int64_t byte_offset,
                      const std::function<std::string(const std::string&)>& index);
  /// The number of consecutive registers of `l` (from a multiple of it) whose elements are
  /// consecutive in the row-major index — a shared-memory vector of up to 16 bytes of
  /// `eb`-byte elements (1 when narrower than 4 bytes).
  static int smem_vector(const LinearLayout& l, int eb);
  /// A new array holding `v` in layout `to`, through shared memory (memoized per scope).
  std::string convert(const ir::Value* v, const LinearLayout& to);
  /// True when ops emit no storage for `k` (views and constants).
  static bool is_view(ir::OpKind k);
  /// True for a tensor computed by a small tree (<= 12 ops) of cheap integer / pointer
  /// elementwise ops over views, ranges, constants and scalars (index arithmetic such as
  /// `pid * BLOCK + tl.arange(0, BLOCK)`): it gets no storage and is recomputed inside each
  /// use, in the layout that use needs, instead of being converted through shared memory.
  bool remat(const ir::Value* v);

  // ---- blocks and ops ------------------------------------------------------------------
  void emit_block(const ir::Block& b, bool scoped = true);
  void emit_op(const ir::Op& op);
  void emit_elementwise(const ir::Op& op);
  /// Emits the region of reduce / scan `op` on scalar expressions; returns the names of the
  /// combined values.
  std::vector<std::string> emit_combine(const ir::Op& op, const std::vector<std::string>& lhs,
                                        const std::vector<std::string>& rhs);
  std::vector<std::function<void(const ir::Op&)>> terminator_handlers;

  void emit_load(const ir::Op& op);
  void emit_store(const ir::Op& op);
  void emit_atomic(const ir::Op& op);
  void emit_reduce(const ir::Op& op);
  void emit_scan(const ir::Op& op);
  void emit_sort(const ir::Op& op);
  void emit_smem_gather(const ir::Op& op);
  void emit_histogram(const ir::Op& op);
  void emit_dot(const ir::Op& op);
  /// The FMA-chain dot with its operands staged `KC` columns of a / rows of b at a time
  /// (Target::Msl, where the whole operands pass the threadgroup memory; the same bits).
  void emit_dot_chunked(const ir::Op& op, const ir::DotParams& dp, int64_t KC);
  /// Between two barriers, writes the chunk k0..k0+KC-1 of dot `op`'s operands, converted to
  /// the compute type, to shared memory: a[bo][m][k0 + q] at sa[(bo * M + m) * KC + q],
  /// b[bo][k0 + q][n] at sb[(bo * KC + q) * N + n] (the FMA chain's and the simdgroup dot's
  /// staging).
  void stage_dot_chunk(const ir::Op& op, const ir::DotParams& dp, const std::string& k0, int64_t KC,
                       const std::string& sa, const std::string& sb);
  /// Metal, native numerics: the dot on simdgroup matrices (8x8 fp32 multiply-accumulate,
  /// each simdgroup a share of the 8x8 output tiles; cuda_emit_simdgroup.cpp). False, having
  /// emitted nothing, where it does not apply (the FMA chain then).
  bool emit_dot_simdgroup(const ir::Op& op, const ir::DotParams& dp);
  /// Where a tensor-core dot reads its operands (cuda_emit_dot.cpp): a from packed
  /// fragments (frag_regs_), from registers in its fragment layout, from a pipelined ring
  /// slot (staged_) or from a tile written to shared memory here; b likewise (registers
  /// only for mma.sync). Tiles are in tile_index's layout; written ones between barriers
  /// (with the async-proxy fence wgmma needs, after a pending prefetch is issued).
  struct DotOperands {
    std::string frag;             ///< a's packed fragments, or ""
    bool a_reg = false, b_reg = false;
    bool b_kmajor = false;        ///< b's tile is [N][K] (a ring slot of a K-contiguous load)
    std::string smem_a, smem_b;   ///< 32-bit shared addresses of the tiles ("" in registers)
  };
  DotOperands dot_operands(const ir::Op& op, const MmaPlan& mp);
  /// The 32-bit word holding two 16-bit values (by their bits), `lo` in the low half.
  static std::string pack_halves(const std::string& lo, const std::string& hi);
  void emit_mma(const ir::Op& op, const MmaPlan& mp);
  void emit_wgmma(const ir::Op& op, const MmaPlan& mp);  // cuda_emit_wgmma.cpp
  /// One `mma.sync.aligned.<shape_types>` statement: four accumulator registers acc[cbase..+3]
  /// (constraint "f" or "r"), A fragment fa[0..3], B fragment fb[0..1].
  static std::string mma_sync(const std::string& shape_types, const char* acc_constraint, const std::string& acc,
                              int64_t cbase, const std::string& fa, const std::string& fb);
  /// int8 and tf32 dots (MmaPlan::epr != 2; cuda_emit_mma_narrow.cpp).
  void emit_mma_narrow(const ir::Op& op, const MmaPlan& mp);
  /// Writes rank-2 tensor `v` to shared memory at byte_offset + coord[major] * pitch +
  /// coord[1 - major] * element bytes, one store per owned element (`round`: rounded to
  /// tf32 first).
  void stage_rows(const ir::Value* v, int64_t byte_offset, int major, int64_t pitch, bool round);
  bool uses_wgmma() const { return uses_wgmma_; }
  /// wgmma.wait_group `pending` with the `regs` registers of accumulator array `acc` tied to it.
  void wg_wait(int pending, const std::string& acc, int64_t regs);
  void emit_for(const ir::Op& op);

  // ---- software pipelining of dot operands (cuda_emit_pipeline.cpp) --------------------
  struct PipeLoad {
    const ir::Op* load = nullptr;      ///< the load, not emitted in the body
    const ir::Op* dot = nullptr;
    int which = 0;                     ///< 0: the dot's a, 1: its b
    const ir::Value* operand = nullptr;  ///< the dot operand (the load or tl.trans of it)
    int vec = 1, cdim = 1;             ///< elements per copy; the load's contiguous dim
    int64_t rows = 0, cols = 0;        ///< the shared tile [rows][cols], cols contiguous
    bool kmajor = false;               ///< b stored [N][K] (read with ldmatrix, no .trans)
    int64_t offset = 0;                ///< byte offset in a ring slot
    bool tma = false;                  ///< copied by bulk tensor copies (cuda_emit_tma.cpp)
    int desc = -1;                     ///< its tensor map's index in the program's global scratch
  };
  struct PipePlan {
    bool ok = false;
    int stages = 0;
    int64_t stage_bytes = 0;                 ///< one ring slot (every load's tile)
    std::vector<PipeLoad> loads;
    std::vector<const ir::Op*> slice;        ///< body ops computing their pointers and masks
    std::vector<int> advanced;               ///< carried pointers kept S-1 iterations ahead
    std::vector<const ir::Op*> hoisted;      ///< dots whose a is read from registers
    bool async_proxy = false;                ///< a dot reads cp.async's tiles with wgmma (proxy fence)
    bool defer = false;                      ///< a wgmma reads the ring: copies issued after its instructions
    int slots = 0;                           ///< ring slots: stages, + 1 with a dot in flight
    std::vector<std::pair<const ir::Op*, int>> inflight;  ///< wgmma dots kept in flight, carried index
    bool cp_async = false;                   ///< a load is copied with cp.async
    int64_t tma_bytes = 0;                   ///< bytes the bulk tensor copies deliver per slot
    int64_t bar_offset = 0;                  ///< the slots' mbarriers (8 bytes each) in the ring
    int64_t tmap_offset = 0;                 ///< then 128 bytes per tensor map, staged there
  };
  /// A shared-memory tile holding a dot operand in the current iteration.
  struct Staged {
    std::string addr;  ///< its 32-bit shared address
    int64_t cols = 0;
    bool kmajor = false;
  };
  PipePlan plan_pipeline(const ir::Op& loop);
  void pipeline_prologue(const ir::Op& loop, const PipePlan& pp, const std::vector<std::string>& carried,
                         const std::string& lb, const std::string& st, const std::string& trips);
  void pipeline_iteration(const ir::Op& loop, const PipePlan& pp, const std::vector<std::string>& carried,
                          const std::string& k, const std::string& lb, const std::string& st, const std::string& trips,
                          const std::string& ivn);
  void pipeline_issue(const ir::Op& loop, const PipePlan& pp, const std::vector<std::string>& carried,
                      const std::string& iv, const std::string& valid, const std::string& slot, bool advance);
  void pipeline_epilogue(const PipePlan& pp);
  // ---- bulk tensor copies of pipelined windows (TMA, sm_90a; cuda_emit_tma.cpp) ----------
  /// True when pipelined load `L` (a dot operand) may be copied
  /// by TMA: a tensor descriptor's 2-D 16-bit window (ops.def, Load "window", "window_desc")
  /// with zero padding, shapes and row stride fitting 32 bits, stride 1 along
  /// its last dimension, base and row stride proved 16-byte multiples (axis analysis), a box
  /// the tile layout matches, its base / shape / strides loop-invariant (`invariant` gives a
  /// value's equal defined before the loop, or nullptr).
  bool tma_window(const ir::Op& L, const std::function<const ir::Value*(const ir::Value*)>& invariant) const;
  /// Before the loop, thread 0: the tensor maps of the plan's TMA loads (in the program's
  /// global scratch; a shape outside TMA's range is a run-time error) and the slots' mbarriers.
  void tma_prologue(const PipePlan& pp);
  /// Thread 0, when `valid`: expect the slot's bytes on its mbarrier, then every TMA load's boxes.
  void tma_issue(const PipePlan& pp, const std::string& valid, const std::string& slot);
  /// Every thread: wait for iteration k's slot (phase parity (k / slots) & 1).
  void tma_wait(const PipePlan& pp, const std::string& k);
  /// After the loop (every copy waited for): the mbarriers invalidated, then a barrier.
  void tma_epilogue(const PipePlan& pp);
  /// Uses sm_90a instructions (wgmma or TMA): compiled for sm_90a, tiles 1024-byte aligned.
  bool sm90a() const { return uses_wgmma_ || uses_tma_; }
  /// Global scratch per program (bytes): its tensor maps.
  int64_t global_scratch_bytes() const { return int64_t{tma_descs_} * 128; }
  /// Emits the current iteration's deferred prefetch, if any (a wgmma dot calls it once its
  /// instructions are issued; the loop's yield calls it otherwise).
  void run_pending_prefetch();
  /// At most this many stages (render_cuda lowers it when shared memory overflows).
  void set_max_stages(int s) { max_stages_ = s; }
  /// Whether a pipelined wgmma may stay in flight across iterations (one more ring slot).
  void set_inflight(bool on) { inflight_ok_ = on; }
  int64_t ring_bytes() const { return ring_bytes_; }
  /// The shared-memory layout of a 16-bit dot operand tile [R][C] (C contiguous, powers of
  /// two): the element index of row-major element i. Column blocks of W = min(C, 64)
  /// elements are stored one after another, each [R][W]; inside a block the 16-byte chunks
  /// are XOR-swizzled by address bits 7.. (128-, 64- or 32-byte swizzle for W = 64, 32,
  /// 16). These are the canonical layouts of wgmma's shared-memory operands (PTX ISA,
  /// "Shared Memory Matrix Layout": K-major and MN-major, 128B / 64B / 32B swizzling) and
  /// keep ldmatrix's eight row addresses in distinct banks. Tiles start 1024-byte aligned.
  static std::string tile_index(const std::string& i, int64_t R, int64_t C);
  /// The wgmma descriptor swizzle mode of that layout (1: 128B, 2: 64B, 3: 32B, 0: none).
  static int tile_swizzle_mode(int64_t C);
  /// tile_index of the concrete row-major index i (the same function, evaluated here).
  static uint32_t tile_index_value(uint32_t i, int64_t R, int64_t C);
  /// tile_index of register r's element of `l` (a [R][C] tile; `cdim` its column dim) as
  /// "(F op K)": F this thread's lane / warp part (one variable, computed once at kernel
  /// start), K a constant. Exact because the layout is linear over GF(2) when R and C are
  /// powers of two (row * C + col concatenates bits; tile_block permutes them; the swizzle
  /// XORs them), so index(hw ^ reg) = index(hw) ^ index(reg); op is + where K's bits
  /// cannot meet F's. "" when R or C is not a power of two.
  std::string tile_index_of(const LinearLayout& l, int cdim, int64_t R, int64_t C, int64_t r);
  /// tile_index_of's arithmetic: *K = the constant of register r; returns 1 when
  /// index = F + K, 2 when index = F ^ K, 0 when R or C is not a power of two (no split).
  static int tile_index_split(const LinearLayout& l, int cdim, int64_t R, int64_t C, int64_t r, uint32_t* K);
  void emit_if(const ir::Op& op);
  void emit_while(const ir::Op& op);
  void emit_map(const ir::Op& op);
  void emit_assert(const ir::Op& op);
  void emit_print(const ir::Op& op);
  /// Records a failure site and returns the statement that reports it (first failure wins).
  std::string fail_statement(const std::string& message, const std::string& file, int64_t line);

  /// Assigns `v` to storage `dst`: a scalar, or a tensor read in layout `dst_layout`
  /// (nullptr: v's own).
  void assign(const std::string& dst, const ir::Value* v, const LinearLayout* dst_layout = nullptr);
  /// Declares storage for a value of `t` with layout of `like` (tensors) and returns it.
  std::string declare_like(const ir::Value* like, const char* prefix);

  const runtime::CodegenOptions& options() const { return opts_; }
  const ir::Function& function() const { return fn_; }
  const passes::AxisAnalysis& axis() const { return axis_; }
  /// Number of ops reading `v`.
  int uses(const ir::Value* v) const;

 private:
  std::string hw_var(const LinearLayout& l, int d);  // per-thread lane/warp part of dim d
  std::string hw_lin_var(const LinearLayout& l);     // per-thread lane/warp part of the index
  void count_uses(const ir::Block& b);

  const ir::Function& fn_;
  runtime::CodegenOptions opts_;
  Target target_;
  CExpr cx_;  // "cuda", with the approximations of native numerics unless portable
  int num_warps_;
  LayoutPlan plan_;
  passes::AxisAnalysis axis_;
  std::string out_, prologue_;
  int indent_ = 1;
  int counter_ = 0;
  int64_t smem_bytes_ = 0;
  std::unordered_map<const ir::Value*, std::string> scalars_, arrays_;
  std::unordered_map<const ir::Value*, int> uses_;
  std::unordered_map<const ir::Value*, int> remat_memo_;  // tree size, or -1
  std::map<std::string, std::string> hw_vars_;  // (layout key, dim) -> variable
  int max_stages_ = 1 << 20;
  bool inflight_ok_ = true;
  bool uses_wgmma_ = false;
  bool uses_tma_ = false;
  int tma_descs_ = 0;  // tensor maps per program (global scratch, 128 bytes each)
  int64_t ring_bytes_ = 0;
  std::unordered_map<const ir::Value*, Staged> staged_;         // dot operand -> its ring tile
  std::unordered_map<const ir::Op*, std::string> frag_regs_;    // dot -> its a in packed fragments
  std::set<const ir::Op*> skip_ops_;                              // pipelined loads
  std::function<void()> pending_prefetch_;                         // see run_pending_prefetch
  std::unordered_map<const ir::Op*, std::string> inplace_acc_;     // in-flight dot -> carried acc
  bool uses_exchange_ = false;  // OpenCL: shfl_xor's local exchange array
  bool intel_subgroups_ = false;  // OpenCL: lane exchanges by intel_sub_group_shuffle_xor
  bool has_atomics_ = false;    // the kernel has atomics (Metal / OpenCL: volatile loads)
  bool ring_scratch_disjoint_ = false;  // a pipelined loop's body uses scratch: no overlap
  std::vector<std::map<std::pair<const ir::Value*, std::string>, std::string>> conv_memo_;  // per scope
 public:
  // Global-memory accesses since the last hazard barrier (cuda_emit_memory.cpp): a later
  // access conflicts with an earlier one when either writes, unless both go through the same
  // pointer value in the same layout with one holder per element (then each element is read
  // and written by one thread, in program order).
  struct Access {
    bool store;
    const ir::Value* ptr;  // nullptr: unknown (a previous loop iteration)
    std::string key;       // layout key ("" for scalars)
    bool shared;           // scalar, atomic, duplicate holders, or another iteration
    bool by_thread0 = false;  // a plain scalar store: thread 0 alone does it
    std::string guard;        // a for loop's trip index: the previous iteration's access
  };
  std::vector<Access> accesses_;
  /// Emits a block barrier before a load (store = false) or store / atomic through `ptr`
  /// when it conflicts with an access since the last one, then records it. Two plain
  /// scalar stores never conflict (thread 0 does both, in program order). When every
  /// conflict is with a for loop's previous iteration (guard k), the barrier is skipped in
  /// the loop's first iteration (`if (k > 0)`: uniform, so every thread takes it or none).
  void hazard_barrier(bool store, const ir::Value* ptr, bool atomic);
  /// Records the accesses of `b` (a loop body that repeats, or has run) as shared accesses.
  void note_accesses_of(const ir::Block& b, const std::string& guard = "");
  /// Before a loop whose body accesses memory: one barrier for earlier stores.
  void flush_before_loop(const ir::Block& body);
};

}  // namespace tritium::codegen::cuda
