// What the metal and msl-emu backends share at launch (runtime/metal/msl_launch.h).
#include <gtest/gtest.h>

#include "runtime/metal/msl_launch.h"
#include "scoped_env.h"

TEST(MslLaunch, AnUnknownShapeIsRefusedWithTheChoices) {
  ScopedEnv e("TRITIUM_MSL_SHAPE", "warp");
  try {
    tritium::runtime::metal::msl_shape_from_env("msl-emu");
    FAIL() << "expected a refusal";
  } catch (const std::runtime_error& err) {
    EXPECT_STREQ(err.what(), "msl-emu backend: TRITIUM_MSL_SHAPE must be auto, serial or threadgroup, got 'warp'");
  }
}

TEST(MslLaunch, TheStatusWordNamesTheLowestFailingProgramsSiteAndCoordinates) {
  tritium::codegen::MslProgram p;
  p.failures = {"site one", "site two"};
  p.params.resize(1);
  const std::array<int32_t, 3> grid = {3, 2, 4};
  EXPECT_EQ(tritium::runtime::metal::check_msl_launch(p, "k", "metal", grid, 1), 24);
  EXPECT_NO_THROW(tritium::runtime::metal::raise_msl_status(p, 0xffffffffu, grid));
  // program (2, 1, 3) = linear 2 + 3 * (1 + 2 * 3) = 23, site two.
  try {
    tritium::runtime::metal::raise_msl_status(p, 23 * 2 + 1, grid);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "site two, program (2, 1, 3)");
  }
  EXPECT_THROW(tritium::runtime::metal::check_msl_launch(p, "k", "metal", grid, 2), std::runtime_error);
  EXPECT_THROW(tritium::runtime::metal::check_msl_launch(p, "k", "metal", {1 << 16, 1 << 15, 1}, 1),
               std::runtime_error);
}
