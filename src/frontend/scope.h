// The local scope of the code generator: what each local name of a jit function is bound
// to while one specialization is generated (upstream code_generator.py's `lscope`).
//
// A Scope is a plain value: the generator copies it before a dynamic if / loop (the
// "live-ins") and compares the copies afterwards to find the variables a region
// reassigned. Names are kept sorted, so merges produce IR in a stable order.
#pragma once
#include <map>
#include <string>

#include "frontend/value.h"

namespace tritium::frontend::cg {

class Scope {
 public:
  /// The value bound to `name`, or nullptr when the name is not local.
  const CValue* find(const std::string& name) const {
    auto it = vars_.find(name);
    return it == vars_.end() ? nullptr : &it->second;
  }
  /// True when `name` is bound.
  bool contains(const std::string& name) const { return vars_.count(name) != 0; }
  /// Binds (or rebinds) `name`.
  void set(const std::string& name, CValue v) { vars_[name] = std::move(v); }
  /// Unbinds `name` (no-op when absent).
  void erase(const std::string& name) { vars_.erase(name); }
  /// Every binding, sorted by name.
  const std::map<std::string, CValue>& vars() const { return vars_; }

 private:
  std::map<std::string, CValue> vars_;
};

}  // namespace tritium::frontend::cg
