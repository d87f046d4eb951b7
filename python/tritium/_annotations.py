"""Parameter annotations as upstream Triton's JIT reads them (triton/runtime/jit.py,
_normalize_ty and KernelParam.annotation_type): the type a runtime parameter's
annotation forces on its argument."""

import inspect


def _is_dtype(x) -> bool:
    from .language import dtype

    return isinstance(x, dtype)


# Upstream's canonical names of the dtype / type names an annotation may spell
# (triton/_utils.py), in tritium's spelling (bools are "i1"; formats tritium lacks keep
# their name and are refused when used).
_CANONICAL_TYPES = {
    "bool": "i1", "int1": "i1", "uint1": "i1", "i1": "i1", "u1": "i1",
    "float8e4nv": "fp8e4nv", "float8_e4m3fn": "fp8e4nv", "float8e5": "fp8e5", "float8_e5m2": "fp8e5",
    "float8e4b15": "fp8e4b15", "float8e4b8": "fp8e4b8", "float8_e4m3fnuz": "fp8e4b8", "float8e5b16": "fp8e5b16",
    "float8_e5m2fnuz": "fp8e5b16", "half": "fp16", "float16": "fp16", "bfloat16": "bf16", "float": "fp32",
    "float32": "fp32", "double": "fp64", "float64": "fp64", "int8": "i8", "int16": "i16", "int": "i32",
    "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
}
_CANONICAL_TYPES.update({v: v for v in list(_CANONICAL_TYPES.values())})


def _normalized_annotation(ty) -> str:
    """An annotation object as upstream's JIT reads it (runtime/jit.py, _normalize_ty): a
    string is parsed for `const `, a leading or trailing `*` and a `tl.` prefix; a pointer
    type gives "*" and its element; a dtype its name; a Python type its __name__; anything
    else its str(); names then canonicalised. Const pointers come back as "*k<type>"."""
    if isinstance(ty, str):
        ty = ty.strip()
        if ty.startswith("const "):
            inner = _normalized_annotation(ty[len("const"):])
            return "*k" + inner[1:] if inner.startswith("*") else ""
        if ty.endswith("*"):
            return "*" + _normalized_annotation(ty[:-1])
        if ty.startswith("*"):
            return "*" + _normalized_annotation(ty[1:])
        if ty.startswith("tl."):
            return _normalized_annotation(ty[3:])
    elif type(ty).__name__ == "pointer_type" and hasattr(ty, "element_ty"):
        return "*" + _normalized_annotation(ty.element_ty)
    elif _is_dtype(ty):
        ty = ty.name
    elif isinstance(ty, type):
        ty = ty.__name__
    else:
        ty = str(ty)
    return _CANONICAL_TYPES.get(ty.replace("_t", ""), ty)


def annotation_type(annotation) -> str:
    """The type a runtime parameter's annotation forces, as upstream's
    KernelParam.annotation_type ("" for none): "i64", "fp32", "*fp16" (const pointers as
    plain ones)."""
    if annotation is inspect.Parameter.empty or not annotation:
        return ""
    a = _normalized_annotation(annotation)
    ptr = a.startswith("*")
    base = a[2:] if a.startswith("*k") else a[1:] if ptr else a
    if base not in _CANONICAL_TYPES.values():
        return ""
    return "*" + base if ptr else base
