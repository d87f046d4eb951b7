// Import resolution of other Python files (src/frontend/module_loader.cpp): relative imports,
// absolute imports under the package root above the importing file, the importing file's
// own directory, TRITIUM_PYTHONPATH; packages (__init__.py); what is reported when a module
// is not found; the per-process cache and its invalidation when a file changes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "frontend/module_loader.h"
#include "frontend/parser.h"

namespace {

namespace fs = std::filesystem;
using tritium::frontend::load_module;
using tritium::frontend::LoadedModule;
using tritium::frontend::Module;
using tritium::frontend::parse_module;
using tritium::frontend::Source;

class ModuleLoader : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("tritium_loader_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    write("pkg/__init__.py", "from .sub.util import helper\n");
    write("pkg/sub/__init__.py", "");
    write("pkg/sub/util.py", "def helper():\n    pass\n");
    write("pkg/sub/kern.py", "from .util import helper\n");
    write("pkg/top.py", "X = 1\n");
    write("lonely.py", "Y = 2\n");
    write("elsewhere/extra.py", "Z = 3\n");
  }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  Module importer(const std::string& rel) { return parse_module(Source::from_file((root / rel).string())); }
  fs::path root;
};

TEST_F(ModuleLoader, RelativeImportsClimbOneDirectoryPerExtraDot) {
  Module k = importer("pkg/sub/kern.py");
  LoadedModule m = load_module(k, "util", 1);  // from .util import ...
  ASSERT_NE(m.module, nullptr) << m.why_not;
  EXPECT_EQ(fs::path(m.path), fs::weakly_canonical(root / "pkg/sub/util.py"));
  EXPECT_FALSE(m.is_package);
  LoadedModule up = load_module(k, "top", 2);  // from ..top import X
  ASSERT_NE(up.module, nullptr) << up.why_not;
  LoadedModule pkg = load_module(k, "", 2);  // from .. import top
  ASSERT_NE(pkg.module, nullptr);
  EXPECT_TRUE(pkg.is_package);
  EXPECT_EQ(fs::path(pkg.path).filename(), "__init__.py");
}

TEST_F(ModuleLoader, AbsoluteImportsSearchAboveTheOutermostPackage) {
  Module k = importer("pkg/sub/kern.py");
  LoadedModule m = load_module(k, "pkg.sub.util", 0);
  ASSERT_NE(m.module, nullptr) << m.why_not;
  EXPECT_EQ(fs::path(m.path), fs::weakly_canonical(root / "pkg/sub/util.py"));
  LoadedModule p = load_module(k, "pkg", 0);
  ASSERT_NE(p.module, nullptr);
  EXPECT_TRUE(p.is_package);
  // The importing file's own directory is searched too (a script next to its helpers).
  EXPECT_NE(load_module(k, "util", 0).module, nullptr);
  // A file outside any package: its directory.
  EXPECT_NE(load_module(importer("lonely.py"), "pkg.top", 0).module, nullptr);
}

TEST_F(ModuleLoader, PythonPathEnvironmentAndNotFound) {
  Module k = importer("pkg/sub/kern.py");
  LoadedModule miss = load_module(k, "extra", 0);
  EXPECT_EQ(miss.module, nullptr);
  EXPECT_NE(miss.why_not.find("not found under"), std::string::npos) << miss.why_not;
  EXPECT_NE(miss.why_not.find(root.string()), std::string::npos) << miss.why_not;
  ::setenv("TRITIUM_PYTHONPATH", ("/nonexistent:" + (root / "elsewhere").string()).c_str(), 1);
  LoadedModule hit = load_module(k, "extra", 0);
  ::unsetenv("TRITIUM_PYTHONPATH");
  ASSERT_NE(hit.module, nullptr) << hit.why_not;
  EXPECT_EQ(fs::path(hit.path), fs::weakly_canonical(root / "elsewhere/extra.py"));
  // A module given as a string has no directory for relative imports.
  Module s = parse_module(Source::from_string("x = 1\n", "<string>"));
  LoadedModule rel = load_module(s, "util", 1);
  EXPECT_EQ(rel.module, nullptr);
  EXPECT_NE(rel.why_not.find("relative import"), std::string::npos);
}

TEST_F(ModuleLoader, ParsedOncePerVersionOfTheFile) {
  Module k = importer("pkg/sub/kern.py");
  const Module* a = load_module(k, "util", 1).module;
  const Module* b = load_module(k, "pkg.sub.util", 0).module;
  EXPECT_EQ(a, b) << "one parse for one file";
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write("pkg/sub/util.py", "def helper():\n    pass\n\ndef other():\n    pass\n");
  fs::last_write_time(root / "pkg/sub/util.py", fs::file_time_type::clock::now() + std::chrono::seconds(5));
  const Module* c = load_module(k, "util", 1).module;
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c, a) << "a changed file is parsed again";
  EXPECT_EQ(c->functions.size(), 2u);
  EXPECT_EQ(a->functions.size(), 1u) << "the old parse stays valid";
}

}  // namespace
