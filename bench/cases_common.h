// cases_common.h - helpers shared by the per-kernel case files (cases_*.cpp); internal to
// the bench library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host_dtype.h"
#include "suite.h"

namespace tritium::bench::detail {

/// The dtypes every suite kernel is benchmarked in.
inline constexpr HostDtype kAllDtypes[] = {HostDtype::F32, HostDtype::F16, HostDtype::BF16};

/// Bytes of each array of the large memory-bound cases: 64 MiB, i.e. several times the
/// last-level cache of the machines we target (32 MiB on the CI-class EPYC), so the
/// kernels stream from memory rather than from cache.
inline constexpr int64_t kLargeArrayBytes = int64_t{64} << 20;

/// ceil(a / b) for positive b.
inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The smallest power of two >= v (v >= 1).
int64_t next_pow2(int64_t v);

/// A pointer entry of an AOT signature: "*fp16:16" when `aligned16`, else "*fp16".
std::string ptr_spec(HostDtype t, bool aligned16 = true);

/// An integer entry specialized the way Triton's JIT specializes a runtime argument:
/// "i32:1" for 1, "i32:16" for multiples of 16, "i32" otherwise ("i64" past int32).
std::string int_spec(int64_t v);

/// The id "kernel/dtype/shape".
std::string case_id(const std::string& kernel, HostDtype t, const std::string& shape);

/// Element-wise absolute values.
std::vector<double> abs_values(const std::vector<double>& v);

/// Appends the vector_add and swiglu (flat and rows) cases.
void add_elementwise_cases(std::vector<Case>& out);
/// Appends the softmax (single-pass and online), rmsnorm and layernorm cases.
void add_rowwise_cases(std::vector<Case>& out);
/// Appends the matmul cases.
void add_matmul_cases(std::vector<Case>& out);
/// Appends the attention cases (full and causal, head dims 64 and 128).
void add_attention_cases(std::vector<Case>& out);

}  // namespace tritium::bench::detail
