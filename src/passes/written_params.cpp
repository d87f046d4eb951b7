// Which pointer parameters a kernel may write through (see written_params.h).
#include "passes/written_params.h"

#include <functional>
#include <unordered_set>

namespace tritium::passes {
namespace {

struct Trace {
  const ir::Function& fn;
  std::vector<bool> out;
  bool all = false;
  std::unordered_set<const ir::Value*> seen;

  void origin(const ir::Value* v) {
    if (all || !seen.insert(v).second) return;
    if (!v->def) {  // a block argument: a kernel parameter, or a loop-carried value (unknown)
      if (v->block == &fn.body) out[static_cast<size_t>(v->index)] = fn.body.args[static_cast<size_t>(v->index)]->type.is_ptr;
      else all = true;
      return;
    }
    const ir::Op& op = *v->def;
    switch (op.kind) {
      case ir::OpKind::Load: case ir::OpKind::IntToPtr: case ir::OpKind::Call: case ir::OpKind::For:
      case ir::OpKind::If: case ir::OpKind::While: case ir::OpKind::Reduce: case ir::OpKind::Scan:
      case ir::OpKind::MapElementwise: case ir::OpKind::AtomicRMW: case ir::OpKind::AtomicCAS:
        all = true;  // the pointer comes from memory, an integer or a region: not traced
        return;
      default:
        for (const ir::Value* o : op.operands)
          if (o->type.is_ptr) origin(o);
    }
  }

  void walk(const ir::Block& b) {
    for (const auto& op : b.ops) {
      if (op->kind == ir::OpKind::Store || op->kind == ir::OpKind::AtomicRMW || op->kind == ir::OpKind::AtomicCAS)
        origin(op->operand(0));
      for (const auto& r : op->regions) walk(r->block);
    }
  }
};

}  // namespace

std::vector<bool> written_params(const ir::Function& kernel) {
  Trace t{kernel, std::vector<bool>(kernel.body.args.size(), false)};
  t.walk(kernel.body);
  if (t.all)
    for (size_t i = 0; i < t.out.size(); ++i) t.out[i] = kernel.body.args[i]->type.is_ptr;
  return t.out;
}

}  // namespace tritium::passes
