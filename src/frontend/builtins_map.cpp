// tl.map_elementwise(scalar_fn, *args, pack=1) (upstream 3.6 core.py / semantic.py): the
// inputs are broadcast together and `scalar_fn`, a jit function, is called on one element
// of each, so its body may branch on the values (an if on a scalar runs one side only);
// it returns one scalar or a tuple of scalars, and each becomes a tensor of the common shape.
// The IR is one MapElementwise op whose region is that call (ops.def). pack > 1 (several
// elements per call) is refused.
#include <fmt/format.h>

#include "frontend/builtins_impl.h"

namespace tritium::frontend::bi {
namespace {

CValue map_elementwise(BuiltinContext& ctx, CValues args, std::vector<KwArg> kw, SrcLoc loc) {
  for (const KwArg& k : kw) {
    if (k.name != "pack") fail(loc, fmt::format("map_elementwise() got an unexpected keyword argument '{}'", k.name));
    if (k.value->kind != CValue::Kind::Int || k.value->i < 1)
      fail(loc, "map_elementwise pack must be a constexpr int >= 1, got " + k.value->describe());
    if (k.value->i != 1) fail(loc, "tl.map_elementwise with pack > 1 is not supported yet");
  }
  if (args.empty()) fail(loc, "map_elementwise() missing required argument 'scalar_fn'");
  const CValue fn = args[0];
  if (fn.kind != CValue::Kind::JitFn)
    fail(loc, "tl.map_elementwise scalar_fn must be a @triton.jit function, got " + fn.describe());
  if (args.size() < 2) fail(loc, "map_elementwise must have at least 1 input tensor");
  if (!ctx.call_jit) fail(loc, "tl.map_elementwise: no way to call the scalar function here");
  ir::Builder& b = ctx.b;
  std::vector<ir::Value*> in;
  for (size_t i = 1; i < args.size(); ++i) in.push_back(tensor_arg(ctx, args[i], loc, "map_elementwise input"));
  for (size_t i = 1; i < in.size(); ++i) sem::broadcast_pair(b, in[0], in[i], loc);
  for (size_t i = 1; i < in.size(); ++i)
    if (in[i]->type.shape != in[0]->type.shape) in[i] = sem::broadcast_to(b, in[i], in[0]->type.shape, loc);
  for (ir::Value* v : in)
    if (v->type.is_ptr) fail(loc, "tl.map_elementwise of pointers is not supported");
  const std::vector<int64_t> shape = in[0]->type.shape;
  ir::Op* op = b.create(ir::OpKind::MapElementwise, in, {}, loc, {{"pack", int64_t{1}}}, 1);
  CValues region_args;
  for (ir::Value* v : in) region_args.push_back(CValue::of_tensor(b.add_block_arg(op->body(), v->type.element())));
  CValues res;
  {
    ir::InsertionGuard guard(b);
    b.set_insertion_end(&op->body());
    CValue r = ctx.call_jit(fn, region_args, loc);
    res = r.kind == CValue::Kind::Tuple ? r.elems : CValues{r};
    std::vector<ir::Value*> yields;
    for (size_t i = 0; i < res.size(); ++i) {
      ir::Value* y = res[i].kind == CValue::Kind::Tensor ? res[i].tensor : nullptr;
      if (!y && (res[i].kind == CValue::Kind::Int || res[i].kind == CValue::Kind::Float ||
                 res[i].kind == CValue::Kind::Bool))
        y = sem::to_tensor(b, res[i], loc, "map_elementwise result");
      if (!y || !y->type.is_scalar() || y->type.is_ptr)
        fail(loc, fmt::format("tl.map_elementwise scalar_fn must return scalars, got {} for value {}",
                              res[i].describe(), i));
      yields.push_back(y);
    }
    if (yields.empty()) fail(loc, "tl.map_elementwise scalar_fn must return at least one value");
    b.create(ir::OpKind::Yield, yields, {}, loc);
    for (ir::Value* y : yields) b.add_result(op, y->type.with_shape(shape));
  }
  if (op->results.size() == 1) return CValue::of_tensor(op->results[0]);
  CValues out;
  for (ir::Value* r : op->results) out.push_back(CValue::of_tensor(r));
  return CValue::of_tuple(out);
}

}  // namespace

void register_map(Registry& r) { r["map_elementwise"] = map_elementwise; }

}  // namespace tritium::frontend::bi
