#!/usr/bin/env bash
# Type-checks the metal backend (src/runtime/metal/metal_device.cpp) against metal-cpp on a
# machine without Apple's SDK: clang with blocks, the stand-ins in apple_stubs/ for the few
# C headers metal-cpp includes (objc, CoreFoundation, dispatch). It catches calls that do
# not match metal-cpp's API; it cannot link or run (that needs macOS).
# Usage: metal_device_compiles.sh SOURCE_DIR   (metal-cpp from $TRITIUM_METAL_CPP_DIR, else
# SOURCE_DIR/third_party/metal-cpp). Exit 77 (skipped) when metal-cpp or clang is absent.
set -euo pipefail
# On macOS the real build compiles the file against the real SDK; the stand-ins would only
# shadow Apple's headers there.
if [ "$(uname -s)" = Darwin ]; then echo "skipped: on macOS the build itself compiles metal_device.cpp"; exit 77; fi
src=${1:?usage: metal_device_compiles.sh SOURCE_DIR}
mcpp=${TRITIUM_METAL_CPP_DIR:-$src/third_party/metal-cpp}
if [ ! -f "$mcpp/Metal/Metal.hpp" ]; then echo "skipped: no metal-cpp in $mcpp (set TRITIUM_METAL_CPP_DIR)"; exit 77; fi
cxx=""
for c in clang++-15 clang++-16 clang++-17 clang++; do command -v "$c" >/dev/null && { cxx=$c; break; }; done
if [ -z "$cxx" ]; then echo "skipped: no clang++ (metal-cpp uses blocks)"; exit 77; fi
here=$(cd "$(dirname "$0")" && pwd)
inc=()
for d in /usr/include/fmt /usr/local/include/fmt; do [ -d "$d" ] && inc+=(-I"$(dirname "$d")"); done
"$cxx" -std=c++20 -fblocks -fsyntax-only -Wall -Wextra -Werror -Wno-unused-parameter \
  -I"$here/apple_stubs" -isystem "$mcpp" -I"$src/src" -I"$src/include" "${inc[@]}" \
  -DTRITIUM_VERSION='"check"' "$src/src/runtime/metal/metal_device.cpp"
echo "metal_device.cpp type-checks against metal-cpp in $mcpp ($cxx)"
