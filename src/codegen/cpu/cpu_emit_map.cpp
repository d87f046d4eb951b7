// CPU renderer: tl.map_elementwise — one loop over the elements of the (common) shape; the
// op's region, the scalar function, is emitted inside it with its arguments bound to the
// elements at that position, so branches on the values run one side per element.
#include <fmt/format.h>

#include "codegen/cpu/cpu_emitter.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::Value;

void Emitter::emit_map(const Op& op) {
  const ir::Block& body = op.body();
  if (body.args.size() != op.operands.size()) refuse(op, "one region argument per operand expected");
  const auto& shape = op.operands[0]->type.shape;
  std::vector<std::string> outs;
  for (const Value* r : op.results) outs.push_back(declare_array(r->type, "v"));
  loop_nest(shape, [&](const Idx& i) {
    for (size_t k = 0; k < op.operands.size(); ++k) {
      const Value* arg = body.args[k];
      if (arg->type.is_tensor()) refuse(op, "map_elementwise region arguments must be scalars");
      const std::string a = fresh("a");
      line(fmt::format("{} const {} = {};", ctype(arg->type), a, elem(op.operands[k], i)));
      bind(arg, a, Storage::Scalar);
    }
    bool yielded = false;
    terminator_handlers.push_back([&](const Op& y) {
      if (y.kind != ir::OpKind::Yield || y.operands.size() != outs.size())
        refuse(op, "map_elementwise region must yield one value per result");
      for (size_t k = 0; k < outs.size(); ++k) line(fmt::format("{}[{}] = {};", outs[k], i.lin, elem(y.operands[k], {})));
      yielded = true;
    });
    emit_block(body);
    terminator_handlers.pop_back();
    if (!yielded) refuse(op, "map_elementwise region without a yield");
  });
  for (size_t k = 0; k < op.results.size(); ++k) bind(op.results[k], outs[k], Storage::Array);
}

}  // namespace tritium::codegen::cpu
