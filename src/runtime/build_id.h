// build_id.h - the identity of this build of tritium (cmake/build_id.cmake).
#pragma once

namespace tritium::runtime {

/// SHA-256 (64 hex digits) over the text of every source file of tritium_core, the embedded
/// stdlib and the build files, computed at build time. Two builds from different sources
/// differ; cache entries that skip lowering (cpu backend) are keyed on it.
const char* build_id();

}  // namespace tritium::runtime
