#include "passes/uses.h"

namespace tritium::passes {

UseMap collect_uses(ir::Block& b) {
  UseMap uses;
  ir::walk(b, [&](ir::Op& op) {
    for (size_t i = 0; i < op.operands.size(); ++i) uses[op.operands[i]].push_back(Use{&op, i});
  });
  return uses;
}

size_t use_count(const UseMap& uses, const ir::Value* v) {
  auto it = uses.find(v);
  return it == uses.end() ? 0 : it->second.size();
}

}  // namespace tritium::passes
