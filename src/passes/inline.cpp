#include "passes/inline.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "frontend/source.h"
#include "ir/builder.h"
#include "ir/clone.h"

namespace tritium::passes {
namespace {

using frontend::CompileError;
using ir::Block;
using ir::Function;
using ir::Op;
using ir::OpKind;

// The most ops a function may have once its calls are inlined. Each call copies its
// callee's body, so helpers calling helpers twice multiply the code (2^depth copies); past
// this the compile is refused at the call instead of exhausting time and memory.
constexpr size_t kMaxInlinedOps = size_t{1} << 16;

// Ops of `block`, those inside regions included.
size_t count_ops(const Block& block) {
  size_t n = 0;
  for (const auto& op : block.ops) {
    ++n;
    for (const auto& r : op->regions) n += count_ops(r->block);
  }
  return n;
}

class Inliner {
 public:
  explicit Inliner(ir::Module& m) : m_(m) {}

  /// Makes `fn` call-free, inlining its callees first (`active_` holds the functions being
  /// processed, to refuse recursion; `done_` those already call-free).
  void process(Function& fn) {
    if (done_.count(&fn)) return;
    active_.insert(&fn);
    size_[&fn] = count_ops(fn.body);
    ir::Builder b(fn);
    process_block(fn, b, fn.body);
    active_.erase(&fn);
    done_.insert(&fn);
  }

 private:
  ir::Module& m_;
  std::set<const Function*> done_;
  std::set<const Function*> active_;
  std::map<const Function*, size_t> size_;  // ops of each function processed (so far)

  void process_block(Function& fn, ir::Builder& b, Block& block) {
    for (size_t i = 0; i < block.ops.size();) {
      Op& op = *block.ops[i];
      if (op.kind != OpKind::Call) {
        for (auto& r : op.regions) process_block(fn, b, r->block);
        ++i;
        continue;
      }
      i = inline_call(fn, b, block, i);
    }
  }

  /// Replaces the call at `index` of `block`; returns the index just past the copied ops.
  size_t inline_call(Function& fn, ir::Builder& b, Block& block, size_t index) {
    Op& call = *block.ops[index];
    std::string callee_name = call.attr_str("callee");
    Function* callee = m_.find(callee_name);
    if (!callee) throw CompileError(call.loc, "call to unknown function '" + callee_name + "'");
    if (active_.count(callee))
      throw CompileError(call.loc, "recursive call of '" + callee_name + "' is not supported");
    process(*callee);
    size_t& size = size_[&fn];
    size += size_[callee];
    if (size > kMaxInlinedOps)
      throw CompileError(call.loc, "the kernel is too large to compile: inlining this call makes it larger than " +
                                       std::to_string(kMaxInlinedOps) +
                                       " IR ops (each call copies the called function's body: jit functions that "
                                       "call others several times multiply the code)");

    const Block& body = callee->body;
    if (body.args.size() != call.operands.size())
      throw std::logic_error("inline: call of '" + callee_name + "' passes " + std::to_string(call.operands.size()) +
                             " arguments, the function takes " + std::to_string(body.args.size()));
    check_returns(*callee);
    const Op* ret = (!body.ops.empty() && body.ops.back()->kind == OpKind::Return) ? body.ops.back().get() : nullptr;
    size_t nret = ret ? ret->operands.size() : 0;
    if (nret != call.results.size())
      throw std::logic_error("inline: call of '" + callee_name + "' expects " + std::to_string(call.results.size()) +
                             " results, the function returns " + std::to_string(nret));

    ir::ValueMap map;
    for (size_t a = 0; a < body.args.size(); ++a) {
      if (!(body.args[a]->type == call.operands[a]->type))
        throw std::logic_error("inline: argument " + std::to_string(a) + " of call to '" + callee_name + "' has type " +
                               call.operands[a]->type.str() + ", parameter is " + body.args[a]->type.str());
      map[body.args[a]] = call.operands[a];
    }
    size_t before = block.ops.size();
    {
      ir::InsertionGuard guard(b);
      b.set_insertion_before(&block, index);
      ir::clone_ops(b, body, map, /*skip_terminator=*/true);
    }
    size_t copied = block.ops.size() - before;
    size_t call_index = index + copied;
    Op& the_call = *block.ops[call_index];
    for (size_t r = 0; r < nret; ++r) {
      ir::Value* repl = ir::lookup(map, ret->operands[r]);
      if (!(repl->type == the_call.results[r]->type))
        throw std::logic_error("inline: result " + std::to_string(r) + " of '" + callee_name + "' has type " +
                               repl->type.str() + ", call expects " + the_call.results[r]->type.str());
      ir::replace_all_uses(fn.body, the_call.results[r], repl);
    }
    ir::take_op(block, call_index);
    return call_index;
  }

  /// Refuses a `return` anywhere but at the end of the function body.
  static void check_returns(Function& fn) {
    for (size_t i = 0; i < fn.body.ops.size(); ++i) {
      Op& op = *fn.body.ops[i];
      if (op.kind == OpKind::Return && i + 1 != fn.body.ops.size())
        throw CompileError(op.loc, "'return' before the end of function '" + fn.name + "' is not supported");
      for (auto& r : op.regions)
        ir::walk(r->block, [&](Op& inner) {
          if (inner.kind == OpKind::Return)
            throw CompileError(inner.loc, "'return' inside control flow of function '" + fn.name + "' is not supported");
        });
    }
  }
};

}  // namespace

void inline_calls(ir::Module& m) {
  bool any_kernel = std::any_of(m.functions.begin(), m.functions.end(), [](auto& f) { return f->is_kernel; });
  if (!any_kernel) throw std::logic_error("inline: the module has no kernel function");
  Inliner inliner(m);
  for (auto& f : m.functions)
    if (f->is_kernel) inliner.process(*f);
  std::erase_if(m.functions, [](const std::unique_ptr<Function>& f) { return !f->is_kernel; });
}

}  // namespace tritium::passes
