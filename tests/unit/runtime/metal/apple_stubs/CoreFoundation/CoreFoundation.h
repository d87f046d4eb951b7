// A stand-in for the Apple SDK header of this name: the few declarations metal-cpp needs, so
// tests/unit/runtime/metal/metal_device_compiles.sh can type-check the metal backend against
// metal-cpp on a machine without the SDK. Not for linking; nothing here is Apple's text.
#pragma once
#include <stdint.h>
#include <stddef.h>
#include <math.h>
#include <dispatch/dispatch.h>
typedef const void* CFTypeRef;
typedef const struct __CFString* CFStringRef;
typedef long CFIndex;
typedef unsigned long CFHashCode;
typedef unsigned long CFOptionFlags;
typedef double CFTimeInterval;
typedef struct { CFIndex location; CFIndex length; } CFRange;
typedef unsigned int CFStringEncoding;
extern "C" CFTypeRef CFRetain(CFTypeRef);
extern "C" void CFRelease(CFTypeRef);
