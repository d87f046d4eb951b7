// env_choice: the backends' TRITIUM_*_SHAPE switches.
#include <gtest/gtest.h>

#include "runtime/env_choice.h"
#include "scoped_env.h"

using tritium::runtime::env_choice;

TEST(EnvChoice, UnsetIsTheFirstChoiceAndEachWordItsIndex) {
  EXPECT_EQ(env_choice("TRITIUM_TEST_CHOICE", {"auto", "serial", "threadgroup"}, "test"), 0);
  ScopedEnv e("TRITIUM_TEST_CHOICE", "threadgroup");
  EXPECT_EQ(env_choice("TRITIUM_TEST_CHOICE", {"auto", "serial", "threadgroup"}, "test"), 2);
}
