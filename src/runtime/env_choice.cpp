// One of a few words from an environment variable (see env_choice.h).
#include "runtime/env_choice.h"

#include <cstdlib>
#include <stdexcept>

namespace tritium::runtime {

int env_choice(const char* name, std::initializer_list<const char*> choices, const std::string& backend) {
  const char* s = std::getenv(name);
  const std::string v = s ? s : "";
  if (v.empty()) return 0;
  int i = 0;
  std::string listed;
  for (const char* c : choices) {
    if (v == c) return i;
    listed += (i == 0 ? "" : i + 1 == static_cast<int>(choices.size()) ? " or " : ", ") + std::string(c);
    ++i;
  }
  throw std::runtime_error(backend + " backend: " + name + " must be " + listed + ", got '" + v + "'");
}

}  // namespace tritium::runtime
