#include "diff_run.h"

#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

#include "common/float_formats.h"
#include "gen_types.h"
#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace fuzz {
namespace {

int dtype_of(const std::string& sig) {
  for (int t = 0; t < kNumDT; ++t)
    if (sig == dtypes()[t].sig) return t;
  throw std::runtime_error("fuzz: unknown dtype " + sig);
}

int byte_size(int dt) { return dt == I1 ? 1 : dtypes()[dt].bits / 8; }

// A float value of the input recipe (see diff_run.h), as a double.
double float_value(Rng& r) {
  if (r.chance(1, 8)) {
    const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-40, -3e-42, 6e-8, 65504.0, -65504.0,
                               3.3e38, 1e30, -1e30, 1e-300};
    return specials[r.below(sizeof specials / sizeof specials[0])];
  }
  double x;
  do x = (static_cast<double>(r.next() >> 11) * 0x1p-53) * 8.0 - 4.0; while (x == 0.0);
  return x;
}

void put_element(std::vector<uint8_t>& out, size_t i, int dt, Rng& r) {
  uint8_t* p = out.data() + i * byte_size(dt);
  if (is_float(dt)) {
    const double x = float_value(r);
    using tritium::FloatFormat;
    if (dt == F64) {
      std::memcpy(p, &x, 8);
    } else if (dt == F32) {
      const float f = static_cast<float>(x);
      std::memcpy(p, &f, 4);
    } else {
      const uint16_t h = static_cast<uint16_t>(tritium::fp_encode(dt == F16 ? FloatFormat::F16 : FloatFormat::BF16, x));
      std::memcpy(p, &h, 2);
    }
    return;
  }
  uint64_t v;
  if (r.chance(3, 5)) {
    v = is_unsigned(dt) ? r.below(17) : static_cast<uint64_t>(static_cast<int64_t>(r.below(17)) - 8);
  } else {
    v = r.next();
  }
  if (dt == I1) v &= 1;
  std::memcpy(p, &v, byte_size(dt));  // little-endian: the low bytes
}

std::string hex_of(const uint8_t* p, int n) {
  uint64_t v = 0;
  std::memcpy(&v, p, n);
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

double value_of(const uint8_t* p, int dt) {
  uint64_t v = 0;
  std::memcpy(&v, p, byte_size(dt));
  switch (dt) {
    case F64: { double x; std::memcpy(&x, p, 8); return x; }
    case F32: { float x; std::memcpy(&x, p, 4); return x; }
    case F16: return tritium::fp_decode(tritium::FloatFormat::F16, static_cast<uint32_t>(v));
    case BF16: return tritium::fp_decode(tritium::FloatFormat::BF16, static_cast<uint32_t>(v));
    default:
      if (is_unsigned(dt)) return static_cast<double>(v);
      const int bits = dtypes()[dt].bits;
      const int64_t s = bits == 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
      return static_cast<double>(s);
  }
}

// Distance in ulps between two non-NaN floats of `bytes` width (order-preserving keys).
uint64_t ulps(uint64_t a, uint64_t b, int bytes) {
  const uint64_t sign = uint64_t{1} << (bytes * 8 - 1);
  const uint64_t mask = bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (bytes * 8)) - 1;
  auto key = [&](uint64_t u) { return ((u & sign) ? ~u : (u | sign)) & mask; };
  const uint64_t ka = key(a), kb = key(b);
  return ka > kb ? ka - kb : kb - ka;
}

const tritium::Device& device_for(const std::string& backend) {
  if (backend == "nvrtc") {
    static const tritium::Device dev(tritium::runtime::cuda::make_nvrtc_check_device());
    return dev;
  }
  static std::map<std::string, tritium::Device> devices;
  auto it = devices.find(backend);
  if (it == devices.end()) it = devices.emplace(backend, tritium::Device::get(backend)).first;
  return it->second;
}

}  // namespace

std::vector<uint8_t> input_bytes(const Case& c, size_t i) {
  const BufferSpec& b = c.buffers.at(i);
  const int dt = dtype_of(b.dtype);
  std::vector<uint8_t> out(static_cast<size_t>(b.elements) * byte_size(dt), 0x5A);
  if (b.output) return out;
  Rng r(c.input_seed ^ (0x100000001B3ull * (i + 1)));
  for (int64_t e = 0; e < b.elements; ++e) put_element(out, static_cast<size_t>(e), dt, r);
  return out;
}

RunResult run_case(const Case& c, const std::string& backend, bool portable) {
  RunResult res;
  const tritium::Device& dev = device_for(backend);
  tritium::CompileOptions opts;
  opts.portable_numerics = portable;
  std::optional<tritium::CompiledKernel> k;
  try {
    auto mod = tritium::Module::from_string(c.source, "fuzz_kernel.py");
    k.emplace(mod.kernel("fuzz_kernel").compile(dev, c.signature, opts));
  } catch (const tritium::CompileError& e) {
    const std::string what = e.what();
    const bool missing = what.find("not lowered by") != std::string::npos && what.find("yet") != std::string::npos;
    res.status = missing || what.find("Metal has no double") != std::string::npos ? Status::Unsupported
                                                                                   : Status::Refused;
    res.message = what;
    return res;
  }
  if (backend == "nvrtc") return res;  // compiled; nothing runs
  std::vector<tritium::Buffer> bufs;
  std::vector<tritium::Arg> args;
  bufs.reserve(c.buffers.size());
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    const auto bytes = input_bytes(c, i);
    bufs.push_back(dev.upload(bytes.data(), bytes.size()));
    args.emplace_back(bufs.back());
  }
  args.emplace_back(static_cast<int32_t>(c.n_rows));
  args.emplace_back(static_cast<int32_t>(c.n_cols));
  args.emplace_back(c.s0);
  args.emplace_back(c.k0);
  args.emplace_back(c.n_iter);
  k->launch(tritium::Grid(c.grid_x, c.grid_y), args);
  for (auto& b : bufs) {
    std::vector<uint8_t> out(b.size());
    if (!out.empty()) b.copy_to_host(out.data(), out.size());
    res.outputs.push_back(std::move(out));
  }
  return res;
}

std::string compare(const Case& c, const Outputs& ref, const Outputs& got, const std::string& backend) {
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    const BufferSpec& b = c.buffers[i];
    const int dt = dtype_of(b.dtype);
    const int n = byte_size(dt);
    const auto& x = ref.at(i);
    const auto& y = got.at(i);
    if (x.size() != y.size()) return b.name + ": buffer sizes differ";
    std::string first;
    size_t differing = 0;
    for (size_t e = 0; e * n < x.size(); ++e) {
      const uint8_t* px = x.data() + e * n;
      const uint8_t* py = y.data() + e * n;
      if (std::memcmp(px, py, n) == 0) continue;
      if (is_float(dt)) {
        const double vx = value_of(px, dt), vy = value_of(py, dt);
        if (std::isnan(vx) && std::isnan(vy)) continue;  // payloads are not part of the contract
        if (c.libm && !std::isnan(vx) && !std::isnan(vy)) {
          uint64_t ux = 0, uy = 0;
          std::memcpy(&ux, px, n);
          std::memcpy(&uy, py, n);
          if (ulps(ux, uy, n) <= (n >= 4 ? 4u : 1u)) continue;
        }
      }
      if (differing++) continue;
      std::ostringstream s;
      s << b.name << "[" << e << "] (" << b.dtype << (b.output ? ", output" : ", input") << "): interp "
        << hex_of(px, n) << " (" << value_of(px, dt) << "), " << backend << " " << hex_of(py, n) << " ("
        << value_of(py, dt) << ")";
      first = s.str();
    }
    if (differing)
      return first + "; " + std::to_string(differing) + " of " + std::to_string(x.size() / n) + " elements differ";
  }
  return "";
}

}  // namespace fuzz
