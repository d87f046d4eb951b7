// A stand-in for the Apple SDK header of this name: the few declarations metal-cpp needs, so
// tests/unit/runtime/metal/metal_device_compiles.sh can type-check the metal backend against
// metal-cpp on a machine without the SDK. Not for linking; nothing here is Apple's text.
#pragma once
#include <stddef.h>
typedef struct dispatch_data_s* dispatch_data_t;
typedef struct dispatch_queue_s* dispatch_queue_t;
typedef void (^dispatch_block_t)(void);
extern "C" dispatch_data_t dispatch_data_create(const void*, size_t, dispatch_queue_t, dispatch_block_t);
extern "C" void dispatch_release(void*);
#define DISPATCH_DATA_DESTRUCTOR_DEFAULT nullptr
