// Import resolution for other Python files (see module_loader.h).
#include "frontend/module_loader.h"

#include <atomic>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "frontend/parser.h"

namespace tritium::frontend {
namespace {

namespace fs = std::filesystem;

struct Entry {
  uintmax_t size = 0;
  fs::file_time_type mtime;
  std::shared_ptr<Module> module;
};

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Entry>& cache() {
  static std::map<std::string, Entry> c;
  return c;
}
std::vector<std::shared_ptr<Module>>& keep_alive() {  // replaced entries stay valid
  static std::vector<std::shared_ptr<Module>> v;
  return v;
}

thread_local PinnedImports* t_pins = nullptr;

const Module* parse_cached_unpinned(const fs::path& p, const std::string& key);

std::atomic<bool> g_dynamic_inputs{false};

const Module* parse_cached(const fs::path& p) {
  note_dynamic_input();
  std::error_code ec;
  const fs::path canon = fs::weakly_canonical(p, ec);
  const std::string key = (ec ? p : canon).string();
  if (PinnedImports* pins = t_pins) {
    {
      std::lock_guard<std::mutex> lock(pins->mu);
      if (auto it = pins->files.find(key); it != pins->files.end()) return it->second;
    }
    const Module* m = parse_cached_unpinned(p, key);
    std::lock_guard<std::mutex> lock(pins->mu);
    return pins->files.emplace(key, m).first->second;  // a racing first parse: one wins
  }
  return parse_cached_unpinned(p, key);
}

const Module* parse_cached_unpinned(const fs::path& p, const std::string& key) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(p, ec);
  const fs::file_time_type mtime = fs::last_write_time(p, ec);
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    auto it = cache().find(key);
    if (it != cache().end() && it->second.size == size && it->second.mtime == mtime) return it->second.module.get();
  }
  auto m = std::make_shared<Module>(parse_module(Source::from_file(key)));  // outside the lock
  std::lock_guard<std::mutex> lock(cache_mutex());
  Entry& e = cache()[key];
  if (e.module) keep_alive().push_back(e.module);
  e = Entry{size, mtime, m};
  return m.get();
}

std::vector<fs::path> env_dirs(const char* var) {
  std::vector<fs::path> out;
  const char* v = std::getenv(var);
  if (!v) return out;
  std::string s = v;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(':', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The file of an importing module, or empty when it came from a string.
fs::path importer_dir(const Module& m) {
  if (!m.source) return {};
  fs::path p(m.source->name());
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return {};
  return fs::absolute(p, ec).parent_path();
}

}  // namespace

std::string triton_alias(const std::string& dotted) {
  if (dotted == "tritium" || dotted.rfind("tritium.", 0) == 0) return "triton" + dotted.substr(7);
  return dotted;
}

bool is_triton_module(const std::string& d) {
  const std::string dotted = triton_alias(d);
  return dotted == "triton" || dotted.rfind("triton.", 0) == 0;
}

bool is_host_module(const std::string& dotted) {
  static const char* kHost[] = {
      "torch", "numpy", "jax", "cupy", "os", "sys", "math", "functools", "typing", "typing_extensions",
      "dataclasses", "itertools", "collections", "warnings", "logging", "time", "re", "json", "pathlib",
      "inspect", "contextlib", "enum", "abc", "random", "operator", "copy", "importlib", "argparse",
      "subprocess", "tempfile", "pytest", "unittest", "einops", "transformers", "packaging", "__future__"};
  const std::string top = dotted.substr(0, dotted.find('.'));
  for (const char* h : kHost)
    if (top == h) return true;
  return false;
}

LoadedModule load_module(const Module& importer, const std::string& dotted, int level) {
  LoadedModule out;
  if (level == 0 && is_host_module(dotted)) {
    out.why_not = "it is host code (Python's standard library or a host package), not a file of Triton kernels";
    return out;
  }
  fs::path rel;
  for (size_t start = 0; start < dotted.size();) {
    size_t end = dotted.find('.', start);
    if (end == std::string::npos) end = dotted.size();
    rel /= dotted.substr(start, end - start);
    start = end + 1;
  }
  const fs::path here = importer_dir(importer);
  std::vector<fs::path> roots;
  if (level > 0) {
    if (here.empty()) {
      out.why_not = "a relative import needs the importing file's location (the module was given as a string)";
      return out;
    }
    fs::path base = here;
    for (int i = 1; i < level; ++i) base = base.parent_path();
    roots.push_back(base);
  } else {
    std::error_code ec;
    if (!here.empty()) {
      fs::path top = here;
      while (fs::exists(top / "__init__.py", ec)) top = top.parent_path();
      roots.push_back(top);
      if (top != here) roots.push_back(here);
    } else {
      roots.push_back(fs::current_path(ec));
    }
    for (const char* var : {"TRITIUM_PYTHONPATH", "PYTHONPATH"})
      for (const fs::path& d : env_dirs(var)) roots.push_back(d);
  }
  std::string searched;
  for (const fs::path& root : roots) {
    std::error_code ec;
    const fs::path file = rel.empty() ? fs::path() : fs::path(root / rel).replace_extension(".py");
    const fs::path init = (rel.empty() ? root : root / rel) / "__init__.py";
    if (!rel.empty() && fs::is_regular_file(file, ec)) {
      out.path = file.string();
      out.module = parse_cached(file);
      return out;
    }
    if (fs::is_regular_file(init, ec)) {
      out.path = init.string();
      out.is_package = true;
      out.module = parse_cached(init);
      return out;
    }
    searched += (searched.empty() ? "" : ", ") + root.string();
  }
  out.why_not = fmt::format("not found under {}", searched.empty() ? "no directory" : searched);
  return out;
}

void note_dynamic_input() { g_dynamic_inputs.store(true, std::memory_order_relaxed); }
bool dynamic_inputs_seen() { return g_dynamic_inputs.load(std::memory_order_relaxed); }
void reset_dynamic_inputs_for_testing() { g_dynamic_inputs.store(false, std::memory_order_relaxed); }

namespace {
thread_local uint64_t t_compile_time_outputs = 0;
}  // namespace
void note_compile_time_output() { ++t_compile_time_outputs; }
uint64_t compile_time_outputs() { return t_compile_time_outputs; }

PinScope::PinScope(PinnedImports* pins) : prev_(t_pins) { t_pins = pins; }
PinScope::~PinScope() { t_pins = prev_; }

}  // namespace tritium::frontend
