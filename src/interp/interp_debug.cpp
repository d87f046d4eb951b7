// device_print formatting and device_assert messages (formats: interpreter.h).
#include <fmt/format.h>

#include <cmath>

#include "interp/interp_ops.h"

namespace tritium::interp {
namespace {

std::string format_elem(const Val& v, int64_t i, bool hex) {
  if (v.is_ptr) return fmt::format("0x{:x}", load_bits(v, i));
  const int bits = ir::bitwidth(v.scalar);
  if (hex) return fmt::format("0x{:0{}x}", load_bits(v, i), bits <= 1 ? 1 : (bits + 3) / 4);
  if (ir::is_float(v.scalar)) return fmt::format("{:f}", load_double(v, i));  // printf "%f"
  if (is_signed(v.scalar)) return fmt::format("{}", load_int(v, i));
  return fmt::format("{}", load_bits(v, i));
}

// printf-style "%<w>i" of an index component: at least `width` characters, right-aligned.
std::string pad(int64_t x, int width) { return fmt::format("{:>{}}", x, width); }

}  // namespace

std::vector<std::string> format_print(const ir::Op& op, const std::vector<const Val*>& operands,
                                      const std::array<int32_t, 3>& pid) {
  const std::string prefix = op.attr_str("prefix");
  const bool hex = op.attr_int("hex", 0) != 0;
  const std::string head = fmt::format("pid ({}, {}, {})", pid[0], pid[1], pid[2]);
  std::vector<std::string> lines;
  if (operands.empty()) {
    lines.push_back(head + prefix);
    return lines;
  }
  for (size_t k = 0; k < operands.size(); ++k) {
    const Val& v = *operands[k];
    std::vector<int> widths;
    for (int64_t d : v.shape) widths.push_back(d > 1 ? static_cast<int>(std::ceil(std::log10(static_cast<double>(d)))) : 0);
    const std::string opnd = operands.size() > 1 ? fmt::format("(operand {}) ", k) : std::string();
    std::vector<int64_t> idx(v.shape.size(), 0);
    for (int64_t i = 0; i < v.numel; ++i) {
      std::string line = head + " idx (";
      for (size_t d = 0; d < idx.size(); ++d) line += (d ? ", " : "") + pad(idx[d], widths[d]);
      line += ")" + prefix + opnd + format_elem(v, i, hex);
      lines.push_back(std::move(line));
      for (int d = static_cast<int>(idx.size()) - 1; d >= 0; --d) {  // next row-major index
        if (++idx[d] < v.shape[d]) break;
        idx[d] = 0;
      }
    }
  }
  return lines;
}

std::string format_assert_failure(const ir::Op& op, const std::string& kernel, const std::array<int32_t, 3>& pid) {
  std::string file = op.attr_str("file");
  if (file.empty()) file = std::string(op.loc.filename());
  const int64_t line = op.has_attr("line") ? op.attr_int("line") : static_cast<int64_t>(op.loc.line);
  return fmt::format("device_assert failed: {} at {}:{} in {}, program ({}, {}, {})", op.attr_str("msg"), file, line,
                     kernel, pid[0], pid[1], pid[2]);
}

}  // namespace tritium::interp
