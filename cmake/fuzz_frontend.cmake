# The frontend fuzz target (tests/fuzz/frontend_fuzz.cpp; docs/fuzzing.md). Included twice
# from the top-level CMakeLists.txt:
#
#  * with TRITIUM_FUZZ_STAGE=flags, before any target: under -DTRITIUM_FUZZ=ON (clang only)
#    every target is compiled with -fsanitize=fuzzer-no-link,address,undefined (coverage for
#    libFuzzer, ASan, UBSan with no recovery) and linked with ASan and UBSan;
#  * with TRITIUM_FUZZ_STAGE=targets, after tritium_core: the libFuzzer executable
#    tritium_frontend_fuzz (TRITIUM_FUZZ=ON), and, with the tests, tritium_fuzz_replay
#    (tests/fuzz/replay_main.cpp) and the ctest entry replaying the committed corpus.
if(TRITIUM_FUZZ_STAGE STREQUAL "flags")
  option(TRITIUM_FUZZ "Build the libFuzzer frontend fuzz target (clang; scripts/fuzz-frontend)" OFF)
  if(TRITIUM_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      message(FATAL_ERROR "TRITIUM_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++-15")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                        -fno-omit-frame-pointer -g)
    add_link_options(-fsanitize=address,undefined)
  endif()
  return()
endif()

set(_fuzz_dir ${CMAKE_SOURCE_DIR}/tests/fuzz)
if(TRITIUM_FUZZ)
  add_executable(tritium_frontend_fuzz ${_fuzz_dir}/frontend_fuzz.cpp)
  target_link_libraries(tritium_frontend_fuzz PRIVATE tritium_core)
  target_link_options(tritium_frontend_fuzz PRIVATE -fsanitize=fuzzer)
endif()

if(TRITIUM_BUILD_TESTS)
  add_executable(tritium_fuzz_replay ${_fuzz_dir}/replay_main.cpp ${_fuzz_dir}/frontend_fuzz.cpp)
  target_link_libraries(tritium_fuzz_replay PRIVATE tritium_core)
  # Every committed input must load and compile (or be refused with a located error).
  add_test(NAME fuzz_frontend_corpus_replay COMMAND tritium_fuzz_replay ${_fuzz_dir}/corpus/frontend)
  set_tests_properties(fuzz_frontend_corpus_replay PROPERTIES TIMEOUT 300
                       ENVIRONMENT "TRITIUM_CACHE_DIR=${CMAKE_BINARY_DIR}/test-cache")
endif()
