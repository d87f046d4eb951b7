// launch_cache.cpp - see launch_cache.h.
#include "launch_cache.h"

#include "api/api_internal.h"  // sanitize_enabled

#include <cstring>
#include <limits>
#include <variant>

namespace tritium::python {
namespace {

void put_u64(std::string& k, uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  k.append(b, 8);
}

void put_str(std::string& k, const std::string& s) {
  put_u64(k, s.size());
  k += s;
}

}  // namespace

std::string launch_key(const std::string& backend, const std::vector<Arg>& args, const Meta& meta,
                       const CompileOptions& o) {
  std::string k;
  k.reserve(64 + 16 * args.size());
  put_str(k, backend);
  for (const Arg& a : args) {
    switch (a.kind()) {
      case Arg::Kind::None: k += 'n'; break;
      case Arg::Kind::Pointer:
        k += 'p';
        put_str(k, a.dtype());
        k += reinterpret_cast<uintptr_t>(a.pointer()) % 16 == 0 ? 'a' : '-';
        break;
      case Arg::Kind::Float: k += 'f'; break;
      case Arg::Kind::TensorDescriptor: {  // the dtype, block shape and padding are the specialization
        const TensorDescriptorArg* d = a.descriptor();
        k += d->padding_nan ? 'D' : 'd';
        put_str(k, a.dtype());
        k += static_cast<char>(d->block_shape.size());
        for (int64_t b : d->block_shape) k.append(reinterpret_cast<const char*>(&b), sizeof b);
        break;
      }
      case Arg::Kind::Int:
        if (a.is_bool()) {
          k += 'b';
        } else if (a.is_big_unsigned()) {
          k += 'U';
          k += a.uint_value() % 16 == 0 ? 'a' : '-';
        } else {
          const int64_t v = a.int_value();
          k += v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max() ? 'i' : 'l';
          k += v == 1 ? '1' : v % 16 == 0 ? 'a' : '-';
        }
        break;
    }
  }
  k += '|';
  for (const auto& [name, v] : meta) {
    put_str(k, name);
    k += static_cast<char>('0' + v.index());
    if (auto* i = std::get_if<int64_t>(&v)) put_u64(k, static_cast<uint64_t>(*i));
    else if (auto* d = std::get_if<double>(&v)) {
      uint64_t bits = 0;
      std::memcpy(&bits, d, 8);
      put_u64(k, bits);
    } else if (auto* b = std::get_if<bool>(&v)) k += *b ? '1' : '0';
    else if (auto* s = std::get_if<std::string>(&v)) put_str(k, *s);
    else put_str(k, std::get<DType>(v).name);
  }
  k += '|';
  put_u64(k, static_cast<uint64_t>(o.num_warps));
  put_u64(k, static_cast<uint64_t>(o.num_stages));
  k += o.debug ? 'd' : '-';
  k += o.portable_numerics ? 'p' : '-';
  // Sanitize mode (o.sanitize or TRITIUM_SANITIZE=1, read now): turning it on or off
  // mid-process must not reuse the kernel compiled the other way.
  k += tritium::detail::sanitize_enabled(o) ? 's' : '-';
  return k;
}

Meta launch_meta(const LaunchResult& r) {
  Meta m = *r.base;
  if (!r.names) return m;
  for (size_t i = 0; i < r.args.size() && i < r.names->size(); ++i) {
    const Arg& a = r.args[i];
    if (a.is_bool()) m[(*r.names)[i]] = a.int_value() != 0;  // as Kernel::run_jit's grid meta
    else if (a.kind() == Arg::Kind::Int && !a.is_big_unsigned()) m[(*r.names)[i]] = a.int_value();
    else if (a.kind() == Arg::Kind::Float) m[(*r.names)[i]] = a.float_value();
  }
  return m;
}

}  // namespace tritium::python
