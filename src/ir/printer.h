// Textual form of the IR (`tritium compile --emit ir`, `--dump-after`).
#pragma once
#include <string>

#include "ir/ir.h"

namespace tritium::ir {

/// Prints one function, MLIR-like: `%7 = add %5, %6 : tensor<1024xfp32>`.
std::string print(const Function& fn);
/// Prints every function of the module, separated by blank lines.
std::string print(const Module& m);

}  // namespace tritium::ir
