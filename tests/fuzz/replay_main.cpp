// Replays fuzz inputs through LLVMFuzzerTestOneInput without libFuzzer (docs/fuzzing.md):
//
//   tritium_fuzz_replay PATH...
//
// Each PATH is a file or a directory (its regular files, recursively, in sorted order). Each
// input's name is printed before it runs, so a crash or abort in the target (which is how
// it reports a violated contract) names the input that caused it. Exit status 0 when every
// input ran, 2 for a usage error, an unreadable path or no input at all. Built with the normal compiler in
// the main build and run by ctest over tests/fuzz/corpus/frontend (CI replays the corpus).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PATH... (fuzz inputs: files or directories)\n", argv[0]);
    return 2;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    const fs::path p(argv[i]);
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else if (fs::is_regular_file(p, ec)) {
      inputs.push_back(p);
    } else {
      std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], argv[i]);
      return 2;
    }
  }
  if (inputs.empty()) {  // an empty or missing corpus must not pass as "replayed"
    std::fprintf(stderr, "%s: no input files under the paths given\n", argv[0]);
    return 2;
  }
  std::sort(inputs.begin(), inputs.end());
  const auto start = std::chrono::steady_clock::now();
  for (const fs::path& p : inputs) {
    std::fprintf(stderr, "replay %s\n", p.string().c_str());
    std::ifstream in(p, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "replayed %zu inputs in %.1f s: no contract violated\n", inputs.size(), s);
  return 0;
}
