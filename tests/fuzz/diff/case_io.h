// Saving and loading fuzz cases (gen.h) as JSON, so a failure found by the fuzzer can be
// replayed after the generator has changed: tests/fuzz/regressions/*.json are replayed by
// ctest (fuzz_diff_regressions). The file holds the kernel source itself, the signature,
// the buffers, the scalar arguments, the grid and the inputs' seed (diff_run.h's recipe).
#pragma once

#include <string>

#include "gen.h"

namespace fuzz {

/// `c` as a JSON document; `note` (e.g. what failed) is stored with it.
std::string to_json(const Case& c, const std::string& note = "");

/// The case saved in `path`. Throws std::runtime_error naming the file and the field.
Case load_case(const std::string& path);

}  // namespace fuzz
