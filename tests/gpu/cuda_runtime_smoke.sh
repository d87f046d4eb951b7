#!/usr/bin/env bash
# cuda_runtime_smoke.sh — the cuda runtime layer on an NVIDIA GPU, in one call (issue 4).
#
# Usage, from anywhere:  tests/gpu/cuda_runtime_smoke.sh [BUILD_DIR]
#   BUILD_DIR defaults to build-gpu (what scripts/gpu-check builds), else build; when it
#   holds no test binary it is configured and built first (Release, Ninja).
# Runs `tritium doctor` (the cuda line must say "available") and the cuda tests of the unit
# test program (CudaApi.*, CudaNvrtc.*, CudaDevice.*, plus the registry and doctor tests)
# with TRITIUM_REQUIRE_GPU=1, so a missing device fails instead of skipping. Exit status 0
# when all pass.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build-gpu}
[ -d "$B" ] || B=build
if [ ! -x "$B/tests/tritium_unit_tests" ] || [ ! -x "$B/tritium" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build "$B" --parallel "$(nproc)"
fi
nvidia-smi -L || echo "nvidia-smi: not available"
doctor=$("$B/tritium" doctor)
echo "$doctor"
if ! grep -q '^  cuda     available' <<<"$doctor"; then
  echo "FAIL: tritium doctor does not report the cuda backend available" >&2
  exit 1
fi
export TRITIUM_REQUIRE_GPU=1
"$B/tests/tritium_unit_tests" --gtest_filter='Cuda*:ApiRegistry*:Cli.Doctor*' --gtest_color=no
