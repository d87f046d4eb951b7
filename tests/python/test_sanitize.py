"""Sanitize mode from Python (TRITIUM_SANITIZE=1; issue 8): a torch tensor's extent is its
strided span, not its nbytes (a view such as t[:, :64] is not a false report), and turning
the variable on mid-process recompiles instead of reusing the unchecked kernel.

torch is not needed: tritium treats any object with data_ptr / dtype / nbytes / get_device
/ is_cuda as a torch tensor, so FakeTorch wraps a numpy view that way (its shape, stride()
in elements and element_size(), as torch reports them).
"""
import numpy as np
import pytest

import tritium
import tritium.language as tl


@tritium.jit
def copy_rows(x_ptr, out_ptr, n_rows, row_stride, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r * row_stride + cols)
    tl.store(out_ptr + r * BLOCK + cols, x)


class _TorchDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeTorch:
    """A host tensor as torch presents one: a view of a numpy array `base` (kept alive)."""

    def __init__(self, view):
        assert view.dtype == np.float32
        self.view = view
        self.dtype = _TorchDtype("float32")
        self.shape = tuple(view.shape)
        self.nbytes = view.size * view.itemsize
        self.is_cuda = False

    def data_ptr(self):
        return self.view.__array_interface__["data"][0]

    def stride(self):
        return tuple(s // self.view.itemsize for s in self.view.strides)

    def element_size(self):
        return self.view.itemsize

    def get_device(self):
        return -1


def _fresh(shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-4.0, 4.0, size=shape).astype(np.float32)
    x[x == 0] = 1.0  # never zero
    return x


def test_a_strided_torch_view_is_checked_against_its_span(monkeypatch):
    monkeypatch.setenv("TRITIUM_SANITIZE", "1")
    base = _fresh((8, 128), 1)
    view = FakeTorch(base[:, :64])  # nbytes 2048; the rows reach byte 7*512 + 256 = 3840
    out = np.full((8, 64), np.nan, dtype=np.float32)
    copy_rows[(8,)](view, out, 8, 128, BLOCK=64)
    np.testing.assert_array_equal(out, base[:, :64])  # a copy: exact
    # One row further is past the view's span (and the array's end): reported.
    with pytest.raises(tritium.TritiumError, match=r"out-of-bounds load of 4 bytes through `x_ptr`"):
        copy_rows[(9,)](view, np.full((9, 64), np.nan, dtype=np.float32), 9, 128, BLOCK=64)


def test_turning_sanitize_on_mid_process_recompiles(monkeypatch):
    # x is a 64-float view at the start of a 128-float array: rows 0 and 1 read 128 floats,
    # the second row past the view but inside the array (no crash unchecked).
    base = _fresh((2, 64), 2)
    view = base.reshape(-1)[:64]
    out = np.full((2, 64), np.nan, dtype=np.float32)
    monkeypatch.delenv("TRITIUM_SANITIZE", raising=False)
    copy_rows[(2,)](view, out, 2, 64, BLOCK=64)  # unchecked: reads on past the view
    np.testing.assert_array_equal(out, base)
    monkeypatch.setenv("TRITIUM_SANITIZE", "1")
    with pytest.raises(tritium.TritiumError, match=r"byte offset 256 of a 256-byte buffer"):
        copy_rows[(2,)](view, out, 2, 64, BLOCK=64)
