#include "passes/cse.h"

#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/clone.h"

namespace tritium::passes {
namespace {

using ir::Block;
using ir::Op;
using ir::Value;

void append_u64(std::string& s, uint64_t x) {
  char buf[sizeof x];
  std::memcpy(buf, &x, sizeof x);
  s.append(buf, sizeof x);
}

/// An exact, unambiguous key of an op's expression (kind, operands, attrs, result types).
std::string expression_key(const Op& op) {
  std::string k;
  append_u64(k, static_cast<uint64_t>(op.kind));
  append_u64(k, op.operands.size());
  for (const Value* v : op.operands) append_u64(k, reinterpret_cast<uintptr_t>(v));
  append_u64(k, op.attrs.size());
  for (const auto& [name, a] : op.attrs) {
    append_u64(k, name.size());
    k += name;
    append_u64(k, a.index());
    if (auto* i = std::get_if<int64_t>(&a)) {
      append_u64(k, static_cast<uint64_t>(*i));
    } else if (auto* d = std::get_if<double>(&a)) {
      uint64_t bits;
      std::memcpy(&bits, d, sizeof bits);
      append_u64(k, bits);
    } else if (auto* s = std::get_if<std::string>(&a)) {
      append_u64(k, s->size());
      k += *s;
    } else if (auto* l = std::get_if<std::vector<int64_t>>(&a)) {
      append_u64(k, l->size());
      for (int64_t x : *l) append_u64(k, static_cast<uint64_t>(x));
    }
  }
  append_u64(k, op.results.size());
  for (const Value* r : op.results) {
    std::string t = r->type.str();
    append_u64(k, t.size());
    k += t;
  }
  return k;
}

class Cse {
 public:
  void block(Block& blk) {
    scopes_.emplace_back();
    bool removed = false;
    for (size_t i = 0; i < blk.ops.size(); ++i) {
      Op& op = *blk.ops[i];
      for (auto& v : op.operands) v = get(v);
      for (auto& r : op.regions) block(r->block);
      if (!(op.info().flags & ir::kPure) || !op.regions.empty() || op.results.empty()) continue;
      std::string key = expression_key(op);
      if (const Op* prev = find(key)) {
        for (size_t k = 0; k < op.results.size(); ++k) repl_[op.results[k]] = prev->results[k];
        blk.ops[i].reset();  // dropped below, all at once: erasing one by one is quadratic
        removed = true;
        continue;
      }
      scopes_.back().emplace(std::move(key), &op);
    }
    if (removed) std::erase_if(blk.ops, [](const std::unique_ptr<Op>& op) { return !op; });
    scopes_.pop_back();
  }

 private:
  std::vector<std::unordered_map<std::string, const Op*>> scopes_;
  std::unordered_map<const Value*, Value*> repl_;

  const Op* find(const std::string& key) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(key);
      if (f != it->end()) return f->second;
    }
    return nullptr;
  }
  Value* get(Value* v) {
    for (auto it = repl_.find(v); it != repl_.end(); it = repl_.find(v)) v = it->second;
    return v;
  }
};

}  // namespace

void eliminate_common_subexpressions(ir::Function& fn) {
  Cse c;
  c.block(fn.body);
}

}  // namespace tritium::passes
