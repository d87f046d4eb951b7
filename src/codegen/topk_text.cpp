// See topk_text.h.
#include "codegen/topk_text.h"

#include <fmt/format.h>

#include "codegen/c_expr.h"

namespace tritium::codegen {

std::vector<std::string> topk_pair_select(ir::ScalarType s, int lk, bool desc, bool opencl) {
  std::vector<std::string> l;
  l.push_back(fmt::format("const int64_t low_ = np_ & (((int64_t)1 << {0}) - 1), high_ = np_ >> {0};", lk));
  l.push_back(fmt::format("const int64_t ia_ = r_ * m_ + ((high_ << ({0} + 1)) | low_), ib_ = ia_ + ((int64_t)1 << {0});", lk));
  const std::string ct = CExpr::compute_type(s);
  l.push_back(fmt::format("const {0} xa_ = {1}; const {0} xb_ = {2};", ct, CExpr::to_compute(s, "cur_[ia_]"),
                          CExpr::to_compute(s, "cur_[ib_]")));
  if (ir::is_float(s)) {
    l.push_back("bool take_b_;");
    l.push_back("if (xa_ != xa_) take_b_ = true; else if (xb_ != xb_) take_b_ = false;");
    l.push_back(fmt::format("else if (xa_ == xb_) take_b_ = {}{}(xa_);", desc ? "" : "!",
                            opencl ? "signbit" : "__builtin_signbit"));
    l.push_back(fmt::format("else take_b_ = {};", desc ? "xb_ > xa_" : "xb_ < xa_"));
  } else {
    l.push_back(fmt::format("const bool take_b_ = {};", desc ? "xb_ > xa_" : "xa_ > xb_"));
  }
  l.push_back("nxt_[r_ * half_ + np_] = take_b_ ? cur_[ib_] : cur_[ia_];");
  return l;
}

}  // namespace tritium::codegen
