// The Metal toolchain probe (see metal_toolchain.h).
#include "runtime/metal/metal_toolchain.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::runtime::metal {
namespace fs = std::filesystem;
namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::vector<std::string> with(std::vector<std::string> prefix, std::initializer_list<std::string> rest) {
  prefix.insert(prefix.end(), rest.begin(), rest.end());
  return prefix;
}

// A fresh private directory under the system's temporary directory.
fs::path make_temp_dir() {
  std::string templ = (fs::temp_directory_path() / "tritium-metal-XXXXXX").string();
  if (!::mkdtemp(templ.data())) throw std::runtime_error("metal backend: cannot create a temporary directory");
  return templ;
}

// cpu::run_process with its log in a temporary directory removed afterwards.
cpu::ProcessResult run_logged(const std::vector<std::string>& argv) {
  const fs::path dir = make_temp_dir();
  struct Cleanup {
    fs::path d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  return cpu::run_process(argv, dir / "tool.log");
}

// The line of a tool's output worth quoting: the first naming an error, else the first
// non-empty one; at most 300 characters.
std::string first_error_line(const std::string& output) {
  std::string first;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.find("error") != std::string::npos) return line.substr(0, 300);
    if (first.empty()) first = line;
  }
  return first.empty() ? std::string("(no output)") : first.substr(0, 300);
}

// xcrun ... metal -std=<language> -fno-fast-math <flags> -c <source> -o <air>
std::vector<std::string> compile_command(const MetalToolchain& tc, const fs::path& source, const fs::path& air) {
  std::vector<std::string> argv = with(tc.xcrun, {"metal", "-std=" + tc.language, "-fno-fast-math"});
  argv.insert(argv.end(), tc.flags.begin(), tc.flags.end());
  for (const std::string& a : {std::string("-c"), source.string(), std::string("-o"), air.string()}) argv.push_back(a);
  return argv;
}

cpu::ProcessResult run_tool(const ToolRunner& run, const std::vector<std::string>& argv) {
  return run ? run(argv) : run_logged(argv);
}

}  // namespace

const std::vector<std::string>& metal_languages() {
  // Newest first. A version the compiler does not know fails to compile and the next is
  // tried, so versions newer than today's toolchains cost one compiler start each.
  static const std::vector<std::string> v = {"metal4.1", "metal4.0", "metal3.2"};
  return v;
}

std::string missing_toolchain_advice(const std::string& output) {
  // macOS 26: "error: cannot execute tool 'metal' due to missing Metal Toolchain; use:
  // xcodebuild -downloadComponent MetalToolchain".
  if (output.find("Metal Toolchain") != std::string::npos || output.find("MetalToolchain") != std::string::npos)
    return "the Metal toolchain is not installed (macOS 26 installs it on demand): run `xcodebuild "
           "-downloadComponent MetalToolchain`";
  // Only the Command Line Tools (no Xcode), or no developer directory selected.
  if (output.find("unable to find utility \"metal\"") != std::string::npos ||
      output.find("unable to find utility \"metallib\"") != std::string::npos)
    return "xcrun finds no `metal` compiler: the Metal toolchain comes with Xcode, not with the Command Line "
           "Tools alone; install Xcode, select it with `sudo xcode-select -s /Applications/Xcode.app`, and on "
           "Xcode 26 run `xcodebuild -downloadComponent MetalToolchain`";
  if (output.find("agreed to the Xcode license") != std::string::npos ||
      output.find("Xcode license agreement") != std::string::npos)
    return "the Xcode license has not been accepted: run `sudo xcodebuild -license accept`";
  if (output.find("xcrun: error: invalid active developer path") != std::string::npos)
    return "no usable xcrun: install Xcode (then `sudo xcode-select -s /Applications/Xcode.app`; on Xcode 26 also "
           "`xcodebuild -downloadComponent MetalToolchain`)";
  return "";
}

ProbeResult probe_metal_toolchain(const ProbeRequest& req) {
  if (!req.make_pipeline) throw std::invalid_argument("probe_metal_toolchain: make_pipeline is required");
  ProbeResult out;
  const std::vector<std::string> version_cmd = with(req.xcrun, {"metal", "--version"});
  cpu::ProcessResult v;
  try {
    v = run_tool(req.run, version_cmd);
  } catch (const std::runtime_error& e) {  // no xcrun at all: not an Xcode machine
    out.reason = fmt::format("{}: install Xcode (then `sudo xcode-select -s /Applications/Xcode.app`; on Xcode 26 "
                             "also `xcodebuild -downloadComponent MetalToolchain`)",
                             e.what());
    return out;
  }
  if (v.exit_code != 0) {
    const std::string advice = missing_toolchain_advice(v.output);
    out.reason = !advice.empty() ? advice
                                 : fmt::format("`{}` failed (exit status {}): {}", join(version_cmd, " "), v.exit_code,
                                               first_error_line(v.output));
    return out;
  }
  const size_t a = v.output.find_first_not_of(" \t\r\n");
  const std::string version =
      a == std::string::npos ? "" : v.output.substr(a, v.output.find_first_of("\r\n", a) - a);

  const std::string key = content_hash({"tritium-metal-probe", TRITIUM_VERSION, join(req.xcrun, " "), v.output,
                                        req.source, req.function, join(req.flags, " "), req.environment});
  if (req.cache) {
    if (auto lang = req.cache->read(key, "metal-std")) {
      const auto& langs = metal_languages();
      if (std::find(langs.begin(), langs.end(), *lang) != langs.end()) {
        out.toolchain = MetalToolchain{req.xcrun, *lang, version, req.flags};
        out.from_cache = true;
        out.attempts.push_back(*lang + ": chosen by an earlier probe of this toolchain");
        return out;
      }
    }
  }

  const fs::path dir = make_temp_dir();
  struct Cleanup {
    fs::path d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  write_file_atomic(dir / "probe.metal", req.source);
  for (const std::string& lang : metal_languages()) {
    const fs::path air = dir / (lang + ".air"), lib = dir / (lang + ".metallib");
    MetalToolchain candidate{req.xcrun, lang, version, req.flags};
    cpu::ProcessResult r = run_tool(req.run, compile_command(candidate, dir / "probe.metal", air));
    if (r.exit_code != 0) {
      if (std::string advice = missing_toolchain_advice(r.output); !advice.empty()) {
        out.reason = advice;
        return out;
      }
      out.attempts.push_back(lang + ": does not compile: " + first_error_line(r.output));
      continue;
    }
    r = run_tool(req.run, with(req.xcrun, {"metallib", air.string(), "-o", lib.string()}));
    if (r.exit_code != 0) {
      out.attempts.push_back(lang + ": compiles but does not link: " + first_error_line(r.output));
      continue;
    }
    if (std::string err = req.make_pipeline(lib, req.function); !err.empty()) {
      out.attempts.push_back(lang + ": compiles and links, but creates no compute pipeline: " + err);
      continue;
    }
    out.attempts.push_back(lang + ": compiles, links and creates a compute pipeline");
    out.toolchain = candidate;
    if (req.cache) req.cache->write(key, "metal-std", lang);
    return out;
  }
  out.reason = fmt::format(
      "no Metal language version from {} down to {} compiles, links and creates a compute pipeline for tritium's "
      "probe program (tritium's MSL needs {}: macOS 15 with Xcode 16, or newer): {}",
      metal_languages().front(), metal_languages().back(), metal_languages().back(), join(out.attempts, "; "));
  return out;
}

void compile_metallib(const MetalToolchain& tc, const fs::path& source, const fs::path& output, const ToolRunner& run) {
  fs::path air = output;
  air.replace_extension(".air");
  const std::vector<std::vector<std::string>> steps = {
      compile_command(tc, source, air), with(tc.xcrun, {"metallib", air.string(), "-o", output.string()})};
  for (const auto& argv : steps) {
    cpu::ProcessResult r = run_tool(run, argv);
    if (r.exit_code == 0) continue;
    if (std::string advice = missing_toolchain_advice(r.output); !advice.empty())
      throw std::runtime_error("metal backend: " + advice);
    throw std::runtime_error(fmt::format("metal backend: `{}` failed (exit status {}) on {}:\n{}", join(argv, " "),
                                         r.exit_code, source.string(), r.output));
  }
}

}  // namespace tritium::runtime::metal
