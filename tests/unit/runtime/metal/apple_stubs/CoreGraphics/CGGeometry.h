// A stand-in for the Apple SDK header of this name: the few declarations metal-cpp needs, so
// tests/unit/runtime/metal/metal_device_compiles.sh can type-check the metal backend against
// metal-cpp on a machine without the SDK. Not for linking; nothing here is Apple's text.
#pragma once
typedef double CGFloat; struct CGSize { CGFloat width, height; };
