"""The host APIs the official tutorials use around a compiled kernel (02-fused-softmax's
occupancy arithmetic): driver.active.utils.get_device_properties, get_current_target,
kernel.warmup(...) -> CompiledKernel with _init_handles / n_regs / n_spills /
metadata.shared, and CompiledKernel[grid](*all_args) launching that specialization.

Reference: float64 numpy softmax. Tolerance: the kernel computes in fp32 with tl.exp and a
tree sum over <= 128 terms; rtol 1e-5 / atol 1e-7 is ~100 fp32 ulps of a value in (0, 1],
far above that error and far below any indexing or masking bug (which changes values by
O(1/n_cols) or leaves the NaN poison). Outputs are NaN-poisoned before each launch.
"""

import numpy as np
import pytest

import tritium

from conftest import ADD_KERNEL_SRC, poisoned

SOFTMAX = """
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask, other=-float('inf'))
        num = tl.exp(row - tl.max(row, axis=0))
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, num / tl.sum(num, axis=0), mask=mask)
"""


def ref_softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.fixture
def on_cpu():
    """numpy arrays launch on cpu: the device queries must describe that backend too."""
    tritium.set_backend("cpu")
    yield
    tritium.set_backend(None)


def test_tutorial_occupancy_arithmetic_and_compiled_launch(as_triton, write_module, rng, on_cpu):
    import triton
    from triton.runtime import driver

    mod = write_module("softmax_ck_mod", SOFTMAX)
    props = driver.active.utils.get_device_properties(0)
    for key in ("multiprocessor_count", "max_num_regs", "max_shared_mem", "warpSize"):
        assert isinstance(props[key], int) and props[key] > 0, key
    target = triton.runtime.driver.active.get_current_target()
    assert target.backend == tritium.backend.device_backend() and target.warp_size == props["warpSize"]

    n_rows, n_cols, num_warps = 37, 100, 8
    x = rng.standard_normal((n_rows, n_cols)).astype(np.float32)
    y = poisoned((n_rows, n_cols), np.float32)
    kernel = mod.softmax_kernel.warmup(y, x, n_cols, n_cols, n_rows, n_cols, BLOCK_SIZE=128, num_stages=2,
                                       num_warps=num_warps, grid=(1,))
    assert np.isnan(y).all(), "warmup compiles only"
    kernel._init_handles()
    assert kernel.n_regs > 0 and kernel.n_spills >= 0 and kernel.metadata.shared > 0
    assert kernel.metadata.num_warps == num_warps and kernel.metadata["BLOCK_SIZE"] == 128
    occupancy = props["max_num_regs"] // (kernel.n_regs * props["warpSize"] * num_warps)
    occupancy = min(occupancy, props["max_shared_mem"] // kernel.metadata.shared)
    assert occupancy >= 1
    if target.backend == "cpu":  # the documented model: one program per worker thread
        assert occupancy == 1
    num_programs = min(props["multiprocessor_count"] * occupancy, n_rows)

    kernel[(num_programs, 1, 1)](y, x, n_cols, n_cols, n_rows, n_cols, 128, 2)
    assert not np.isnan(y).any()
    np.testing.assert_allclose(y, ref_softmax(x), rtol=1e-5, atol=1e-7)

    # A persistent grid smaller than the rows, as a numpy integer: every row still written.
    y2 = poisoned((n_rows, n_cols), np.float32)
    kernel[(np.int64(3),)](y2, x, n_cols, n_cols, n_rows, n_cols, 128, 2)
    np.testing.assert_allclose(y2, ref_softmax(x), rtol=1e-5, atol=1e-7)


def test_compiled_launch_refuses_other_constexprs(as_triton, write_module, rng):
    mod = write_module("softmax_ck_mod2", SOFTMAX)
    x = rng.standard_normal((4, 100)).astype(np.float32)
    y = poisoned((4, 100), np.float32)
    kernel = mod.softmax_kernel.warmup(y, x, 100, 100, 4, 100, BLOCK_SIZE=128, num_stages=2, grid=(1,))
    with pytest.raises(ValueError, match="constexpr 'BLOCK_SIZE' = 256 differs from the 128"):
        kernel[(4,)](y, x, 100, 100, 4, 100, 256, 2)
    with pytest.raises(ValueError, match="constexpr 'BLOCK_SIZE' = 128.0 differs from the 128"):
        kernel[(4,)](y, x, 100, 100, 4, 100, 128.0, 2)
    # Run-time arguments that specialize otherwise (100 rows -> 1 row: i32 becomes i32:1):
    # refused before anything launches (upstream would run its binary with the old values).
    with pytest.raises(ValueError, match=r"these arguments specialize the kernel as .* but this CompiledKernel was "
                                         r"compiled as"):
        kernel[(4,)](y, x, 100, 100, 1, 100, 128, 2)
    assert np.isnan(y).all()


def test_grid_entries_must_be_integers(write_module):
    add = write_module("add_grid_mod", ADD_KERNEL_SRC).add_kernel
    x = np.ones(16, np.float32)
    for bad in (1.0, True, "2", np.float32(1)):
        with pytest.raises(TypeError, match="grid"):
            add[(bad,)](x, x, x, 16, BLOCK=16)


def test_runtime_module_shims(as_triton):
    import triton
    import triton.language as tl
    import triton.runtime.jit as jit_mod
    from triton.backends.compiler import GPUTarget

    assert jit_mod.JITFunction is tritium.JITFunction
    assert triton.language.core is tl or tl.core is tl
    triton.set_allocator(lambda size, align, stream: None)  # accepted; tritium allocates its own scratch
    assert isinstance(triton.runtime.driver.active.get_current_target(), GPUTarget)


def test_metadata_keeps_python_bools(write_module):
    mod = write_module("bool_meta_mod", """
import tritium
import tritium.language as tl


@tritium.jit
def maybe_negate(x_ptr, out_ptr, n, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.where(flag, -x, x), mask=m)
""")
    x = np.arange(1, 9, dtype=np.float32)
    for flag in (True, False, True):  # the second True is served from the launch cache
        out = poisoned(8, np.float32)
        k = mod.maybe_negate[(1,)](x, out, 8, flag, BLOCK=8)
        np.testing.assert_array_equal(out, -x if flag else x)
        assert k.metadata["flag"] is flag and k.metadata["n"] == 8


def test_numpy_scalars_launch_as_their_values(write_module):
    add = write_module("add_np_scalar_mod", ADD_KERNEL_SRC).add_kernel
    x = np.arange(1, 21, dtype=np.float32)
    out = poisoned(20, np.float32)
    add[(np.int64(1),)](x, x, out, np.int64(20), BLOCK=32)  # n as numpy.int64: an int, not a 0-d tensor
    np.testing.assert_array_equal(out, 2 * x)
    assert "i32" in add[(1,)](x, x, out, np.int32(20), BLOCK=32).signature.split(",")[3]


def test_host_side_names_scripts_import(as_triton):
    import triton.language as tl
    from triton.runtime.autotuner import Autotuner, Config  # noqa: F401
    from triton.runtime.errors import OutOfResources
    from triton.tools.tensor_descriptor import TensorDescriptor

    def annotated(desc: tl.tensor_descriptor, p: tl.pointer_type(tl.float16)):  # annotations evaluate
        return desc, p

    assert issubclass(OutOfResources, Exception)
    d = TensorDescriptor.from_tensor(np.empty((0, 70), np.float32), [16, 16])
    assert d.strides == [70, 1]
