// The metal backend in a build without the Metal runtime (not an Apple platform, or
// -DTRITIUM_METAL=OFF): always unavailable, with the reason (see metal_device.h).
#include <stdexcept>

#include "runtime/metal/metal_device.h"

namespace tritium::runtime::metal {

std::string metal_unavailable_reason() {
#if defined(__APPLE__)
  return "this build has no Metal runtime (metal-cpp was not found when it was configured, or -DTRITIUM_METAL=OFF): "
         "run scripts/install-deps (it fetches metal-cpp), then reconfigure with -DTRITIUM_METAL=ON";
#else
  return "Metal runs only on Apple platforms (macOS); here its MSL programs run in the msl-emu backend "
         "(tritium compile --emit msl shows them)";
#endif
}

std::unique_ptr<Device> make_metal_device() {
  throw std::runtime_error("metal backend: " + metal_unavailable_reason());
}

}  // namespace tritium::runtime::metal
