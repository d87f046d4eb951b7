// Helpers for the IR and pass unit tests: a module with one kernel and a builder at its end.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "ir/ir.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace tritium::testing {

/// A source location on line `line` (no file), for ops built by tests.
inline ir::Loc at(uint32_t line) {
  ir::Loc l;
  l.line = line;
  l.col = 1;
  return l;
}

/// A module holding one kernel `name` with parameters `params`, and a builder appending to
/// the kernel's body.
struct TestKernel {
  ir::Module module;
  ir::Function* fn;
  std::unique_ptr<ir::Builder> b;

  explicit TestKernel(const std::vector<ir::Type>& params, const std::string& name = "k") {
    fn = module.add(name);
    fn->is_kernel = true;
    b = std::make_unique<ir::Builder>(*fn);
    b->set_insertion_end(&fn->body);
    for (const auto& t : params) b->add_block_arg(fn->body, t);
  }
  ir::Value* arg(size_t i) const { return fn->body.args.at(i); }
  /// An integer constant of type `t` (scalar or splat tensor).
  ir::Value* ci(ir::Type t, int64_t v, uint32_t line = 1) { return b->const_int(std::move(t), v, at(line)); }
  ir::Value* ci(ir::ScalarType t, int64_t v, uint32_t line = 1) { return ci(ir::Type::of(t), v, line); }
  /// A float constant of type `t`.
  ir::Value* cf(ir::Type t, double v, uint32_t line = 1) { return b->const_float(std::move(t), v, at(line)); }
  ir::Value* cf(ir::ScalarType t, double v, uint32_t line = 1) { return cf(ir::Type::of(t), v, line); }
  /// store value `v` through pointer `p` (keeps `v` alive for dce).
  ir::Op* store(ir::Value* p, ir::Value* v, uint32_t line = 1) {
    return b->create(ir::OpKind::Store, {p, v}, {}, at(line));
  }
  ir::Op* ret(uint32_t line = 1) { return b->create(ir::OpKind::Return, {}, {}, at(line)); }
  std::string text() const { return ir::print(*fn); }
  /// The verifier's messages joined by newlines ("" when well formed).
  std::string errors() const {
    std::string s;
    for (const auto& e : ir::verify(*fn, &module)) s += e + "\n";
    return s;
  }
};

/// Number of ops of kind `k` anywhere in `fn`.
inline int count_ops(ir::Function& fn, ir::OpKind k) {
  int n = 0;
  ir::walk(fn.body, [&](ir::Op& op) { n += op.kind == k; });
  return n;
}

/// Total number of ops in `fn`.
inline int count_all_ops(ir::Function& fn) {
  int n = 0;
  ir::walk(fn.body, [&](ir::Op&) { ++n; });
  return n;
}

}  // namespace tritium::testing
