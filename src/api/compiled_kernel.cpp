// Kernel::compile / Kernel::ir (with the in-memory cache) and CompiledKernel.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <mutex>

#include "api/api_internal.h"
#include "api/launch_args.h"
#include "frontend/module_loader.h"
#include "frontend/parser.h"
#include "runtime/build_id.h"
#include "runtime/cache.h"

namespace tritium {
namespace {

// The named constexprs, each value tagged with its type and strings length-prefixed: two
// different maps never give the same text (the canonical specialization quotes strings
// without escaping, so A="x', B='z" and {A="x", B="z"} print alike).
std::string constexprs_key(const std::map<std::string, ConstexprValue>& constexprs) {
  std::string out;
  for (const auto& [name, v] : constexprs) {
    out += fmt::format("{}:{}=", name.size(), name);
    if (const auto* i = std::get_if<int64_t>(&v)) out += fmt::format("i{};", *i);
    else if (const auto* d = std::get_if<double>(&v)) out += fmt::format("d{:a};", *d);
    else if (const auto* b = std::get_if<bool>(&v)) out += *b ? "b1;" : "b0;";
    else if (const auto* str = std::get_if<std::string>(&v)) out += fmt::format("s{}:{};", str->size(), *str);
    else out += fmt::format("t{}:{};", std::get<DType>(v).name.size(), std::get<DType>(v).name);
  }
  return out;
}

}  // namespace

CompiledKernel Kernel::compile(const Device& device, const std::string& signature, const CompileOptions& options,
                               const std::map<std::string, ConstexprValue>& constexprs) const {
  frontend::PinScope pin_(&(*module_).pins);
  const std::shared_ptr<runtime::Device>& dev = device.impl();
  // The key needs the canonical specialization, which needs the signature checked first.
  detail::validate_options(options);
  std::vector<ArgInfo> args;  // `written` is filled by lowering or from the cache entry's note
  frontend::Specialization spec = detail::resolve_specialization(name_, params_, signature, constexprs, &args);
  const std::string named = constexprs_key(constexprs);
  std::string key = fmt::format("{}|{}|{}|{}|{}", name_, spec.str(), named, detail::options_key(options),
                                static_cast<const void*>(dev.get()));
  if (options.dump_after.empty()) {
    std::lock_guard<std::mutex> lock(module_->mu);
    auto it = module_->cache.find(key);
    if (it != module_->cache.end()) return CompiledKernel(it->second);
  }

  runtime::CodegenOptions cg;
  cg.portable_numerics = options.portable_numerics;
  cg.debug = options.debug;
  cg.num_warps = options.num_warps;
  cg.num_stages = options.num_stages;
  cg.sanitize = detail::sanitize_enabled(options);
  if (cg.sanitize && dev->name() != "cpu" && dev->name() != "msl-emu") {
    // Asked for in the options: refused. Through the environment (a switch for whole test
    // runs over several backends): the other backends run unchecked, said once on stderr.
    if (options.sanitize)
      throw Error(ErrorKind::Usage, fmt::format("kernel '{}': sanitize mode (CompileOptions::sanitize) is implemented "
                                                "on the cpu and msl-emu backends only, not on {}",
                                                name_, dev->name()));
    static std::once_flag noted;
    std::call_once(noted, [&] {
      fmt::print(stderr, "tritium: TRITIUM_SANITIZE=1 checks accesses on the cpu and msl-emu backends only; {} kernels run "
                         "unchecked\n", dev->name());
    });
    cg.sanitize = false;
  }

  // A cache hit without lowering: a new process loading a kernel it compiled before skips
  // parsing the specialization into IR, the passes and rendering (most of a cached launch's
  // time). The key covers everything lowering reads here: this build of tritium (a digest of
  // its sources), the module's name and text, the kernel, the canonical specialization, the
  // options; the backend adds its compiler, flags and host. Not used when compile-time code
  // read other inputs (another file, the environment: frontend::dynamic_inputs_seen), with
  // host globals, or with IR dumps asked for.
  auto state = std::make_shared<detail::CompiledState>();
  state->source = module_->source;
  state->device = dev;
  state->name = name_;
  state->signature = spec.str();
  state->sanitize = cg.sanitize;
  std::string inputs;
  bool host_globals = false;
  {
    // Read the host globals and freeze them in one step (lowering freezes them too): a
    // set_host_globals racing this compile cannot slip in between and be lowered into a
    // kernel recorded under a key that assumes none.
    std::lock_guard<std::mutex> lock(module_->mu);
    host_globals = !module_->host_globals.empty();
    module_->compiled = true;
  }
  // The cache entry's note: the canonical specialization, then each runtime argument's
  // `written` flag ('0' / '1').
  const std::string note_prefix = "sig " + state->signature + "\nwritten ";
  const bool by_inputs = options.dump_after.empty() && !options.dump && !host_globals;
  if (by_inputs && !frontend::dynamic_inputs_seen()) {
    inputs = runtime::content_hash({"tritium-kernel-inputs 1", runtime::build_id(), module_->source->name(),
                                    module_->source->text(), name_, signature, named, spec.str(),
                                    detail::options_key(options),
                                    fmt::format("cg {} {} {} {} {}", cg.portable_numerics, cg.debug, cg.num_warps,
                                                cg.num_stages, cg.sanitize)});
    runtime::InputHit hit = dev->load_by_inputs(inputs, cg, [&](const std::string& note) {
      return note.size() == note_prefix.size() + args.size() && note.compare(0, note_prefix.size(), note_prefix) == 0;
    });
    if (hit.loaded) {
      for (size_t i = 0; i < args.size(); ++i) args[i].written = hit.note[note_prefix.size() + i] == '1';
      state->args = std::move(args);
      state->loaded = std::move(hit.loaded);
      state->relower = std::make_unique<detail::CompiledState::Relower>(
          detail::CompiledState::Relower{params_, signature, options, constexprs});
    }
  }

  if (!state->loaded) {
    const uint64_t printed = frontend::compile_time_outputs();
    detail::Lowered low = detail::lower(*module_, name_, params_, signature, options, constexprs);
    state->signature = low.signature;
    state->args = std::move(low.args);
    state->ir_text = std::move(low.ir_text);
    state->ir = std::move(low.ir);
    try {
      state->loaded = dev->compile(*state->ir, cg);
    } catch (...) {
      detail::rethrow_as_error(ErrorKind::Device,
                               fmt::format("building kernel '{}' ({}) for {}", name_, state->signature, dev->name()));
    }
    if (!state->loaded)
      throw Error(ErrorKind::Internal, fmt::format("internal error: backend {} returned no kernel for '{}'", dev->name(), name_));
    // Lowering may have read other inputs (a helper file, the environment) or printed
    // (tl.static_print, which a hit would not repeat): then record nothing.
    if (by_inputs && !inputs.empty() && !frontend::dynamic_inputs_seen() && frontend::compile_time_outputs() == printed) {
      std::string note = note_prefix;
      for (const ArgInfo& a : state->args) note += a.written ? '1' : '0';
      dev->remember_inputs(inputs, cg, *state->loaded, note);
    }
  }

  std::lock_guard<std::mutex> lock(module_->mu);
  auto [it, inserted] = module_->cache.emplace(key, state);
  if (!inserted && options.dump_after.empty()) return CompiledKernel(it->second);  // another thread won
  if (!inserted) it->second = state;
  return CompiledKernel(state);
}

std::string Kernel::ir(const std::string& signature, const CompileOptions& options,
                       const std::map<std::string, ConstexprValue>& constexprs) const {
  frontend::PinScope pin_(&(*module_).pins);
  return detail::lower(*module_, name_, params_, signature, options, constexprs).ir_text;
}

const std::string& CompiledKernel::name() const { return state_->name; }
const std::string& CompiledKernel::signature() const { return state_->signature; }
std::string CompiledKernel::backend() const { return state_->device->name(); }
const std::vector<ArgInfo>& CompiledKernel::arguments() const { return state_->args; }
const std::string& CompiledKernel::ir() const {
  if (!state_->relower) return state_->ir_text;
  std::lock_guard<std::mutex> lock(state_->relower_mu);
  if (state_->ir_text.empty()) {  // a cache hit without lowering: lower now, from the source parsed anew
    const detail::CompiledState::Relower& r = *state_->relower;
    detail::ModuleState m;
    m.source = state_->source;
    try {
      m.ast = frontend::parse_module(state_->source);
    } catch (...) {
      detail::rethrow_as_error(ErrorKind::Compile, "parsing " + state_->source->name());
    }
    frontend::PinScope pin_(&m.pins);
    state_->ir_text = detail::lower(m, state_->name, r.params, r.signature, r.options, r.constexprs).ir_text;
  }
  return state_->ir_text;
}
const std::string& CompiledKernel::source() const { return state_->loaded->source(); }

std::vector<std::string> CompiledKernel::assembly_kinds() const { return state_->loaded->assembly_kinds(); }

KernelResources CompiledKernel::resources() const {
  const runtime::KernelUsage u = state_->loaded->usage();
  return KernelResources{u.registers, u.local_bytes, u.shared_bytes, u.max_threads, u.threads, u.spill_bytes};
}

std::string CompiledKernel::assembly(const std::string& kind) const {
  const std::vector<std::string> kinds = state_->loaded->assembly_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw Error(ErrorKind::Usage, fmt::format("kernel '{}': the {} backend has no '{}' assembly ({})", state_->name,
                                              state_->device->name(), kind,
                                              kinds.empty() ? std::string("it has none; source() is its code")
                                                            : "it has: " + fmt::format("{}", fmt::join(kinds, ", "))));
  try {
    return state_->loaded->assembly(kind);
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, fmt::format("producing the {} of kernel '{}'", kind, state_->name));
  }
}

void CompiledKernel::launch(const Grid& grid, const std::vector<Arg>& args) const { launch_impl(grid, args, true); }

void CompiledKernel::launch_async(const Grid& grid, const std::vector<Arg>& args, void* stream) const {
  launch_impl(grid, args, false, stream);
}

void CompiledKernel::launch_impl(const Grid& grid, const std::vector<Arg>& args, bool wait, void* stream) const {
  const int64_t dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d)
    if (dims[d] < 0 || dims[d] > INT32_MAX)
      throw Error(ErrorKind::Usage, fmt::format("kernel '{}': grid ({}, {}, {}) has an extent outside [0, 2^31 - 1]",
                                                state_->name, grid.x, grid.y, grid.z));
  std::vector<tritium_arg> slots = detail::convert_args(state_->name, state_->args, args, state_->device.get());
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return;
  std::array<int32_t, 3> g = {static_cast<int32_t>(grid.x), static_cast<int32_t>(grid.y), static_cast<int32_t>(grid.z)};
  try {
    if (state_->sanitize) {
      // One buffer per slot (slots are the arguments in order): from its start (the pointer
      // less Arg::ptr's offset) to its end; raw pointers (no extent) and non-pointers are
      // not checked.
      // A pointer of unknown extent gets a non-null base with bytes = UINT64_MAX, so a
      // pointer checked against "any argument" (tr_san_ok, slot -1) may be in it.
      std::vector<tritium_bounds> bounds(slots.size(), tritium_bounds{nullptr, ~uint64_t{0}});
      for (size_t i = 0; i < args.size() && i < slots.size(); ++i) {
        if (args[i].kind() != Arg::Kind::Pointer) continue;
        if (args[i].pointer_extent() > 0)
          bounds[i] = tritium_bounds{static_cast<const char*>(args[i].pointer()) - args[i].pointer_lead(),
                                     static_cast<uint64_t>(args[i].pointer_lead() + args[i].pointer_extent())};
        else
          bounds[i] = tritium_bounds{args[i].pointer() ? args[i].pointer() : &bounds, ~uint64_t{0}};
      }
      state_->loaded->launch_checked(g, slots, bounds);
    } else if (wait) {
      state_->loaded->launch(g, slots);
    } else {
      state_->loaded->launch_async(g, slots, stream);
    }
  } catch (...) {
    detail::rethrow_as_error(ErrorKind::Device, fmt::format("launching kernel '{}' on {}", state_->name,
                                                            state_->device->name()));
  }
}

}  // namespace tritium
