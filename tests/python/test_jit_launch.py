"""kernel[grid](...) from Python on the cpu backend: numpy arrays, DLPack objects, scalars,
grids as tuples and callables, constexpr parameters, specialization and warmup.

References are float64 numpy computations; outputs are poisoned with NaN before each
launch (NaN never compares equal, so an unwritten element fails). Tolerance: none. The
kernels do one IEEE operation per element (an fp32 or fp16 add, an fp32 multiply), which
is correctly rounded, and float64 holds the exact sum / product of two fp32 or fp16
values' roundings closely enough (53 >= 2 * 24 + 2 bits) that rounding the float64
result once to the element type gives the same correctly rounded value: outputs must equal
the reference bit for bit.
"""

import numpy as np
import pytest

import tritium

from conftest import poisoned

ADD_SRC = """
import tritium
import tritium.language as tl


@tritium.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@tritium.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr = 256):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)


@tritium.jit
def optional_bias_kernel(x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if bias_ptr is not None:
        x += tl.load(bias_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)
"""


@pytest.fixture
def kernels(write_module):
    return write_module("kernels_add", ADD_SRC)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [1, 1000, 4099])
def test_vector_add_numpy(kernels, rng, dtype, n):
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    out = poisoned(n, dtype)
    k = kernels.add_kernel[(tritium.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    ref = (x.astype(np.float64) + y.astype(np.float64)).astype(dtype)  # one rounding: exact
    assert not np.isnan(out).any()
    np.testing.assert_array_equal(out, ref)
    assert k.backend == "cpu"
    assert k.name == "add_kernel"
    assert "BLOCK=1024" in k.signature


def test_grid_callable_sees_arguments_and_constexprs(kernels, rng):
    n = 3000
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (tritium.cdiv(meta["n"], meta["BLOCK"]),)

    k = kernels.add_kernel[grid](x, y, out, n, BLOCK=512)
    assert seen["n"] == n and seen["BLOCK"] == 512 and seen["num_warps"] == 4
    assert seen["x_ptr"] is x  # tensors by name, as upstream's META
    assert k.grid == (6, 1, 1)
    np.testing.assert_array_equal(out, (x.astype(np.float64) + y).astype(np.float32))


def test_keyword_arguments_and_defaults(kernels, rng):
    n = 700
    x = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    alpha = 0.3
    k = kernels.scale_kernel[(tritium.cdiv(n, 256),)](x_ptr=x, out_ptr=out, n=n, alpha=alpha)
    assert "BLOCK=256" in k.signature  # the source's default
    # fp32 multiply by the fp32 rounding of alpha (Triton passes a Python float as fp32).
    ref = (x.astype(np.float64) * np.float64(np.float32(alpha))).astype(np.float32)
    np.testing.assert_array_equal(out, ref)


def test_none_for_an_optional_pointer(kernels, rng):
    n = 513
    x = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    k_none = kernels.optional_bias_kernel[(3,)](x, None, out, n, BLOCK=256)
    np.testing.assert_array_equal(out, x)
    out2 = poisoned(n, np.float32)
    k_bias = kernels.optional_bias_kernel[(3,)](x, b, out2, n, BLOCK=256)
    np.testing.assert_array_equal(out2, (x.astype(np.float64) + b).astype(np.float32))
    assert "None" in k_none.signature and "None" not in k_bias.signature


def test_specialization_on_ints_and_alignment(kernels, rng):
    x = rng.standard_normal(64).astype(np.float32)
    y = rng.standard_normal(64).astype(np.float32)
    out = poisoned(64, np.float32)
    s16 = kernels.add_kernel[(1,)](x, y, out, 64, BLOCK=64).signature
    s1 = kernels.add_kernel[(1,)](x, y, out, 1, BLOCK=64).signature
    s7 = kernels.add_kernel[(1,)](x, y, out, 7, BLOCK=64).signature
    assert s16.split(", ")[3] == "i32:16"
    assert s1.split(", ")[3] == "i32:1"
    assert s7.split(", ")[3] == "i32"
    # A pointer 4 bytes past a 16-byte boundary is not specialized as aligned.
    base = np.zeros(80, dtype=np.float32)
    assert base.ctypes.data % 16 == 0 or pytest.skip("numpy array not 16-byte aligned")
    sig = kernels.add_kernel[(1,)](base[1:65], y, out, 64, BLOCK=64).signature
    assert sig.split(", ")[0] == "*fp32"


def test_repeated_launches_pick_the_right_specialization(kernels, rng, monkeypatch):
    """Launches alternate between specializations (int == 1, % 16, other; aligned and
    unaligned pointers; another BLOCK, num_warps, numerics): each launch computes its own
    result and reports its own signature and meta, and a repeated launch adds no cache entry."""
    k = kernels.add_kernel
    base = np.zeros(80, dtype=np.float32)
    if base.ctypes.data % 16 != 0:
        pytest.skip("numpy array not 16-byte aligned")
    seen = set()
    cases = [(64, 0, 64, 4, None), (1, 0, 64, 4, None), (7, 0, 64, 4, None), (64, 1, 64, 4, None),
             (48, 0, 16, 4, None), (48, 0, 16, 8, None), (48, 0, 16, 8, "portable")]
    for n, off, block, warps, numerics in cases * 2:
        if numerics:
            monkeypatch.setenv("TRITIUM_NUMERICS", numerics)
        else:
            monkeypatch.delenv("TRITIUM_NUMERICS", raising=False)
        x = base.copy()
        x[:] = rng.standard_normal(80).astype(np.float32)
        x = x[off:off + 64]
        y = rng.standard_normal(64).astype(np.float32)
        out = poisoned(64, np.float32)
        before = len(k._launch_cache)
        ck = k[(tritium.cdiv(n, block),)](x, y, out, n, BLOCK=block, num_warps=warps)
        np.testing.assert_array_equal(out[:n], (x[:n].astype(np.float64) + y[:n]).astype(np.float32))
        assert np.isnan(out[n:]).all()  # nothing past n written
        sig = ck.signature.split(", ")
        assert sig[0] == ("*fp32:16" if off == 0 else "*fp32")
        assert sig[3] == ("i32:1" if n == 1 else "i32:16" if n % 16 == 0 else "i32")
        assert ck.metadata["n"] == n and ck.metadata["BLOCK"] == block and ck.metadata["num_warps"] == warps
        key = (n == 1, n % 16 == 0, off, block, warps, numerics)
        assert len(k._launch_cache) == before + (key not in seen)
        seen.add(key)


def test_read_only_arrays_are_accepted_as_inputs(kernels, rng):
    x = rng.standard_normal(64).astype(np.float32)
    ro = np.frombuffer(x.tobytes(), np.float32)  # read-only
    y = np.broadcast_to(np.float32(0.5), (64,))  # read-only and stride 0: not contiguous
    y = np.ascontiguousarray(y)
    y.flags.writeable = False
    out = poisoned(64, np.float32)
    kernels.add_kernel[(1,)](ro, y, out, 64, BLOCK=64)
    np.testing.assert_array_equal(out, (x.astype(np.float64) + 0.5).astype(np.float32))


def test_int64_arguments_are_i64(kernels, rng):
    x = rng.standard_normal(8).astype(np.float32)
    out = poisoned(8, np.float32)
    # n larger than int32: masks keep the 8 real elements only if n is passed as i64 and the
    # grid covers just them (the kernel reads offsets < n, all of which exist here).
    sig = kernels.scale_kernel[(1,)](x, out, 8, 2.0, BLOCK=8).signature
    assert sig.split(", ")[2] == "i32"
    big = kernels.scale_kernel.warmup(x, out, 2**40, 2.0, BLOCK=8, grid=(1,)).signature
    assert big.split(", ")[2] == "i64:16"


class DLPackOnly:
    """An object that offers only the DLPack protocol (as CuPy or JAX arrays do)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, *args, **kwargs):
        return self._a.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_dlpack_objects_zero_copy(kernels, rng):
    n = 2000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    kernels.add_kernel[(2,)](DLPackOnly(x), DLPackOnly(y), DLPackOnly(out), n, BLOCK=1024)
    # The kernel wrote into `out`'s own memory: no copy was made.
    np.testing.assert_array_equal(out, (x.astype(np.float64) + y).astype(np.float32))


def test_warmup_compiles_without_launching(kernels, rng):
    n = 100
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    k = kernels.add_kernel.warmup(x, y, out, n, BLOCK=128, grid=(1,))
    assert np.isnan(out).all()  # nothing ran
    assert "ir" in k.asm and "cpp" in k.asm
    assert "add_kernel" in k.asm["cpp"]
    assert "tt.load" in k.asm["ir"] or "load" in k.asm["ir"]
    assert list(k.asm) == ["ir", "cpp"]
    with pytest.raises(KeyError, match="ir, cpp"):
        k.asm["ptx"]  # the cpu backend has no PTX


def test_calling_a_kernel_directly_is_an_error(kernels):
    with pytest.raises(RuntimeError, match=r"launch it as add_kernel\[grid\]"):
        kernels.add_kernel(1, 2, 3, 4, BLOCK=8)


def test_interp_backend_gives_the_same_bits(kernels, rng):
    n = 999
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    a, b = poisoned(n, np.float32), poisoned(n, np.float32)
    kernels.add_kernel[(1,)](x, y, a, n, BLOCK=1024)
    tritium.set_backend("interp")
    try:
        k = kernels.add_kernel[(1,)](x, y, b, n, BLOCK=1024)
    finally:
        tritium.set_backend(None)
    assert k.backend == "interp"
    np.testing.assert_array_equal(a, b)


SOFTMAX_SRC = """
import tritium
import tritium.language as tl


@tritium.jit
def softmax_rows(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n + offs, e / tl.sum(e, axis=0), mask=m)
"""


def test_msl_emu_backend_runs_the_emitted_metal_source(write_module, rng):
    # The Metal shading language tritium emits (threadgroups of 128 threads), compiled as C++
    # and run on the CPU on the caller's numpy arrays: in portable numerics the interpreter's
    # bits; in either numerics softmax within fp32 rounding of a float64 reference (native
    # sums the row in another order: still n roundings of 2^-24 at most, inside the bound).
    # Bound per element, relative: the rounding of d = x - max(x) (half an ulp of d, which
    # exp turns into |d| * 2^-24 relative) plus exp (< 1 ulp), the row sum's accumulated
    # roundings and the division (a few 2^-24): (|d| + 4) * 2^-23.
    mod = write_module("kernels_softmax_msl", SOFTMAX_SRC)
    rows, n = 7, 300
    x = (rng.standard_normal((rows, n)) * 3).astype(np.float32)
    xd = x.astype(np.float64)
    d = xd - xd.max(axis=1, keepdims=True)
    ref = np.exp(d) / np.exp(d).sum(axis=1, keepdims=True)
    bound = (np.abs(d) + 4) * 2.0 ** -23
    outs = {}
    for numerics in ("portable", "native"):
        for backend in ("msl-emu", "interp"):
            out = poisoned(rows * n, np.float32)
            tritium.set_backend(backend)
            tritium.set_numerics(numerics)
            try:
                k = mod.softmax_rows[(rows,)](x, out, n, BLOCK=512)
            finally:
                tritium.set_backend(None)
                tritium.set_numerics(None)
            if backend == "msl-emu":
                assert k.backend == "msl-emu"
                assert "kernel void tritium_kernel(" in k.asm["msl"]
                assert "Threadgroups of 128 threads" in k.asm["msl"]
            outs[(numerics, backend)] = out
    np.testing.assert_array_equal(outs[("portable", "msl-emu")], outs[("portable", "interp")])
    for numerics in ("portable", "native"):
        a = outs[(numerics, "msl-emu")]
        assert not np.isnan(a).any()
        rel = np.abs(a.reshape(rows, n) - ref) / ref
        assert (rel <= bound).all(), (numerics, (rel / bound).max())


BOOL_SRC = """
import tritium
import tritium.language as tl


@tritium.jit
def select_kernel(x_ptr, out_ptr, n, negate, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if negate:
        x = -x
    tl.store(out_ptr + offs, x, mask=m)
"""


@pytest.mark.parametrize("negate", [True, False])
def test_bool_arguments_are_i1(write_module, rng, negate):
    mod = write_module("bool_mod", BOOL_SRC)
    x = rng.standard_normal(100).astype(np.float32)
    out = poisoned(100, np.float32)
    k = mod.select_kernel[(1,)](x, out, 100, negate, BLOCK=128)
    assert k.signature.split(", ")[3] == "i1"  # as Triton: no :1 / :16 for a bool
    np.testing.assert_array_equal(out, -x if negate else x)
