// Which system compiler the cpu backend runs (runtime/cpu/compiler.h): GCC-only tuning
// parameters go to GCC alone, whatever the command's spelling.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/cpu/compiler.h"

namespace {

namespace fs = std::filesystem;
using tritium::runtime::cpu::is_gnu_compiler;

TEST(CpuCompiler, RecognisesGccByTheProgramNotTheLauncherOrOptions) {
  EXPECT_TRUE(is_gnu_compiler({"g++"}));
  EXPECT_TRUE(is_gnu_compiler({"/usr/bin/g++-12"}));
  EXPECT_TRUE(is_gnu_compiler({"x86_64-linux-gnu-gcc-12"}));
  EXPECT_TRUE(is_gnu_compiler({"ccache", "g++", "-m64"}));
  EXPECT_FALSE(is_gnu_compiler({"clang++"}));
  EXPECT_FALSE(is_gnu_compiler({"ccache", "clang++-15", "-fno-color"}));
  EXPECT_FALSE(is_gnu_compiler({"icpx"}));
  EXPECT_FALSE(is_gnu_compiler({}));
}

TEST(CpuCompiler, FollowsSymbolicLinksToTheRealCompiler) {
  // A generic name (c++, as Debian's alternatives install it) is judged by its target.
  const fs::path dir = fs::temp_directory_path() / ("tritium_cc_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  { std::ofstream(dir / "clang++-99") << "#!/bin/sh\n"; }
  { std::ofstream(dir / "g++-99") << "#!/bin/sh\n"; }
  fs::create_symlink(dir / "clang++-99", dir / "c++");
  fs::create_symlink(dir / "g++-99", dir / "cc");
  EXPECT_FALSE(is_gnu_compiler({(dir / "c++").string()}));
  EXPECT_TRUE(is_gnu_compiler({(dir / "cc").string()}));
  fs::remove_all(dir);
}

TEST(CpuCompiler, KernelFlagsCarryThePeelingLimitOnlyForGcc) {
  const auto flags = tritium::runtime::cpu::kernel_flags(false);
  const bool has = std::find(flags.begin(), flags.end(), "--param=max-completely-peeled-insns=100") != flags.end();
  EXPECT_EQ(has, is_gnu_compiler(tritium::runtime::cpu::compiler_command()));
  // Never fast math, whatever the compiler.
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-fno-fast-math"), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-ffp-contract=off"), flags.end());
}

}  // namespace
