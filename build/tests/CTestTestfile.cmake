# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/main/build/tests/tritium_unit_tests[1]_include.cmake")
include("/work/main/build/tests/tritium_conformance_tests[1]_include.cmake")
include("/work/main/build/tests/tritium_errors_tests[1]_include.cmake")
