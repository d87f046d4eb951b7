// The Metal toolchain probe (runtime/metal/metal_toolchain.h) against a stand-in `xcrun`: a
// shell script that answers as Apple's tools do (a compiler knowing the language versions
// up to FAKE_METAL_NEWEST; the messages of a missing toolchain), so the choice of -std, the
// install advice and the remembered outcome are checked on any machine. The pipeline check
// stands for the operating system's Metal runtime, which may refuse what the compiler made.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/cache.h"
#include "runtime/metal/metal_toolchain.h"
#include "scoped_env.h"

namespace fs = std::filesystem;
using tritium::runtime::DiskCache;
using tritium::runtime::read_file_bytes;
namespace metal = tritium::runtime::metal;

namespace {

// The stand-in: `xcrun -sdk macosx metal|metallib ARGS`, each call logged in FAKE_XCRUN_LOG.
const char* kFakeXcrun = R"SH(#!/bin/sh
echo "$*" >> "$FAKE_XCRUN_LOG"
[ "$1" = "-sdk" ] && shift 2
tool=$1; shift
case "$FAKE_XCRUN_MODE" in
  missing26) echo "error: error: cannot execute tool '$tool' due to missing Metal Toolchain; use: xcodebuild -downloadComponent MetalToolchain" >&2; exit 72;;
  clt) echo "xcrun: error: unable to find utility \"$tool\", not a developer tool or in PATH" >&2; exit 72;;
esac
rank() { case "$1" in metal3.2) echo 1;; metal4.0) echo 2;; metal4.1) echo 3;; *) echo 99;; esac; }
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out=$a; prev=$a; done
if [ "$tool" = metal ]; then
  if [ "$1" = --version ]; then echo "Apple metal version ${FAKE_METAL_BUILD:-32023.404} (metalfe-32023.404)"; echo "Target: air64-apple-darwin24.0.0"; exit 0; fi
  std=${1#-std=}
  if [ "$(rank "$std")" -gt "$(rank "$FAKE_METAL_NEWEST")" ]; then
    echo "error: invalid value '$std' in '-std=$std'" >&2; exit 1
  fi
  echo "air:$std" > "$out"; exit 0
fi
if [ "$tool" = metallib ]; then
  std=$(sed 's/^air://' "$1")
  case " $FAKE_METALLIB_FAIL " in *" $std "*) echo "error: LLVM ERROR: bad bitcode for $std" >&2; exit 1;; esac
  echo "lib:$std" > "$out"; exit 0
fi
echo "xcrun: error: unknown tool $tool" >&2; exit 1
)SH";

class MetalToolchain : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tritium-fake-xcrun-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    xcrun_ = dir_ / "xcrun";
    std::ofstream(xcrun_) << kFakeXcrun;
    ::chmod(xcrun_.c_str(), 0755);
    log_ = dir_ / "calls.log";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A request whose pipeline check (the OS's Metal runtime) refuses the versions in `refused`.
  metal::ProbeRequest request(const std::string& refused = "") {
    metal::ProbeRequest r;
    r.xcrun = {xcrun_.string(), "-sdk", "macosx"};
    r.source = "kernel void tritium_kernel() {}\n";
    r.make_pipeline = [this, refused](const fs::path& lib, const std::string& function) -> std::string {
      ++pipelines_;
      EXPECT_EQ(function, "tritium_kernel");
      const std::string bytes = read_file_bytes(lib).value_or("");
      EXPECT_EQ(bytes.rfind("lib:", 0), 0u) << "the pipeline is made from the metallib the probe linked";
      const std::string std = bytes.substr(4, bytes.find('\n') - 4);
      if (!refused.empty() && (" " + refused + " ").find(" " + std + " ") != std::string::npos)
        return "the library's language version " + std + " is newer than this OS supports";
      return "";
    };
    return r;
  }
  int calls() const {
    std::ifstream in(log_);
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }

  fs::path dir_, xcrun_, log_;
  int pipelines_ = 0;
  ScopedEnv log_env_{"FAKE_XCRUN_LOG", (fs::temp_directory_path() / "unused").string()};
};

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

TEST_F(MetalToolchain, PicksTheNewestVersionThatCompilesLinksAndMakesAPipeline) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), newest("FAKE_METAL_NEWEST", "metal4.1");
  // The compiler knows 4.1, but this OS's Metal runtime cannot load it: 4.0 wins.
  metal::ProbeResult r = metal::probe_metal_toolchain(request("metal4.1"));
  ASSERT_TRUE(r.toolchain) << r.reason;
  EXPECT_EQ(r.toolchain->language, "metal4.0");
  EXPECT_EQ(r.toolchain->version, "Apple metal version 32023.404 (metalfe-32023.404)");
  ASSERT_EQ(r.attempts.size(), 2u) << joined(r.attempts);
  EXPECT_NE(r.attempts[0].find("metal4.1: compiles and links, but creates no compute pipeline: the library's "
                               "language version metal4.1 is newer"),
            std::string::npos)
      << r.attempts[0];
  EXPECT_NE(r.attempts[1].find("metal4.0: compiles, links and creates a compute pipeline"), std::string::npos);
  EXPECT_EQ(pipelines_, 2);
  EXPECT_FALSE(r.from_cache);
}

TEST_F(MetalToolchain, SkipsVersionsTheCompilerDoesNotKnowOrCannotLink) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), newest("FAKE_METAL_NEWEST", "metal4.0"),
      bad("FAKE_METALLIB_FAIL", "metal4.0");
  metal::ProbeResult r = metal::probe_metal_toolchain(request());
  ASSERT_TRUE(r.toolchain) << r.reason;
  EXPECT_EQ(r.toolchain->language, "metal3.2");
  ASSERT_EQ(r.attempts.size(), 3u) << joined(r.attempts);
  EXPECT_NE(r.attempts[0].find("metal4.1: does not compile: error: invalid value 'metal4.1'"), std::string::npos)
      << r.attempts[0];
  EXPECT_NE(r.attempts[1].find("metal4.0: compiles but does not link: error: LLVM ERROR"), std::string::npos)
      << r.attempts[1];
  EXPECT_EQ(pipelines_, 1) << "no pipeline is tried for a library that did not link";
}

TEST_F(MetalToolchain, NoVersionWorkingIsAReasonNamingWhatTritiumNeeds) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), newest("FAKE_METAL_NEWEST", "metal3.2");
  metal::ProbeResult r = metal::probe_metal_toolchain(request("metal3.2"));
  EXPECT_FALSE(r.toolchain);
  EXPECT_NE(r.reason.find("no Metal language version from metal4.1 down to metal3.2 compiles, links and creates a "
                          "compute pipeline"),
            std::string::npos)
      << r.reason;
  EXPECT_NE(r.reason.find("macOS 15 with Xcode 16"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("metal3.2: compiles and links, but creates no compute pipeline"), std::string::npos)
      << r.reason;
}

TEST_F(MetalToolchain, AMissingToolchainNamesTheCommandThatInstallsIt) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), mode("FAKE_XCRUN_MODE", "missing26");
  metal::ProbeResult r = metal::probe_metal_toolchain(request());
  EXPECT_FALSE(r.toolchain);
  EXPECT_NE(r.reason.find("the Metal toolchain is not installed"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("`xcodebuild -downloadComponent MetalToolchain`"), std::string::npos) << r.reason;
  EXPECT_EQ(calls(), 1) << "nothing is compiled once `metal --version` says the toolchain is missing";
  EXPECT_EQ(pipelines_, 0);
}

TEST_F(MetalToolchain, CommandLineToolsWithoutXcodeAreRecognised) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), mode("FAKE_XCRUN_MODE", "clt");
  metal::ProbeResult r = metal::probe_metal_toolchain(request());
  EXPECT_FALSE(r.toolchain);
  EXPECT_NE(r.reason.find("xcrun finds no `metal` compiler"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("sudo xcode-select -s /Applications/Xcode.app"), std::string::npos) << r.reason;
}

TEST_F(MetalToolchain, NoXcrunAtAllIsRecognised) {
  metal::ProbeRequest req = request();
  req.xcrun = {(dir_ / "no-such-xcrun").string(), "-sdk", "macosx"};
  metal::ProbeResult r = metal::probe_metal_toolchain(req);
  EXPECT_FALSE(r.toolchain);
  EXPECT_NE(r.reason.find("install Xcode"), std::string::npos) << r.reason;
}

TEST_F(MetalToolchain, TheOutcomeIsRememberedPerToolchainVersion) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), newest("FAKE_METAL_NEWEST", "metal4.0");
  DiskCache cache(dir_ / "cache");
  metal::ProbeRequest req = request();
  req.cache = &cache;
  metal::ProbeResult first = metal::probe_metal_toolchain(req);
  ASSERT_TRUE(first.toolchain) << first.reason;
  EXPECT_EQ(first.toolchain->language, "metal4.0");
  const int after_first = calls();
  EXPECT_EQ(after_first, 1 + 1 + 2) << "--version, 4.1 refused by the compiler, 4.0 compiled and linked";

  metal::ProbeResult again = metal::probe_metal_toolchain(req);
  ASSERT_TRUE(again.toolchain);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.toolchain->language, "metal4.0");
  EXPECT_EQ(calls(), after_first + 1) << "a remembered outcome costs one `metal --version`";

  // Another GPU or macOS version (a cache directory shared between Macs): probed afresh.
  metal::ProbeRequest elsewhere = req;
  elsewhere.environment = "macOS 15.4, Apple M2";
  EXPECT_FALSE(metal::probe_metal_toolchain(elsewhere).from_cache);

  // Another toolchain build (an Xcode update): probed afresh.
  ScopedEnv build("FAKE_METAL_BUILD", "32024.1"), older("FAKE_METAL_NEWEST", "metal3.2");
  metal::ProbeResult updated = metal::probe_metal_toolchain(req);
  ASSERT_TRUE(updated.toolchain) << updated.reason;
  EXPECT_FALSE(updated.from_cache);
  EXPECT_EQ(updated.toolchain->language, "metal3.2");
}

TEST_F(MetalToolchain, CompileMetallibNamesTheFailingCommandAndTheCompilersMessages) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), newest("FAKE_METAL_NEWEST", "metal3.2");
  const fs::path src = dir_ / "k.metal";
  std::ofstream(src) << "kernel void tritium_kernel() {}\n";
  metal::MetalToolchain tc{{xcrun_.string(), "-sdk", "macosx"}, "metal3.2", "v"};
  metal::compile_metallib(tc, src, dir_ / "k.metallib");
  EXPECT_EQ(read_file_bytes(dir_ / "k.metallib").value_or(""), "lib:metal3.2\n");

  tc.language = "metal4.1";  // a version this compiler does not know
  try {
    metal::compile_metallib(tc, src, dir_ / "k2.metallib");
    FAIL() << "expected the compiler's failure";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("metal -std=metal4.1 -fno-fast-math -c"), std::string::npos) << msg;
    EXPECT_NE(msg.find("error: invalid value 'metal4.1'"), std::string::npos) << msg;
  }

  ScopedEnv mode("FAKE_XCRUN_MODE", "missing26");
  try {
    metal::compile_metallib(tc, src, dir_ / "k3.metallib");
    FAIL() << "expected the install advice";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("xcodebuild -downloadComponent MetalToolchain"), std::string::npos) << e.what();
  }
}

TEST_F(MetalToolchain, TheDeploymentTargetReachesEveryCompile) {
  ScopedEnv log("FAKE_XCRUN_LOG", log_.string()), newest("FAKE_METAL_NEWEST", "metal3.2");
  metal::ProbeRequest req = request();
  req.flags = {"-mmacosx-version-min=15.4"};
  metal::ProbeResult r = metal::probe_metal_toolchain(req);
  ASSERT_TRUE(r.toolchain) << r.reason;
  EXPECT_EQ(r.toolchain->flags, req.flags);
  const fs::path src = dir_ / "k.metal";
  std::ofstream(src) << "kernel void tritium_kernel() {}\n";
  metal::compile_metallib(*r.toolchain, src, dir_ / "k.metallib");
  std::ifstream in(log_);
  int compiles = 0, with_target = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find(" metal -std=") == std::string::npos) continue;
    ++compiles;
    if (line.find("-fno-fast-math -mmacosx-version-min=15.4 -c ") != std::string::npos) ++with_target;
  }
  EXPECT_EQ(compiles, 4) << "4.1, 4.0 and 3.2 probed, then the kernel";
  EXPECT_EQ(with_target, compiles);
}

TEST(MetalToolchainAdvice, OtherFailuresAreNotTakenForAMissingToolchain) {
  EXPECT_NE(metal::missing_toolchain_advice("You have not agreed to the Xcode license agreements. You must agree to "
                                            "both license agreements below in order to use Xcode.")
                .find("sudo xcodebuild -license accept"),
            std::string::npos);
  EXPECT_EQ(metal::missing_toolchain_advice("k.metal:3:5: error: use of undeclared identifier 'x'"), "");
  EXPECT_NE(metal::missing_toolchain_advice("error: cannot execute tool 'metal' due to missing Metal Toolchain; use: "
                                            "xcodebuild -downloadComponent MetalToolchain"),
            "");
}

}  // namespace
