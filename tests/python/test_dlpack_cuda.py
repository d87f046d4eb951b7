"""Launches on the cuda backend with CUDA-resident DLPack tensors other than torch's: CuPy
arrays and JAX arrays (issue 5: "any object with __dlpack__ ... with zero copies"); and the
PTX in a cuda kernel's asm.

Skipped unless the cuda backend is available and the library is importable (the H200
image has both; CI has neither). Zero copy: the output is a CuPy array written in place by
the kernel (a copy would leave it poisoned), and one launch writes its result into its own
input (a copied input would leave the array unchanged). Reference: float64 on the
host; the kernel does one fp32 add per element, correctly rounded, so the output must equal
the float64 sum rounded to fp32 bit for bit.
"""

import numpy as np
import pytest

import tritium

from conftest import ADD_KERNEL_SRC


def cuda_available():
    return any(name == "cuda" and ok for name, ok, _ in tritium.backend.backends())


pytestmark = pytest.mark.skipif(not cuda_available(), reason="the cuda backend is unavailable here")


@pytest.fixture
def kernels(write_module):
    return write_module("kernels_dlpack_cuda", ADD_KERNEL_SRC)


def reference(x, y):
    return (x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)


def host_inputs(rng, n):
    return rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


def add_into_cupy(kernels, cp, x, y, n, hx, hy):
    """Launches add_kernel on x, y into a poisoned CuPy output and checks it bit for bit."""
    out = cp.full(n, cp.nan, dtype=cp.float32)
    ck = kernels.add_kernel[(tritium.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    tritium.synchronize()
    assert ck.backend == "cuda"
    np.testing.assert_array_equal(cp.asnumpy(out), reference(hx, hy))


def test_cupy_arrays(kernels, rng):
    cp = pytest.importorskip("cupy")
    n = 5000
    hx, hy = host_inputs(rng, n)
    add_into_cupy(kernels, cp, cp.asarray(hx), cp.asarray(hy), n, hx, hy)


def test_cupy_in_place(kernels, rng):
    cp = pytest.importorskip("cupy")
    n = 2048
    hx, hy = host_inputs(rng, n)
    x, y = cp.asarray(hx), cp.asarray(hy)
    kernels.add_kernel[(2,)](x, y, x, n, BLOCK=1024)  # x += y, through the same memory
    tritium.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(x), reference(hx, hy))


def test_jax_arrays(kernels, rng):
    jax = pytest.importorskip("jax")
    cp = pytest.importorskip("cupy")
    gpus = [d for d in jax.devices() if d.platform == "gpu"]
    if not gpus:
        pytest.skip("JAX sees no GPU")
    n = 3000
    hx, hy = host_inputs(rng, n)
    # JAX arrays are immutable: the output is CuPy's.
    add_into_cupy(kernels, cp, jax.device_put(hx, gpus[0]), jax.device_put(hy, gpus[0]), n, hx, hy)


def test_asm_has_the_ptx(kernels, rng):
    cp = pytest.importorskip("cupy")
    x = cp.asarray(rng.standard_normal(64).astype(np.float32))
    out = cp.full(64, cp.nan, dtype=cp.float32)
    ck = kernels.add_kernel.warmup(x, x, out, 64, BLOCK=64, grid=(1,))
    assert list(ck.asm) == ["ir", "cuda", "ptx"]
    assert "__global__" in ck.asm["cuda"]
    assert ".entry" in ck.asm["ptx"] and ".target sm_" in ck.asm["ptx"]


def test_host_and_cuda_tensors_mixed_is_an_error(kernels, rng):
    cp = pytest.importorskip("cupy")
    x = cp.asarray(rng.standard_normal(64).astype(np.float32))
    y = rng.standard_normal(64).astype(np.float32)
    out = cp.full(64, cp.nan, dtype=cp.float32)
    with pytest.raises(ValueError, match="y_ptr"):
        kernels.add_kernel[(1,)](x, y, out, 64, BLOCK=64)
