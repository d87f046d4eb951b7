// CPU renderer: ops whose element positions come from values — tl.gather and tl.histogram
// (semantics: interpreter.h). Both fill an array in one loop nest over their index / input
// tensor; the values they read may be virtual (computed at the gathered position).
#include <fmt/format.h>

#include "codegen/cpu/cpu_emitter.h"

namespace tritium::codegen::cpu {

using ir::Op;
using ir::Value;

// out[.., i, ..] = src[.., index[.., i, ..], ..]; an index outside [0, n) reads position 0
// instead (never outside src) and stores all-zero bits.
void Emitter::emit_gather(const Op& op) {
  const Value* src = op.operands[0];
  const Value* index = op.operands[1];
  const Value* r = op.results[0];
  const int64_t axis = op.attr_int("axis", -1);
  const int rank = src->type.rank();
  if (rank == 0 || index->type.rank() != rank || axis < 0 || axis >= rank)
    refuse(op, "source and index ranks or the axis do not fit");
  const int64_t n = src->type.shape[axis];
  const std::string out = declare_array(r->type, "v");
  loop_nest(r->type.shape, [&](const Idx& i) {
    const std::string k = fresh("k"), ok = fresh("ok"), g = fresh("g");
    // (int64_t) of a uint64 index >= 2^63 is negative: out of range, as in the interpreter.
    line(fmt::format("const int64_t {} = (int64_t)({});", k, elem(index, i)));
    line(fmt::format("const bool {0} = {1} >= 0 && {1} < {2};", ok, k, n));
    line(fmt::format("const int64_t {0} = {1} ? {2} : 0;", g, ok, k));
    Idx at;
    at.dims = dims_of(i, r->type.shape);
    at.dims.at(axis) = g;
    const std::string v = elem(src, at);
    line(fmt::format("{}[{}] = {} ? {} : {};", out, i.lin, ok, v, zero_of(r->type.element())));
  });
  bind(r, out, Storage::Array);
}

// counts[b] = number of unmasked elements equal to b in [0, num_bins); others not counted.
void Emitter::emit_histogram(const Op& op) {
  const Value* input = op.operands[0];
  const Value* mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value* r = op.results[0];
  if (input->type.rank() != 1 || r->type.rank() != 1) refuse(op, "histogram of a tensor that is not 1-D");
  const std::string out = declare_array(r->type, "v");
  line(fmt::format("memset({}, 0, {});", out, bytes_of(r->type)));
  loop_nest(input->type.shape, [&](const Idx& i) {
    // Both operands are read before the test: their temporaries must not be scoped by it.
    const std::string x = elem(input, i);
    const std::string m = mask ? elem(mask, i) : "";
    const std::string h = fresh("h");
    line(fmt::format("const int64_t {} = (int64_t)({});", h, x));  // uint64 >= 2^63: negative
    line(fmt::format("if ({}{} >= 0 && {} < {}) ++{}[{}];", mask ? "(" + m + ") && " : "", h, h, r->type.shape[0], out,
                     h));
  });
  bind(r, out, Storage::Array);
}

}  // namespace tritium::codegen::cpu
