// A stand-in for the Apple SDK header of this name: the few declarations metal-cpp needs, so
// tests/unit/runtime/metal/metal_device_compiles.sh can type-check the metal backend against
// metal-cpp on a machine without the SDK. Not for linking; nothing here is Apple's text.
#pragma once
#include <stddef.h>
typedef struct objc_class* Class;
typedef struct objc_object { Class isa; }* id;
typedef struct objc_selector* SEL;
typedef signed char BOOL;
typedef struct objc_method* Method;
typedef id (*IMP)(id, SEL, ...);
extern "C" {
SEL sel_registerName(const char*);
Class objc_lookUpClass(const char*);
id objc_getClass(const char*);
id objc_getProtocol(const char*);
BOOL class_respondsToSelector(Class, SEL);
Class object_getClass(id);
}
#define YES ((BOOL)1)
#define NO ((BOOL)0)
