#!/usr/bin/env bash
# ctest hash_agrees_across_backends: `tritium hash` over the built-in suite's quick set in
# portable numerics must find every output bit-identical on cpu, interp, msl-emu (the
# Metal shading language tritium emits, run on the CPU) and opencl (PoCL on CI). Exit 77
# (skipped) where there is no OpenCL device, unless TRITIUM_REQUIRE_OPENCL=1; then cpu,
# interp and msl-emu alone are compared.
set -uo pipefail
TRITIUM=$1
backends=cpu,interp,msl-emu,opencl
if ! "$TRITIUM" doctor | grep -Eq '^  opencl +available'; then
  if [ "${TRITIUM_REQUIRE_OPENCL:-0}" = 1 ]; then echo "hash_agrees: no OpenCL device (TRITIUM_REQUIRE_OPENCL=1)"; exit 1; fi
  "$TRITIUM" hash --backends cpu,interp,msl-emu || exit 1
  echo "hash_agrees: no OpenCL device; cpu, interp and msl-emu agree; skipping the opencl comparison"
  exit 77
fi
"$TRITIUM" hash --backends "$backends"
