"""Host tensor descriptors from Python (triton.tools.tensor_descriptor.TensorDescriptor), in
the pattern of upstream's fused-attention tutorial: a jit helper that takes either a
descriptor or a pointer (`isinstance(x, tl.tensor_descriptor)`, else
tl.make_tensor_descriptor), block shapes set by an autotune config's pre_hook, padding.

Reference: float64 numpy on the same values. Inputs are small integers in fp32 and the
kernels only add and scale by 2, so results are exact: compared bit for bit. Outputs are
NaN-poisoned before each launch.
"""

import numpy as np
import pytest

from conftest import poisoned

KERNELS = """
import triton
import triton.language as tl


@triton.jit
def _maybe_desc(desc_or_ptr, shape, strides, block_shape):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


def _pre_hook(nargs):
    BM, BN = nargs["BM"], nargs["BN"]
    if not isinstance(nargs["x"], triton.tools.tensor_descriptor.TensorDescriptor):
        return
    nargs["x"].block_shape = [BM, BN]
    nargs["out"].block_shape = [BM, BN]


@triton.autotune(configs=[triton.Config({"BM": 16, "BN": 32}, pre_hook=_pre_hook),
                          triton.Config({"BM": 32, "BN": 16}, pre_hook=_pre_hook)], key=["M", "N"])
@triton.jit
def add_twice(x, y_ptr, out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    xd = _maybe_desc(x, [M, N], [stride, 1], [BM, BN])
    od = _maybe_desc(out, [M, N], [stride, 1], [BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    y = tl.load(y_ptr + rows[:, None] * stride + cols[None, :], mask=m, other=0.0)
    od.store([pm * BM, pn * BN], 2 * xd.load([pm * BM, pn * BN]) + y)


@triton.jit
def padded(x, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    v = x.load([tl.program_id(0) * BM, 0])
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    tl.store(out_ptr + rows[:, None] * BN + tl.arange(0, BN)[None, :], v)
"""


@pytest.fixture
def mod(as_triton, write_module):
    return write_module("tensor_desc_mod", KERNELS)


def ints(rng, shape):
    return rng.integers(-50, 50, shape).astype(np.float32)


@pytest.mark.parametrize("host_descriptor", [True, False])
def test_descriptor_or_pointer_with_pre_hook_block_shapes(mod, rng, host_descriptor):
    import triton
    from triton.tools.tensor_descriptor import TensorDescriptor

    M, N, LD = 45, 70, 72  # a 45x70 view of a 45x72 row-major array
    x, y = ints(rng, (M, LD)), ints(rng, (M, LD))
    out = poisoned((M, LD), np.float32)
    if host_descriptor:  # a dummy block shape, replaced by each config's pre_hook (as the tutorial does)
        xa = TensorDescriptor(x, [M, N], [LD, 1], [1, 1])
        oa = TensorDescriptor(out, [M, N], [LD, 1], [1, 1])
    else:
        xa, oa = x, out
    grid = lambda meta: (triton.cdiv(M, meta["BM"]), triton.cdiv(N, meta["BN"]))
    mod.add_twice[grid](xa, y, oa, M, N, LD)
    want = 2 * x.astype(np.float64) + y
    np.testing.assert_array_equal(out[:, :N], want[:, :N].astype(np.float32))
    assert np.isnan(out[:, N:]).all(), "a store past the descriptor's shape wrote"


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_padding_and_from_tensor(mod, rng, padding):
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = ints(rng, (10, 16))
    out = poisoned((16, 16), np.float32)
    mod.padded[(2,)](TensorDescriptor.from_tensor(x, [8, 16], padding=padding), out, BM=8, BN=16)
    np.testing.assert_array_equal(out[:10], x)
    if padding == "nan":
        assert np.isnan(out[10:]).all()
    else:
        np.testing.assert_array_equal(out[10:], np.zeros((6, 16), np.float32))


def test_bad_descriptors_name_the_argument(mod, rng):
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = ints(rng, (10, 16))
    out = poisoned((16, 16), np.float32)
    with pytest.raises(ValueError, match="last stride must be 1"):
        TensorDescriptor(x, [10, 16], [1, 10], [8, 16])
    too_big = TensorDescriptor(x, [11, 16], [16, 1], [8, 16])  # one row past the array
    with pytest.raises(ValueError, match=r"argument 'x'.*reach element 175.*the base holds 640 bytes"):
        mod.padded[(2,)](too_big, out, BM=8, BN=16)
    assert np.isnan(out).all()
