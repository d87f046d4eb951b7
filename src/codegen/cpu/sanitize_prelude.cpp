// The sanitize-mode checks every checked access of generated code calls (see
// cpu_codegen.h, sanitize_prelude_text). Shared by the cpu prelude and, in sanitize mode, the
// MSL program msl-emu compiles (which defines the same tritium_bounds / tritium_host
// layout, msl_prelude.cpp): one text, one behaviour.
#include "codegen/cpu/cpu_codegen.h"

namespace tritium::codegen::cpu {

const char* sanitize_prelude_text() {
  return R"TRSAN(// ---- sanitize mode (CompileOptions::sanitize): every load and store is checked ---------------
// tr_san_ok: whether the n bytes at p lie in parameter slot `arg`'s buffer (arg < 0: in any
// pointer argument's buffer, for pointers whose argument the renderer could not trace); an
// argument of unknown extent (bytes == UINT64_MAX) passes. tr_san_fail reports the access
// through host->assert_fail ("error: ..." messages are reported as they are; the launch
// raises after it returns, naming the lowest failing program).
TR_INLINE bool tr_san_in(const tritium_bounds* b, const void* p, uint64_t n) {
  if (b->bytes == ~(uint64_t)0) return true;
  const uint64_t lo = (uint64_t)(uintptr_t)b->base, q = (uint64_t)(uintptr_t)p;
  return q >= lo && q - lo <= b->bytes && b->bytes - (q - lo) >= n;
}
TR_INLINE bool tr_san_ok(const tritium_host* h, int arg, int nargs, const void* p, uint64_t n) {
  if (!h->bounds) return true;
  if (arg >= 0) return tr_san_in(&h->bounds[arg], p, n);
  for (int i = 0; i < nargs; ++i)
    if (h->bounds[i].base && tr_san_in(&h->bounds[i], p, n)) return true;
  return false;
}
static __attribute__((noinline, cold)) void tr_san_fail(const tritium_host* h, int arg, const void* p, uint64_t n,
                                                        int kind, const char* what, const char* file, int line,
                                                        const char* func, int32_t x, int32_t y, int32_t z) {
  char buf[512];
  const char* access = kind == 2 ? "atomic" : kind == 1 ? "store" : "load";  // kind: 0 load, 1 store, 2 atomic
  if (arg >= 0) {
    const tritium_bounds* b = &h->bounds[arg];
    snprintf(buf, sizeof buf, "error: sanitize: out-of-bounds %s of %llu bytes through `%s`: byte offset %lld of a "
             "%llu-byte buffer", access, (unsigned long long)n, what,
             (long long)((intptr_t)p - (intptr_t)b->base), (unsigned long long)b->bytes);
  } else {
    snprintf(buf, sizeof buf, "error: sanitize: out-of-bounds %s of %llu bytes through `%s`: address %p is in no "
             "argument's buffer", access, (unsigned long long)n, what, p);
  }
  h->assert_fail(buf, file, line, func, x, y, z);
}

)TRSAN";
}

}  // namespace tritium::codegen::cpu
