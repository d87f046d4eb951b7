// tritium::Device, Buffer and Arg: handles over runtime::Device (registry.h).
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "api/api_internal.h"
#include "runtime/registry.h"

namespace tritium {

// ---------------------------------------------------------------------------------- Device

Device::Device(std::shared_ptr<runtime::Device> impl) : impl_(std::move(impl)) {
  if (!impl_) throw Error(ErrorKind::Usage, "tritium::Device needs a runtime device (got null)");
}

Device Device::get(const std::string& backend) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<runtime::Device>> devices;
  std::string name = backend.empty() ? best_backend() : backend;
  std::lock_guard<std::mutex> lock(mu);
  auto it = devices.find(name);
  if (it != devices.end()) return Device(it->second);
  std::shared_ptr<runtime::Device> dev;
  try {
    dev = runtime::create_device(name);
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorKind::NotFound, e.what());
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, "");
  }
  devices.emplace(name, dev);
  return Device(std::move(dev));
}

std::vector<BackendInfo> Device::list() {
  std::vector<BackendInfo> out;
  for (const runtime::BackendStatus& s : runtime::list_backends())
    out.push_back(BackendInfo{s.name, s.available, s.reason, s.summary});
  return out;
}

std::string Device::best_backend() { return runtime::best_backend(); }

std::string Device::name() const { return impl_->name(); }

std::string Device::description() const { return impl_->description(); }

std::map<std::string, int64_t> Device::properties() const { return impl_->property_map(); }

Buffer Device::alloc(size_t bytes) const {
  Buffer b;
  runtime::DeviceBuffer db;
  try {
    db = impl_->alloc(bytes);
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, fmt::format("allocating {} bytes on {}", bytes, impl_->name()));
  }
  if (db.ptr == nullptr && bytes != 0)
    throw Error(ErrorKind::Device, fmt::format("allocating {} bytes on {} failed", bytes, impl_->name()));
  b.impl_ = impl_;
  b.ptr_ = db.ptr;
  b.bytes_ = bytes;
  return b;
}

Buffer Device::upload(const void* data, size_t bytes) const {
  Buffer b = alloc(bytes);
  if (bytes) b.copy_from_host(data, bytes);
  return b;
}

Buffer Device::borrow(void* ptr, size_t bytes) const {
  if (ptr == nullptr && bytes != 0)
    throw Error(ErrorKind::Usage, fmt::format("Device::borrow: a null pointer for {} bytes", bytes));
  Buffer b;
  b.impl_ = impl_;
  b.ptr_ = ptr;
  b.bytes_ = bytes;
  b.borrowed_ = true;
  return b;
}

void Device::synchronize() const {
  try {
    impl_->synchronize();
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, "synchronize on " + impl_->name());
  }
}

// ---------------------------------------------------------------------------------- Buffer

Buffer::~Buffer() {
  if (!impl_ || borrowed_) return;
  runtime::DeviceBuffer db{ptr_, bytes_};
  try {
    impl_->free(db);
  } catch (...) {
    // A destructor must not throw; a failed free only leaks.
  }
}

Buffer::Buffer(Buffer&& o) noexcept : impl_(std::move(o.impl_)), ptr_(o.ptr_), bytes_(o.bytes_), borrowed_(o.borrowed_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
  o.borrowed_ = false;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    Buffer old(std::move(*this));  // frees the current allocation on scope exit
    impl_ = std::move(o.impl_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    borrowed_ = o.borrowed_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
    o.borrowed_ = false;
  }
  return *this;
}

namespace {
void check_range(const char* what, size_t bytes, size_t offset, size_t size) {
  if (offset > size || bytes > size - offset)
    throw Error(ErrorKind::Usage, fmt::format("{}: bytes [{}, {}) are outside the buffer of {} bytes", what, offset,
                                              static_cast<unsigned long long>(offset) + bytes, size));
}
}  // namespace

void Buffer::copy_from_host(const void* src, size_t bytes, size_t offset) {
  if (!impl_) throw Error(ErrorKind::Usage, "copy_from_host on an empty buffer");
  check_range("copy_from_host", bytes, offset, bytes_);
  if (bytes == 0) return;
  runtime::DeviceBuffer db{ptr_, bytes_};
  try {
    impl_->copy_in(db, src, bytes, offset);
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, "copy_from_host");
  }
}

void Buffer::copy_to_host(void* dst, size_t bytes, size_t offset) const {
  if (!impl_) throw Error(ErrorKind::Usage, "copy_to_host on an empty buffer");
  check_range("copy_to_host", bytes, offset, bytes_);
  if (bytes == 0) return;
  runtime::DeviceBuffer db{ptr_, bytes_};
  try {
    impl_->copy_out(dst, db, bytes, offset);
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, "copy_to_host");
  }
}

void Buffer::check_multiple(size_t elem) const {
  if (elem == 0 || bytes_ % elem != 0)
    throw Error(ErrorKind::Usage,
                fmt::format("buffer of {} bytes is not a whole number of {}-byte elements", bytes_, elem));
}

// ------------------------------------------------------------------------------------- Arg

Arg::Arg(const Buffer& b) : kind_(Kind::Pointer), ptr_(b.ptr_), device_(b.impl_.get()), extent_(b.bytes_) {}

Arg Arg::ptr(const Buffer& b, size_t byte_offset) {
  if (byte_offset > b.size())
    throw Error(ErrorKind::Usage,
                fmt::format("Arg::ptr: offset {} is past the end of a buffer of {} bytes", byte_offset, b.size()));
  Arg a(b);
  a.ptr_ = static_cast<char*>(b.ptr_) + byte_offset;
  a.extent_ = b.size() - byte_offset;
  a.lead_ = byte_offset;
  return a;
}

Arg Arg::tensor(const Buffer& b, const std::string& dtype, size_t byte_offset) {
  auto t = ir::parse_scalar_type(dtype);
  if (!t) throw Error(ErrorKind::Usage, fmt::format("Arg::tensor: unknown dtype '{}'", dtype));
  Arg a = ptr(b, byte_offset);
  a.dtype_ = std::string(ir::short_name(*t));
  return a;
}

Arg Arg::retyped(const std::string& dtype) const {
  if (kind_ != Kind::Pointer) throw Error(ErrorKind::Usage, "Arg::retyped: not a pointer: " + describe());
  auto t = ir::parse_scalar_type(dtype);
  if (!t) throw Error(ErrorKind::Usage, fmt::format("Arg::retyped: unknown dtype '{}'", dtype));
  Arg a = *this;
  a.dtype_ = std::string(ir::short_name(*t));
  return a;
}

Arg Arg::tensor_descriptor(const Arg& base, std::vector<int64_t> shape, std::vector<int64_t> strides,
                           std::vector<int64_t> block_shape, const std::string& padding) {
  auto bad = [](const std::string& why) {
    throw Error(ErrorKind::Usage, "Arg::tensor_descriptor: " + why);
  };
  if (base.kind() != Kind::Pointer || base.dtype().empty()) bad("the base must be an Arg::tensor, got " + base.describe());
  const size_t n = shape.size();
  if (n < 1 || n > 5) bad(fmt::format("a descriptor has 1 to 5 dimensions, got {}", n));
  if (strides.size() != n || block_shape.size() != n)
    bad(fmt::format("shape, strides and block_shape must have the same length, got {}, {} and {}", n, strides.size(),
                    block_shape.size()));
  if (strides.back() != 1) bad(fmt::format("the last stride must be 1, got {}", strides.back()));
  for (size_t d = 0; d < n; ++d) {
    if (shape[d] < 0 || shape[d] > INT32_MAX) bad(fmt::format("shape[{}] = {} is outside [0, 2^31)", d, shape[d]));
    if (block_shape[d] < 1) bad(fmt::format("block_shape[{}] = {} is not positive", d, block_shape[d]));
  }
  if (padding != "zero" && padding != "nan") bad("padding must be \"zero\" or \"nan\", got \"" + padding + "\"");
  // Every element the descriptor names must lie in the base's memory (the kernel trusts it).
  bool empty = false;
  uint64_t last = 0;  // the largest element offset
  for (size_t d = 0; d < n; ++d) {
    if (strides[d] < 0) bad(fmt::format("strides[{}] = {} is negative", d, strides[d]));
    empty |= shape[d] == 0;
    last += static_cast<uint64_t>(shape[d] > 0 ? shape[d] - 1 : 0) * static_cast<uint64_t>(strides[d]);
  }
  const uint64_t esize = ir::byte_size(*ir::parse_scalar_type(base.dtype()));
  if (!empty && (last + 1) * esize > base.pointer_extent())
    bad(fmt::format("shape and strides reach element {} ({} bytes) but the base holds {} bytes", last,
                    (last + 1) * esize, base.pointer_extent()));
  Arg a;
  a.kind_ = Kind::TensorDescriptor;
  a.dtype_ = base.dtype();
  auto d = std::make_shared<TensorDescriptorArg>();
  d->base = base;
  d->shape = std::move(shape);
  d->strides = std::move(strides);
  d->block_shape = std::move(block_shape);
  d->padding_nan = padding == "nan";
  a.desc_ = std::move(d);
  return a;
}

std::vector<Arg> launch_arguments(const std::vector<Arg>& args) {
  std::vector<Arg> out;
  out.reserve(args.size());
  for (const Arg& a : args) {
    if (a.kind() == Arg::Kind::None) continue;
    if (const TensorDescriptorArg* d = a.descriptor()) {
      out.push_back(a.is_read_only() ? d->base.read_only() : d->base);
      for (int64_t s : d->shape) out.emplace_back(s);
      for (size_t i = 0; i + 1 < d->strides.size(); ++i) out.emplace_back(d->strides[i]);
      continue;
    }
    out.push_back(a);
  }
  return out;
}

std::string Arg::describe() const {
  switch (kind_) {
    case Kind::Pointer:
      if (!device_) return "an empty buffer";
      return fmt::format("a buffer of {} bytes", extent_);
    case Kind::Int:
      if (bool_) return i_ ? "bool True" : "bool False";
      return big_unsigned_ ? fmt::format("int {}", u_) : fmt::format("int {}", i_);
    case Kind::Float:
      return fmt::format("float {}", f_);
    case Kind::None:
      return "None";
    case Kind::TensorDescriptor: {
      std::string s = fmt::format("a tensor descriptor of {} [", dtype_);
      for (size_t i = 0; i < desc_->shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", desc_->shape[i]);
      s += "] blocks [";
      for (size_t i = 0; i < desc_->block_shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", desc_->block_shape[i]);
      return s + "]";
    }
  }
  return "?";
}

}  // namespace tritium
