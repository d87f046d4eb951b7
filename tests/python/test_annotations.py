"""Parameter type annotations force the argument's type, as upstream's JIT does
(triton/runtime/jit.py, KernelParam.annotation_type): `n: tl.int64` is an i64 even for a
value that fits i32, `x: tl.float64` an fp64 (not the fp32 a Python float becomes), an
annotated int is never specialized as the constant 1, and `x_ptr: "*fp32"` views any tensor
as fp32. Expected values are computed here in float64 from the inputs."""

import numpy as np
import pytest

import tritium

SRC = """
import triton
import triton.language as tl


@triton.jit
def typed(out, n: tl.int64, x: tl.float64, h: tl.float16, m: tl.int32, s: "i64", b: bool, f: float):
    tl.store(out + 0, (n + 1).to(tl.float64))
    tl.store(out + 1, x.to(tl.float64))
    tl.store(out + 2, h.to(tl.float64))
    tl.store(out + 3, ((m - 8) // 2).to(tl.float64))
    tl.store(out + 4, (s * 3).to(tl.float64))
    tl.store(out + 5, b.to(tl.float64))
    tl.store(out + 6, f.to(tl.float64))


@triton.jit
def view(x_ptr: "*fp32", o, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(o + i, tl.load(x_ptr + i, mask=i < n), mask=i < n)


@triton.jit
def const_ptr(x_ptr: "const *fp16", o):
    tl.store(o, tl.load(x_ptr).to(tl.float32))
"""


def test_scalar_annotations_force_the_type(as_triton, write_module, rng):
    m = write_module("annot_mod", SRC)
    x = float(rng.uniform(0.1, 0.9))  # not representable in fp32 or fp16
    big = 2**31 - 1  # fits i32; n + 1 does not
    out = np.full(7, np.nan)
    c = m.typed[(1,)](out, big, x, x, 1, 3, True, x)
    assert c.signature.split(", ")[1:] == ["i64", "fp64", "fp16", "i32", "i64", "i1", "fp32"]
    half = float(np.float16(x))  # the one rounding of x to fp16 (RNE)
    want = [big + 1.0, x, half, float(int((1 - 8) / 2)), 9.0, 1.0, float(np.float32(x))]
    assert out.tolist() == want  # exact: each value is one rounding of exact inputs


def test_pointer_annotations_view_the_memory(as_triton, write_module, rng):
    m = write_module("annot_ptr_mod", SRC)
    f = rng.standard_normal(37).astype(np.float32)
    bits = f.view(np.int32)  # an int32 tensor holding fp32 bit patterns
    out = np.full(37, np.nan, np.float32)
    m.view[(1,)](bits, out, 37, BLOCK=64)
    assert np.array_equal(out, f)  # bits reinterpreted, not the ints converted
    h = rng.standard_normal(1).astype(np.float16)
    o = np.full(1, np.nan, np.float32)
    m.const_ptr[(1,)](h.view(np.uint16), o)
    assert o[0] == np.float32(h[0])


def test_an_annotation_the_argument_cannot_take_is_refused(as_triton, write_module):
    m = write_module("annot_bad_mod", SRC)
    with pytest.raises(tritium.TritiumError, match=r"argument 'x_ptr' is annotated '\*fp32' but got"):
        m.view[(1,)](3, np.zeros(4, np.float32), 4, BLOCK=4)
    with pytest.raises(tritium.TritiumError, match=r"argument 'n' is annotated 'i64' but got float"):
        m.typed[(1,)](np.zeros(7), 1.5, 0.1, 0.1, 1, 3, True, 0.5)
    with pytest.raises(tritium.TritiumError, match=r"out of range of i32"):
        m.typed[(1,)](np.zeros(7), 1, 0.1, 0.1, 2**31, 3, True, 0.5)


def test_annotations_are_read_from_the_objects_python_holds(as_triton, write_module):
    """The annotation objects decide, as upstream reads them: an alias of a dtype
    (`IDX = tl.int64`) forces i64; under `from __future__ import annotations` the
    annotation is the string "language.int64", which upstream does not recognise (only a
    "tl." prefix is stripped), so the argument keeps its own type; "*kfp16" is a const fp16
    pointer."""
    m = write_module("annot_alias_mod", """
import triton
import triton.language as tl

IDX = tl.int64


@triton.jit
def scaled(out, n: IDX):
    tl.store(out, n * 100000)


@triton.jit
def kview(x_ptr: "*kfp16", out):
    tl.store(out, tl.load(x_ptr).to(tl.float32))
""")
    out = np.zeros(1, np.int64)
    c = m.scaled[(1,)](out, 100000)
    assert c.signature.split(", ")[1].startswith("i64") and out[0] == 100000 * 100000
    h = np.array([1.5], np.float16)
    o = np.full(1, np.nan, np.float32)
    m.kview[(1,)](h.view(np.uint16), o)
    assert o[0] == 1.5

    f = write_module("annot_future_mod", """
from __future__ import annotations

import triton
import triton.language as language


@triton.jit
def scaled(out, n: language.int64):
    tl_n = n
    language.store(out, tl_n * 100000)
""")
    out32 = np.zeros(1, np.int32)
    c = f.scaled[(1,)](out32, 100000)
    assert c.signature.split(", ")[1].startswith("i32")  # upstream: no type from "language.int64"
    assert out32[0] == (100000 * 100000 + 2**31) % 2**32 - 2**31  # i32 arithmetic wraps
