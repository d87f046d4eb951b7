// tritium — the public C++ API.
//
// Load a file (or string) of Triton-language kernels, pick a kernel, specialize it with an
// AOT signature, compile it for a device, allocate buffers, launch on a grid, copy back:
//
//   #include <tritium/tritium.h>
//
//   tritium::Module mod = tritium::Module::from_file("vector_add.py");
//   tritium::Kernel add = mod.kernel("add_kernel");
//   tritium::Device dev = tritium::Device::get();            // best backend present
//   tritium::CompiledKernel k = add.compile(dev, "*fp32:16, *fp32:16, *fp32:16, i32, 1024");
//
//   std::vector<float> x(n, 1.f), y(n, 2.f);
//   tritium::Buffer bx = dev.upload(x), by = dev.upload(y), bz = dev.alloc(n * sizeof(float));
//   k.launch({(n + 1023) / 1024}, {bx, by, bz, n});           // grid (x[, y[, z]]), then args
//   std::vector<float> z = bz.download<float>();
//
// Signatures follow Triton's AOT convention (triton.tools.compile): one comma-separated entry
// per kernel parameter, in order — "*fp32" a pointer to fp32, "*fp16:16" a pointer whose
// address is a multiple of 16 bytes, "i32" an int32 scalar, "i32:16" an int32 multiple of 16,
// "i64:1" an int64 equal to 1, "fp32" a float scalar, and a bare value ("1024", "0.5", "True",
// "'mean'", "tl.float16") for a `tl.constexpr` parameter; "None" makes any parameter the
// constexpr None. Trailing constexpr parameters with defaults may be left out.
//
// Every failure is reported by throwing tritium::Error (or its subclass CompileError for
// diagnostics that point into kernel source). Nothing here aborts the process.
//
// Thread safety: Module, Kernel and Device handles may be shared between threads; compile()
// is safe to call concurrently (the in-memory cache is locked). Launches and copies on one
// device should be serialized by the caller.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace tritium::runtime {
class Device;
}  // namespace tritium::runtime

namespace tritium {

/// The library version, "MAJOR.MINOR.PATCH" (e.g. "0.1.0").
std::string version();

/// Ceiling division for grids: cdiv(1000, 256) == 4 (Triton's `triton.cdiv`); b must be > 0.
constexpr int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ------------------------------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------------------------------

/// What went wrong, coarsely; the message says exactly what.
enum class ErrorKind {
  Compile,    ///< the kernel source is wrong or unsupported (a CompileError, with location)
  Signature,  ///< the signature / constexpr values do not fit the kernel's parameters
  Argument,   ///< launch arguments do not fit the compiled specialization
  NotFound,   ///< no such kernel, backend or file
  Device,     ///< allocation, copy, backend compilation or launch failed on the device
  Usage,      ///< an invalid option or argument value (e.g. num_warps = 3, copy past the end)
  Internal,   ///< a bug in tritium (e.g. invalid IR produced by a pass); please report it
};

/// Every error the API throws. what() is the full, human-readable message.
class Error : public std::runtime_error {
 public:
  /// An error of `kind` with message `message`.
  Error(ErrorKind kind, const std::string& message);
  /// The error category.
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

/// A diagnostic that points into kernel source. what() is the full diagnostic:
///
///     FILE:LINE:COL: error: MESSAGE
///         <source line>
///         <caret under COL>
class CompileError : public Error {
 public:
  /// `diagnostic` is the full text above; the rest are its parts (line/col 1-based, 0 = unknown).
  CompileError(const std::string& diagnostic, std::string file, int line, int col, std::string message);
  /// Name of the source (file path, or the name given to Module::from_string).
  const std::string& file() const { return file_; }
  /// 1-based line of the error (0 when unknown).
  int line() const { return line_; }
  /// 1-based column (in bytes) of the error (0 when unknown).
  int col() const { return col_; }
  /// The bare message, without location or source line.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int col_;
  std::string message_;
};

// ------------------------------------------------------------------------------------------
// Devices and buffers
// ------------------------------------------------------------------------------------------

/// A backend known to this build and whether it can be used on this machine.
struct BackendInfo {
  std::string name;    ///< "cpu", "interp", "cuda", "opencl", "metal", "msl-emu"
  bool available;      ///< true when Device::get(name) can succeed here
  std::string reason;  ///< why it is unavailable (empty when available)
  std::string summary; ///< one line saying what the backend is
};

class Device;

/// A block of device memory. Owns the allocation (freed on destruction); movable, not
/// copyable. Keeps its device alive. Sizes and offsets are in bytes.
class Buffer {
 public:
  /// An empty buffer (no allocation, size 0).
  Buffer() = default;
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  /// Size of the allocation in bytes.
  size_t size() const { return bytes_; }
  /// True when the buffer holds no allocation (default-constructed or moved from).
  bool empty() const { return impl_ == nullptr; }
  /// The device address (what a kernel's pointer argument receives). For the cpu and interp
  /// backends this is a host address.
  void* device_ptr() const { return ptr_; }
  /// Copies `bytes` bytes from host memory `src` into the buffer at byte `offset`.
  /// Throws Error(Usage) when [offset, offset + bytes) is outside the buffer.
  void copy_from_host(const void* src, size_t bytes, size_t offset = 0);
  /// Copies `bytes` bytes at byte `offset` of the buffer to host memory `dst`.
  /// Throws Error(Usage) when [offset, offset + bytes) is outside the buffer.
  void copy_to_host(void* dst, size_t bytes, size_t offset = 0) const;
  /// Copies the whole buffer out as elements of T. Throws Error(Usage) when the size is not a
  /// multiple of sizeof(T).
  template <class T>
  std::vector<T> download() const {
    static_assert(std::is_trivially_copyable_v<T>, "download<T> needs a trivially copyable T");
    check_multiple(sizeof(T));
    std::vector<T> out(bytes_ / sizeof(T));
    if (!out.empty()) copy_to_host(out.data(), bytes_);
    return out;
  }
  /// Fills the whole buffer with copies of the byte pattern of `value` (e.g. a NaN to poison
  /// an output). Throws Error(Usage) when the size is not a multiple of sizeof(T).
  template <class T>
  void fill(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "fill<T> needs a trivially copyable T");
    check_multiple(sizeof(T));
    std::vector<T> v(bytes_ / sizeof(T), value);
    if (!v.empty()) copy_from_host(v.data(), bytes_);
  }

 private:
  friend class Device;
  friend class Arg;
  void check_multiple(size_t elem) const;
  std::shared_ptr<runtime::Device> impl_;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
  bool borrowed_ = false;  // Device::borrow: not freed
};

/// A compute device: a handle to one backend instance (cheap to copy; copies share it).
/// Device::get returns the same instance for the same backend name within a process.
class Device {
 public:
  /// The device of backend `backend` ("cpu", "interp", ...); "" picks best_backend().
  /// Throws Error(NotFound) for an unknown name and Error(Device) for a backend that is
  /// unavailable here (the message gives the reason).
  static Device get(const std::string& backend = "");
  /// Every backend of this build, available or not, in a fixed order.
  static std::vector<BackendInfo> list();
  /// The first available of cuda, metal, opencl, cpu.
  static std::string best_backend();

  /// Backend name ("cpu", "interp", ...).
  std::string name() const;
  /// Human-readable description (processor, cores, compiler).
  std::string description() const;
  /// Hardware figures under the names upstream Triton's
  /// `triton.runtime.driver.active.utils.get_device_properties` uses (what occupancy
  /// arithmetic in host code reads): "multiprocessor_count", "max_shared_mem" (bytes per
  /// program with opt-in), "max_num_regs" (32-bit registers per program), "warpSize", and on
  /// cuda also "sm_clock_rate" / "mem_clock_rate" (kHz), "mem_bus_width" (bits),
  /// "max_threads_per_block", "max_threads_per_sm", "max_num_regs_per_sm",
  /// "max_shared_mem_per_sm", "l2_cache_size" and "total_memory" (bytes),
  /// "compute_capability" (e.g. 90). The cpu backend reports its execution model in these
  /// terms: one "multiprocessor" per worker thread, warpSize 1, and a model register file
  /// and shared memory (65536 each) that one program fills (CompiledKernel::resources()),
  /// so the usual occupancy formulas give one program per worker thread. Empty for interp.
  std::map<std::string, int64_t> properties() const;
  /// Allocates `bytes` bytes of uninitialized device memory (bytes may be 0).
  /// Throws Error(Device) when the allocation fails.
  Buffer alloc(size_t bytes) const;
  /// Allocates a buffer of `bytes` bytes and copies them from host memory `data`.
  Buffer upload(const void* data, size_t bytes) const;
  /// A buffer over `bytes` bytes at `ptr` that this device's kernels can already address
  /// (cuda: a device pointer of the same CUDA context, e.g. a torch or CuPy tensor's;
  /// cpu / interp: host memory). Nothing is allocated, copied or freed: the memory stays
  /// the caller's and must outlive the buffer and every launch using it. Throws
  /// Error(Usage) for a null `ptr` with `bytes` > 0.
  Buffer borrow(void* ptr, size_t bytes) const;
  /// Allocates a buffer holding a copy of `v` (v.size() * sizeof(T) bytes).
  template <class T>
  Buffer upload(const std::vector<T>& v) const {
    static_assert(std::is_trivially_copyable_v<T>, "upload<T> needs a trivially copyable T");
    return upload(v.data(), v.size() * sizeof(T));
  }
  /// Waits until all work queued on the device has finished.
  void synchronize() const;

  /// The runtime device behind this handle (for tritium's own tools and tests).
  const std::shared_ptr<runtime::Device>& impl() const { return impl_; }
  /// Wraps a runtime device (for tritium's own tools and tests).
  explicit Device(std::shared_ptr<runtime::Device> impl);

 private:
  std::shared_ptr<runtime::Device> impl_;
};

// ------------------------------------------------------------------------------------------
// Launch arguments and grids
// ------------------------------------------------------------------------------------------

/// One launch argument: a buffer (pointer parameter), an integer or a float (scalar
/// parameter). Implicit from Buffer, any integer type, bool, float and double, so a launch
/// reads `k.launch({n}, {buf_x, buf_y, 1024, 0.5f})`.
///
/// An Arg refers to a buffer without owning it: the buffer must outlive the launch.
/// At launch every value is checked against its parameter: a buffer only for a pointer, an
/// integer for an integer (in range of its dtype; == 1 for "i32:1"; a multiple of 16 for
/// "i32:16"), an integer or float for a float parameter (rounded to nearest-even into
/// fp16/bf16/fp32). Mismatches throw Error(Argument) naming the parameter.
struct TensorDescriptorArg;

class Arg {
 public:
  /// What the argument holds.
  enum class Kind { Pointer, Int, Float, None, TensorDescriptor };

  /// A pointer to the start of `b`.
  Arg(const Buffer& b);  // NOLINT(google-explicit-constructor)
  /// A pointer `byte_offset` bytes into `b` (byte_offset <= b.size(), else Error(Usage)).
  static Arg ptr(const Buffer& b, size_t byte_offset);
  /// A pointer to elements of `dtype` ("fp32", "fp16", "bf16", "i32", "u8", ... as in
  /// signatures), for Kernel::run, which specializes on it as Triton's JIT does on a
  /// tensor's dtype. Throws Error(Usage) for an unknown dtype or a bad offset.
  static Arg tensor(const Buffer& b, const std::string& dtype, size_t byte_offset = 0);
  /// Python's None, for Kernel::run: the parameter is specialized as the constexpr None
  /// (as Triton does for a None argument, e.g. an optional pointer tested with `is None`)
  /// and is not passed to the compiled kernel. CompiledKernel::launch does not take it.
  static Arg none() {
    Arg a;
    a.kind_ = Kind::None;
    return a;
  }
  /// A host tensor descriptor (upstream's `triton.tools.tensor_descriptor.TensorDescriptor`),
  /// for Kernel::run: `base` (an Arg::tensor: the element dtype) viewed as a `shape` array
  /// with element `strides`, accessed in blocks of `block_shape` by desc.load / desc.store
  /// in the kernel. Specialized as "tensordesc<dtype[block_shape]>" (", nan>" with NaN
  /// padding); it launches as the base pointer, the shape (i32 each) and the strides but
  /// the last (i64 each): see launch_arguments(). Throws Error(Usage) unless 1 to 5
  /// dimensions with as many shape, stride and block entries, the last stride 1, shape
  /// entries in [0, 2^31), block entries > 0, padding "zero" or "nan", and base a tensor.
  static Arg tensor_descriptor(const Arg& base, std::vector<int64_t> shape, std::vector<int64_t> strides,
                               std::vector<int64_t> block_shape, const std::string& padding = "zero");
  /// A Python bool, for Kernel::run: specialized as Triton's JIT does a bool argument
  /// ("i1", no ":1" / ":16"); launches as 0 or 1.
  static Arg boolean(bool v) {
    Arg a(static_cast<int64_t>(v));
    a.bool_ = true;
    return a;
  }
  /// An integer (any width or signedness; bool gives 0 or 1).
  template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  Arg(T v) {  // NOLINT(google-explicit-constructor)
    kind_ = Kind::Int;
    if constexpr (std::is_unsigned_v<T>) {
      if (static_cast<uint64_t>(v) > static_cast<uint64_t>(INT64_MAX)) {
        big_unsigned_ = true;
        u_ = static_cast<uint64_t>(v);
        return;
      }
    }
    i_ = static_cast<int64_t>(v);
  }
  /// A floating-point value (stored as double; float converts exactly).
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Arg(T v) : kind_(Kind::Float), f_(static_cast<double>(v)) {}  // NOLINT(google-explicit-constructor)

  /// The kind of value held.
  Kind kind() const { return kind_; }
  /// Integer value (Kind::Int and not is_big_unsigned()).
  int64_t int_value() const { return i_; }
  /// True when the integer is an unsigned value above INT64_MAX (then see uint_value()).
  bool is_big_unsigned() const { return big_unsigned_; }
  /// True for an Arg::boolean.
  bool is_bool() const { return bool_; }
  /// The unsigned value when is_big_unsigned().
  uint64_t uint_value() const { return u_; }
  /// Float value (Kind::Float).
  double float_value() const { return f_; }
  /// Device address (Kind::Pointer), including the offset.
  void* pointer() const { return ptr_; }
  /// The device the pointed-to buffer lives on (Kind::Pointer).
  const runtime::Device* pointer_device() const { return device_; }
  /// Bytes from pointer() to the end of the buffer (Kind::Pointer).
  size_t pointer_extent() const { return extent_; }
  /// Bytes of the buffer before pointer() (Arg::ptr's byte_offset; 0 for a whole buffer).
  size_t pointer_lead() const { return lead_; }
  /// Element dtype of a pointer made by Arg::tensor, or of a tensor descriptor's base (""
  /// for other pointers and scalars).
  const std::string& dtype() const { return dtype_; }
  /// The descriptor (Kind::TensorDescriptor), else null.
  const TensorDescriptorArg* descriptor() const { return desc_.get(); }
  /// A copy marking the memory as read-only (e.g. a numpy array with writeable=False):
  /// launching it for a parameter the kernel writes through (ArgInfo::written) throws
  /// Error(Argument) naming the parameter instead of writing.
  Arg read_only() const {
    Arg a = *this;
    a.read_only_ = true;
    return a;
  }
  /// A copy of a pointer argument viewing its memory as elements of `dtype` (a kernel
  /// parameter annotated `x: "*fp32"` does this to whatever tensor it is given, as
  /// upstream). Throws Error(Usage) for a non-pointer or an unknown dtype.
  Arg retyped(const std::string& dtype) const;
  /// True for an Arg made by read_only().
  bool is_read_only() const { return read_only_; }
  /// Short description for messages ("buffer of 4096 bytes", "int 7", "float 0.5").
  std::string describe() const;

 private:
  Arg() = default;
  Kind kind_ = Kind::Int;
  int64_t i_ = 0;
  uint64_t u_ = 0;
  bool big_unsigned_ = false;
  bool bool_ = false;
  bool read_only_ = false;
  double f_ = 0;
  void* ptr_ = nullptr;
  const runtime::Device* device_ = nullptr;
  size_t extent_ = 0;
  size_t lead_ = 0;
  std::string dtype_;
  std::shared_ptr<const TensorDescriptorArg> desc_;
};

/// The fields of an Arg::tensor_descriptor.
struct TensorDescriptorArg {
  Arg base = Arg::none();            ///< the tensor (Kind::Pointer with a dtype)
  std::vector<int64_t> shape;        ///< elements per dimension
  std::vector<int64_t> strides;      ///< elements; the last is 1
  std::vector<int64_t> block_shape;  ///< the block desc.load / desc.store move
  bool padding_nan = false;          ///< out-of-bounds elements load as NaN (else zero)
};

/// The arguments a CompiledKernel launch takes for Kernel::run-style `args` (one per
/// runtime parameter): None arguments dropped (they are specialized away) and each tensor
/// descriptor expanded into its base, its shape and its strides but the last.
std::vector<Arg> launch_arguments(const std::vector<Arg>& args);

/// The launch grid: number of programs along x, y, z (Triton's `grid`). `{n}` is (n, 1, 1),
/// `{n, m}` is (n, m, 1); any integer types. A zero extent launches nothing; a negative
/// extent or one above 2^31 - 1 throws Error(Usage) at launch.
struct Grid {
  int64_t x = 1, y = 1, z = 1;
  /// (1, 1, 1).
  Grid() = default;
  /// (x, y, z).
  template <class X, class Y = int, class Z = int,
            std::enable_if_t<std::is_integral_v<X> && std::is_integral_v<Y> && std::is_integral_v<Z>, int> = 0>
  Grid(X x_, Y y_ = 1, Z z_ = 1)  // NOLINT(google-explicit-constructor)
      : x(to_i64(x_)), y(to_i64(y_)), z(to_i64(z_)) {}
  /// Total programs x*y*z (meaningful once each extent is validated).
  int64_t count() const { return x * y * z; }

 private:
  template <class T>
  static int64_t to_i64(T v) {
    // Values that do not fit int64 become -1 (rejected at launch as out of range).
    if constexpr (std::is_unsigned_v<T>) {
      if (static_cast<uint64_t>(v) > static_cast<uint64_t>(INT64_MAX)) return -1;
    }
    return static_cast<int64_t>(v);
  }
};

// ------------------------------------------------------------------------------------------
// Modules, kernels, compiled kernels
// ------------------------------------------------------------------------------------------

/// Options of one compilation. All but `dump_after`/`dump` are part of the compiled-kernel
/// cache key.
struct CompileOptions {
  int num_warps = 4;               ///< warps per program; a power of two in [1, 64]
  int num_stages = 3;              ///< software-pipelining depth, >= 0
  bool portable_numerics = false;  ///< bit-identical results across backends (ARCHITECTURE.md)
  bool debug = false;              ///< tl.device_assert active
  /// Sanitize mode (also on when the environment has TRITIUM_SANITIZE=1): every load and
  /// store is checked against the buffer of the pointer argument it is derived from, and a
  /// launch that goes out of bounds throws Error(Device) naming the kernel, the access's
  /// file:line, the program id, the argument and the byte offset (the access itself is
  /// skipped); masked-off lanes of a load without `other` read a poison value (NaN for
  /// floats, 0xA5 bytes for integers) instead of 0, so a kernel that uses them shows it.
  /// Not checked: arguments given as raw pointers without an extent, and pointers the
  /// renderer cannot trace to one argument's buffer (made from integers, loaded from
  /// memory, results of for / while / if); pointers from several arguments are accepted in
  /// any of their buffers (docs/design.md, "Sanitize mode"). cpu and msl-emu backends
  /// only: the others refuse sanitize = true (under TRITIUM_SANITIZE=1 alone they run unchecked,
  /// said once on stderr). Slower: the checked accesses take no fast path.
  bool sanitize = false;
  /// Pass names after which the IR is dumped ("all" = every pass); unknown names throw
  /// Error(Usage) listing the valid ones. A compile with dumps bypasses the cache lookup.
  std::vector<std::string> dump_after;
  /// Receives (pass name, printed IR) for each dump; when empty, dumps go to stderr.
  std::function<void(const std::string& pass, const std::string& ir)> dump;
};

/// A dtype given as a constexpr value, as Triton passes `tl.float16` to an
/// `X_dtype: tl.constexpr` parameter: `DType{"fp16"}` (any spelling signatures accept:
/// "fp16", "float16", "bf16", "i32", "uint8", ...). In signatures: `tl.float16`.
struct DType {
  std::string name;
  bool operator==(const DType&) const = default;
};
/// A value for a constexpr parameter: int, float, bool, string ('mean' in signatures) or dtype.
using ConstexprValue = std::variant<int64_t, double, bool, std::string, DType>;

/// One parameter of a kernel, as declared in the source.
struct Parameter {
  std::string name;           ///< the parameter's name
  bool is_constexpr = false;  ///< annotated `tl.constexpr` (or `constexpr`)
  bool has_default = false;   ///< has a default value
  std::string default_text;   ///< the default's source text (e.g. "128"), when has_default
  /// The type a non-constexpr parameter's annotation forces, as upstream Triton reads it
  /// (runtime/jit.py: the annotation's dtype or type name canonicalised — `tl.int64`,
  /// `"i64"`, `int` → "i32", `float` → "fp32", `bool` → "i1", `"*fp32"` / `tl.pointer_type(
  /// tl.float32)` → "*fp32", `"const *fp16"` → "*fp16"); "" when there is none. Kernel::run
  /// and the Python package then use it instead of the argument's own type; floats and
  /// bools so annotated are not specialized.
  std::string annotation_type;
};

/// One runtime (non-constexpr) parameter of a compiled specialization, in launch order.
struct ArgInfo {
  std::string name;          ///< parameter name
  bool is_pointer = false;   ///< pointer parameter (takes a Buffer)
  std::string dtype;         ///< element dtype for pointers, value dtype for scalars ("fp32", "i32")
  int divisibility = 1;      ///< 16 when specialized as a multiple of 16 (bytes for pointers)
  bool equal_to_1 = false;   ///< integer specialized as the constant 1 ("i32:1")
  bool written = true;       ///< pointers: the kernel may store through it (false: it only reads)
};

/// One `triton.Config(...)` of a kernel's `@triton.autotune`.
struct AutotuneConfig {
  std::vector<std::pair<std::string, ConstexprValue>> kwargs;  ///< meta-parameters, in source order
  int num_warps = 4;                                           ///< the config's num_warps
  int num_stages = 3;                                          ///< the config's num_stages
  /// "BLOCK_SIZE: 128, num_warps: 4, num_stages: 3" (upstream's Config.__str__ layout).
  std::string str() const;
};

/// What the decorators above a jit function declare, with upstream Triton 3.6's meaning
/// (python/triton/runtime/autotuner.py, jit.py).
struct KernelDecorators {
  std::vector<AutotuneConfig> configs;      ///< `@triton.autotune` configs (empty: not autotuned)
  std::vector<std::string> autotune_key;    ///< its `key`: arguments whose values select a result
  std::vector<std::string> reset_to_zero;   ///< its `reset_to_zero` pointer arguments
  std::vector<std::string> restore_value;   ///< its `restore_value` pointer arguments
  std::vector<std::string> heuristics;      ///< meta-parameters `@triton.heuristics` computes, in order
  std::vector<std::string> do_not_specialize;               ///< `@triton.jit(do_not_specialize=)`
  std::vector<std::string> do_not_specialize_on_alignment;  ///< `@triton.jit(do_not_specialize_on_alignment=)`
};

/// Meta-parameters seen by a grid function: every constexpr value of the launch (given,
/// from the chosen autotune config, from heuristics), "num_warps", "num_stages", and the
/// integer and float runtime arguments by name (Triton's `META` / bound arguments).
using Meta = std::map<std::string, ConstexprValue>;
/// Triton's `grid = lambda META: (triton.cdiv(n, META["BLOCK"]),)`.
using GridFn = std::function<Grid(const Meta&)>;

class Kernel;
class CompiledKernel;
namespace detail {
struct ModuleState;
struct CompiledState;
}  // namespace detail
namespace frontend {
struct KernelDecls;
}  // namespace frontend

/// A parsed source file. Cheap to copy (copies share the parse and the compile cache).
/// Only `@triton.jit` / `@jit` functions matter; other top-level code is skipped. Syntax
/// errors inside one function are reported only when that function is used.
class Module {
 public:
  /// Reads and parses `path`. Throws Error(NotFound) when the file cannot be read and
  /// CompileError for a tokenization error (unterminated string, bad indentation, ...).
  static Module from_file(const std::string& path);
  /// Parses `text`; `name` is the file name diagnostics print. Throws CompileError like from_file.
  static Module from_string(const std::string& text, const std::string& name = "<string>");

  /// Name of the source (path or the given name).
  std::string name() const;
  /// Names of the jit functions in source order (helpers included: any of them can be a kernel).
  std::vector<std::string> kernel_names() const;
  /// The jit function `name`. Throws Error(NotFound) listing the kernels found, and
  /// CompileError when its definition does not parse or has `*args` / `**kwargs`.
  Kernel kernel(const std::string& name) const;
  /// Values of module-level names as the host language evaluated them (the Python package
  /// passes the `tl.constexpr(...)` globals of the kernel's module, whatever expression
  /// computed them). In kernels of this module they take the place of the source's own
  /// evaluation of those names; other modules' names are unaffected. Must be called before
  /// the first compile of any kernel of this module (copies share it): afterwards it throws
  /// Error(Usage), as compiled kernels may have used the old values.
  void set_host_globals(const std::map<std::string, ConstexprValue>& values);
  /// The value the frontend gives module-level name `path` ("BLOCK", or "cfg.BLOCK" through
  /// an imported Python file) as a comparison key — "None", "True", "int:8", "float:0.5",
  /// "str:gelu", "dtype:fp16", "(int:3,int:8)" — with this module's host globals applied;
  /// nullopt when it is unbound, not such a value, or not evaluable. Used by the Python
  /// package to refuse a kernel whose source-file value of a name differs from Python's.
  std::optional<std::string> global_value_key(const std::string& path) const;
  /// The frontend's value of the default of parameter `param` of the jit function bound to
  /// module-level name `path` (evaluated where its `def` stands), as a key in
  /// global_value_key's format; nullopt when there is no such function, parameter or
  /// default, or it is not such a value. Used by the Python package to refuse a helper whose
  /// source-file default differs from the one Python evaluated.
  std::optional<std::string> default_value_key(const std::string& path, const std::string& param) const;
  /// Where the jit function bound to module-level name `path` ("helper", "lib.helper") is
  /// defined as the frontend resolves it: (source name — a file path for files —, line of
  /// its first decorator, line of its `def`); nullopt when the name does not resolve to a
  /// jit function. Used by the Python package to refuse a helper that Python's name binds
  /// to another function than the one tritium would compile.
  std::optional<std::tuple<std::string, int64_t, int64_t>> function_location(const std::string& path) const;

 private:
  explicit Module(std::shared_ptr<detail::ModuleState> s) : state_(std::move(s)) {}
  std::shared_ptr<detail::ModuleState> state_;
};

/// One jit function of a Module, not yet specialized.
class Kernel {
 public:
  /// The function name.
  const std::string& name() const { return name_; }
  /// The declared parameters, in order.
  const std::vector<Parameter>& parameters() const { return params_; }
  /// Replaces the annotation types of the named non-constexpr parameters (Parameter::
  /// annotation_type; "" for none): the Python package passes the types upstream's JIT
  /// derives from the annotation objects Python holds (an alias `IDX = tl.int64`, a
  /// string under `from __future__ import annotations`), which the source text alone
  /// cannot give. Throws Error(Argument) for an unknown or constexpr parameter or a type
  /// tritium does not know.
  void set_annotation_types(const std::map<std::string, std::string>& types);

  /// Specializes and compiles for `device`. `signature` is an AOT signature (see the top of
  /// this file); `constexprs` gives constexpr parameters by name (instead of a positional
  /// entry, or overriding a default). Cached in memory per (kernel, specialization, options,
  /// device). Throws Error(Signature) when entries and parameters do not fit (naming the
  /// parameter), CompileError for errors in the kernel, Error(Usage) for bad options,
  /// Error(Device) when the backend fails to build it.
  CompiledKernel compile(const Device& device, const std::string& signature, const CompileOptions& options = {},
                         const std::map<std::string, ConstexprValue>& constexprs = {}) const;

  /// The IR of the specialization after the pass pipeline, as text (no device involved;
  /// `tritium compile --emit ir`). Throws like compile().
  std::string ir(const std::string& signature, const CompileOptions& options = {},
                 const std::map<std::string, ConstexprValue>& constexprs = {}) const;

  /// The decorators above the function, evaluated. Throws CompileError (file:line:col) for a
  /// decorator or decorator argument tritium cannot evaluate or does not support (an unknown
  /// decorator, prune_configs_by, pre_hook, a config naming no parameter, ...).
  KernelDecorators decorators() const;

  /// Triton's `kernel[grid](*args, **meta)`, honouring the decorators: the outermost
  /// decorator acts first; `@triton.autotune` times every config (each compiled; a config
  /// that fails to compile counts as infinitely slow) the first time a value of its key
  /// (plus the dtypes of the pointer arguments) is seen, keeps the fastest per key for the
  /// life of the module, zeroes `reset_to_zero` buffers before each timed launch and after
  /// tuning, and restores `restore_value` buffers after each; `@triton.heuristics` sets each
  /// meta-parameter from a function of `args` (the arguments by name and the meta-parameters
  /// so far, as upstream's dict); then the kernel is specialized on the arguments as
  /// Triton's JIT does (a pointer's dtype from Arg::tensor and ":16" when its address is a
  /// multiple of 16; an int as i32 when it fits, else i64, ":1" when 1 and ":16" when a
  /// multiple of 16, neither for `do_not_specialize` parameters and no ":16" for
  /// `do_not_specialize_on_alignment` ones; a float as fp32), compiled (cached) and launched.
  /// `args` has one entry per non-constexpr parameter, in order; `meta` gives constexpr
  /// parameters by name. A config's num_warps / num_stages replace `options`'.
  /// Throws Error(Argument) for an argument that does not fit (e.g. an untyped pointer),
  /// Error(Usage) when a meta-parameter is given that an autotune config also sets (as
  /// upstream: "Conflicting meta-parameters"), CompileError for the decorators and the kernel.
  struct RunResult;
  RunResult run(const Device& device, const GridFn& grid, const std::vector<Arg>& args, const Meta& meta = {},
                const CompileOptions& options = {}) const;
  /// run() with a fixed grid.
  RunResult run(const Device& device, const Grid& grid, const std::vector<Arg>& args, const Meta& meta = {},
                const CompileOptions& options = {}) const;

  /// `args` (one per runtime parameter, in order) with the pointers of parameters whose
  /// annotation names a pointer type (Parameter::annotation_type "*fp32") viewed as that
  /// type (Arg::retyped), as upstream reinterprets them; other arguments unchanged. run()
  /// and run_jit() apply it; a launcher reusing a compiled specialization applies it too.
  std::vector<Arg> typed_arguments(const std::vector<Arg>& args) const;
  /// True when some runtime parameter's annotation names a pointer type (typed_arguments
  /// then changes something).
  bool has_pointer_annotations() const;

  /// run() for a front that applies its own decorators (the Python package's tritium.jit,
  /// autotune and heuristics objects): the decorators written above the function in the
  /// source are ignored (not even evaluated); the arguments are specialized as run() does,
  /// with `do_not_specialize` / `do_not_specialize_on_alignment` naming parameters as
  /// triton.jit's arguments of those names do; the specialization is compiled (cached)
  /// and, when `launch` is true, launched without waiting where the backend allows it
  /// (CompiledKernel::launch_async); `launch` false is Triton's `kernel.warmup(...)`: the
  /// grid function is still called (its result is in RunResult::grid). Throws as run().
  RunResult run_jit(const Device& device, const GridFn& grid, const std::vector<Arg>& args, const Meta& meta,
                    const CompileOptions& options, const std::vector<std::string>& do_not_specialize = {},
                    const std::vector<std::string>& do_not_specialize_on_alignment = {}, bool launch = true) const;

  /// The AOT counterpart of run()'s meta-parameter resolution (`tritium compile --config`):
  /// for a compile with `signature` and named `constexprs`, applies autotune config `config`
  /// (an index into decorators().configs, or -1: allowed when the kernel has one config or
  /// every meta-parameter the configs set is given) and then the heuristics, evaluated over
  /// `known` (values of runtime arguments a heuristic reads), the signature's constexpr
  /// entries, its ":1" integers (as 1) and the constexprs; a value given explicitly is taken
  /// as its heuristic's result. Returns the constexprs to pass to compile() by name (those
  /// of the signature excluded) and sets the config's num_warps / num_stages in `options`.
  /// Throws Error(Usage) for a config index out of range, a missing choice, or a value given
  /// that the chosen config also sets; CompileError for a heuristic that reads a value not
  /// known, naming it.
  Meta resolve_meta(const std::string& signature, int config, const Meta& constexprs, const Meta& known,
                    CompileOptions* options) const;

 private:
  friend class Module;
  // run() and run_jit(): `decls` are the decorators applied (none for run_jit).
  RunResult run_with(const frontend::KernelDecls& decls, const Device& device, const GridFn& grid,
                     const std::vector<Arg>& args, const Meta& meta, const CompileOptions& options, bool launch) const;
  Kernel(std::shared_ptr<detail::ModuleState> m, std::string name, std::vector<Parameter> params)
      : module_(std::move(m)), name_(std::move(name)), params_(std::move(params)) {}
  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
  std::vector<Parameter> params_;
};

/// A kernel compiled for one specialization on one device. Cheap to copy (shared); keeps
/// its module source and device alive.
/// What one program of a CompiledKernel uses of the hardware (upstream's CompiledKernel
/// n_regs, n_spills, n_max_threads and metadata.shared). All zero on interp; on cpu the
/// model figures described at Device::properties().
struct KernelResources {
  int registers = 0;     ///< 32-bit registers per thread (cuda: CU_FUNC_ATTRIBUTE_NUM_REGS)
  int local_bytes = 0;   ///< local memory per thread in bytes: spills and local arrays (LOCAL_SIZE_BYTES)
  int shared_bytes = 0;  ///< shared memory per program in bytes, static + dynamic
  int max_threads = 0;   ///< the most threads per program it can launch with (MAX_THREADS_PER_BLOCK)
  int threads = 0;       ///< threads per program as tritium launches it (num_warps * warp size)
  /// cuda: bytes of registers spilled to local memory per thread (ptxas' "spill stores",
  /// part of local_bytes); 0 elsewhere. Spilling kernels run correctly, only slower.
  int spill_bytes = 0;
};

class CompiledKernel {
 public:
  /// Kernel name.
  const std::string& name() const;
  /// Canonical signature text of the specialization.
  const std::string& signature() const;
  /// The backend it was compiled for.
  std::string backend() const;
  /// The runtime parameters, in launch order.
  const std::vector<ArgInfo>& arguments() const;
  /// The IR after the pass pipeline, as text. A kernel the cpu backend loaded from its disk
  /// cache without lowering (a new process compiling a kernel compiled before) lowers it
  /// here on the first call, from the module text it was compiled from (milliseconds; the
  /// same errors as Kernel::ir, though the compile that recorded the entry succeeded).
  const std::string& ir() const;
  /// The backend's generated source (C++ for cpu; the IR text for interp).
  const std::string& source() const;
  /// The kernel's assembly of kind `kind`, as text: "ptx" on cuda (the PTX of the CUDA C++
  /// that source() returns, for the GPU's compute capability, compiled on demand with the
  /// options of the loaded cubin; NVRTC output is cached on disk). Throws Error(Usage)
  /// naming the kinds this backend has when it has no `kind`.
  std::string assembly(const std::string& kind) const;
  /// The kinds assembly() accepts on this kernel's backend (empty for cpu and interp).
  std::vector<std::string> assembly_kinds() const;
  /// What one program uses of the hardware (see KernelResources).
  KernelResources resources() const;

  /// Launches over `grid` with one argument per runtime parameter (arguments(), in order)
  /// and waits for completion. Throws Error(Argument) naming the parameter when the count,
  /// a kind, a range, a specialization (:1, :16) or a buffer's device does not fit;
  /// Error(Usage) for a negative grid; Error(Device) when the launch fails on the device
  /// (e.g. a failed tl.device_assert in debug mode).
  void launch(const Grid& grid, const std::vector<Arg>& args) const;
  /// launch() without waiting for completion where the backend allows it (cuda: the
  /// launch is enqueued on `stream` — a CUstream of the device's primary context, e.g.
  /// torch's `torch.cuda.current_stream().cuda_stream` — or, for null, the default stream,
  /// in order with other work there; a kernel that reports failures through a device word
  /// — a tl.device_assert in debug mode, a for loop whose step is not provably positive —
  /// is enqueued there too, then waits for that stream alone to read the word and throws
  /// Error(Device) for a failure). Checks arguments as
  /// launch(); a fault inside the kernel surfaces as Error(Device) at the next
  /// Device::synchronize() or copy. Same as launch() on the cpu backends (`stream` ignored).
  void launch_async(const Grid& grid, const std::vector<Arg>& args, void* stream = nullptr) const;

 private:
  friend class Kernel;
  void launch_impl(const Grid& grid, const std::vector<Arg>& args, bool wait, void* stream = nullptr) const;
  explicit CompiledKernel(std::shared_ptr<detail::CompiledState> s) : state_(std::move(s)) {}
  std::shared_ptr<detail::CompiledState> state_;
};

/// What Kernel::run launched.
struct Kernel::RunResult {
  CompiledKernel kernel;  ///< the specialization launched (its signature shows the constexprs)
  Meta meta;              ///< the meta-parameters it was launched with (see Meta)
  int config = -1;        ///< index into decorators().configs of the config used; -1 if not autotuned
  bool tuned = false;     ///< true when this call ran the autotuning (a new key)
  /// Median seconds per config measured by that tuning (infinity: failed to compile), when tuned.
  std::vector<double> timings;
  /// The grid the kernel was (or, for run_jit without launch, would be) launched on.
  Grid grid{1, 1, 1};
};

}  // namespace tritium
