"""tritium.language: the names of ``triton.language`` for host code and annotations.

Kernel bodies are never executed by Python: tritium's C++ compiler reads their source.
What Python code around a kernel needs from the language module is here:

* ``constexpr``: the annotation of compile-time parameters (``BLOCK: tl.constexpr``) and
  the wrapper of compile-time globals (``BLOCK = tl.constexpr(128)``; the value is
  ``.value`` and the wrapper behaves like it in host arithmetic);
* the dtypes (``tl.float16``, ``tl.bfloat16``, ``tl.int32``, ...), which host code passes
  as constexpr arguments (``OUT_DTYPE=tl.float16``) and compares;
* every other public name of ``triton.language`` (``load``, ``dot``, ``program_id``, ...,
  and the ``math`` / ``extra.libdevice`` namespaces) as a stub, so ``tl.load`` exists
  for attribute lookups and ``from triton.language import *``; calling one outside a
  kernel raises ``TypeError``, as upstream does for builtins called outside a jit
  function.

Upstream's names: python/triton/language/__init__.py (Triton 3.6).
"""

from __future__ import annotations

import types as _types


class constexpr:
    """A compile-time value: ``tl.constexpr(4)``; as an annotation, a constexpr parameter."""

    _tritium_constexpr = True

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __bool__(self):
        return bool(self.value)

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return self.value == _unwrap(other)

    def __ne__(self, other):
        return self.value != _unwrap(other)

    def __lt__(self, other):
        return self.value < _unwrap(other)

    def __le__(self, other):
        return self.value <= _unwrap(other)

    def __gt__(self, other):
        return self.value > _unwrap(other)

    def __ge__(self, other):
        return self.value >= _unwrap(other)

    def __neg__(self):
        return constexpr(-self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)


def _unwrap(x):
    return x.value if isinstance(x, constexpr) else x


def _binary(op):
    def f(self, other):
        return constexpr(op(self.value, _unwrap(other)))

    def r(self, other):
        return constexpr(op(_unwrap(other), self.value))

    return f, r


import operator as _op  # noqa: E402

for _name, _fn in [("add", _op.add), ("sub", _op.sub), ("mul", _op.mul), ("truediv", _op.truediv),
                   ("floordiv", _op.floordiv), ("mod", _op.mod), ("pow", _op.pow), ("and", _op.and_),
                   ("or", _op.or_), ("xor", _op.xor), ("lshift", _op.lshift), ("rshift", _op.rshift)]:
    _f, _r = _binary(_fn)
    setattr(constexpr, f"__{_name}__", _f)
    setattr(constexpr, f"__r{_name}__", _r)


class dtype:
    """A Triton element type (``tl.float16``). ``name`` is Triton's spelling ("fp16")."""

    def __init__(self, name: str, bits: int, kind: str):
        self.name = name
        self._tritium_dtype = name
        self.primitive_bitwidth = bits
        self._kind = kind  # "int", "uint", "float", "bool"

    def __repr__(self):
        return f"triton.language.{self.name}"

    __str__ = lambda self: self.name  # noqa: E731

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def is_floating(self):
        return self._kind == "float"

    def is_int(self):
        return self._kind in ("int", "uint", "bool")

    def is_int_signed(self):
        return self._kind == "int"

    def is_int_unsigned(self):
        return self._kind == "uint"

    def is_bool(self):
        return self._kind == "bool"

    def is_fp16(self):
        return self.name == "fp16"

    def is_bf16(self):
        return self.name == "bf16"

    def is_fp32(self):
        return self.name == "fp32"

    def is_fp64(self):
        return self.name == "fp64"


int1 = dtype("int1", 1, "bool")
int8 = dtype("int8", 8, "int")
int16 = dtype("int16", 16, "int")
int32 = dtype("int32", 32, "int")
int64 = dtype("int64", 64, "int")
uint8 = dtype("uint8", 8, "uint")
uint16 = dtype("uint16", 16, "uint")
uint32 = dtype("uint32", 32, "uint")
uint64 = dtype("uint64", 64, "uint")
float16 = dtype("fp16", 16, "float")
bfloat16 = dtype("bf16", 16, "float")
float32 = dtype("fp32", 32, "float")
float64 = dtype("fp64", 64, "float")
float8e4nv = dtype("fp8e4nv", 8, "float")
float8e5 = dtype("fp8e5", 8, "float")
float8e4b15 = dtype("fp8e4b15", 8, "float")
float8e4b8 = dtype("fp8e4b8", 8, "float")
float8e5b16 = dtype("fp8e5b16", 8, "float")


class tensor:
    """The type of block values inside a kernel (only for annotations and isinstance)."""


class tensor_descriptor_base:
    """The type of tensor descriptors inside a kernel (annotations and isinstance only)."""


class tensor_descriptor(tensor_descriptor_base):
    """A kernel's tensor descriptor (tl.make_tensor_descriptor, or a host TensorDescriptor
    argument); annotations and isinstance only."""


class pointer_type:
    """The type of pointers, `tl.pointer_type(tl.float16)` (annotations; in kernels the
    compiler reads it)."""

    def __init__(self, element_ty=None, address_space=1, const=False):
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const


class block_type:
    """The type of blocks, `tl.block_type(tl.float32, [128])` (annotations only)."""

    def __init__(self, element_ty=None, shape=()):
        self.element_ty = element_ty
        self.shape = list(shape)


class _Builtin:
    """A name of the Triton language; callable only inside a kernel (the compiler reads it)."""

    def __init__(self, qualname: str):
        self.__name__ = qualname.rsplit(".", 1)[-1]
        self.__qualname__ = qualname

    def __repr__(self):
        return f"<triton.language builtin {self.__qualname__}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__qualname__} is a Triton-language builtin: it can only be called inside a "
                        "@triton.jit function, which tritium compiles")


# Public functions of triton.language (upstream's __all__, 3.6).
_FUNCTIONS = [
    "abs", "advance", "arange", "argmax", "argmin", "associative_scan", "assume", "atomic_add", "atomic_and",
    "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor", "broadcast",
    "broadcast_to", "cast", "cat", "cdiv", "ceil", "clamp", "cos", "cumprod", "cumsum", "debug_barrier",
    "device_assert", "device_print", "div_rn", "dot", "dot_scaled", "erf", "exp", "exp2", "expand_dims",
    "fdiv", "flip", "floor", "fma", "full", "gather", "histogram", "inline_asm_elementwise", "interleave",
    "join", "load", "load_tensor_descriptor", "log", "log2", "make_block_ptr", "make_tensor_descriptor",
    "map_elementwise", "max", "max_constancy", "max_contiguous", "maximum", "min", "minimum", "multiple_of",
    "num_programs", "permute", "program_id", "rand", "rand4x", "randint", "randint4x", "randn", "randn4x",
    "range", "ravel", "reduce", "reduce_or", "reshape", "rsqrt", "sigmoid", "sin", "softmax", "sort", "split",
    "sqrt", "sqrt_rn", "static_assert", "static_print", "static_range", "store", "store_tensor_descriptor",
    "sum", "swizzle2d", "topk", "trans", "umulhi", "view", "where", "xor_sum", "zeros", "zeros_like",
    "pair_uniform_to_normal", "philox", "philox_impl", "uint_to_uniform_float",
]
for _n in _FUNCTIONS:
    globals()[_n] = _Builtin(f"triton.language.{_n}")

_MATH = ["umulhi", "exp", "exp2", "fma", "log", "log2", "cos", "rsqrt", "sin", "sqrt", "sqrt_rn", "abs", "fdiv",
         "div_rn", "erf", "floor", "ceil"]
math = _types.ModuleType("triton.language.math", "Triton's math namespace (tl.math); kernel-only builtins.")
for _n in _MATH:
    setattr(math, _n, _Builtin(f"triton.language.math.{_n}"))


class _LibdeviceModule(_types.ModuleType):
    """libdevice: every name resolves (the compiler refuses those it cannot compute)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Builtin(f"triton.language.extra.libdevice.{name}")


extra = _types.ModuleType("triton.language.extra", "Triton's extra namespace (libdevice).")
extra.libdevice = _LibdeviceModule("triton.language.extra.libdevice")
extra.cuda = _types.ModuleType("triton.language.extra.cuda")
extra.cuda.libdevice = extra.libdevice

_DTYPES = ["int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "bfloat16", "float32", "float64", "float8e4nv", "float8e5", "float8e4b15", "float8e4b8",
           "float8e5b16"]

__all__ = ["constexpr", "dtype", "tensor", "tensor_descriptor", "tensor_descriptor_base", "pointer_type",
           "block_type", "math", "extra"] + _DTYPES + _FUNCTIONS

# triton.language.core: upstream's module that defines these names (scripts import
# `triton.language.core` for tl.tensor, dtypes and the builtins); here the same namespace.
import sys as _sys  # noqa: E402

core = _sys.modules[__name__]
