"""Launches from Python go on torch's current CUDA stream (as upstream's do), so a kernel is
ordered with the torch work around it on a side stream; do_bench times cuda launches with
CUDA events; occupancy figures come from the driver; host tensor descriptors over torch
CUDA tensors.

Skipped unless the cuda backend and torch with CUDA are present (the H200 image; not CI).
Ordering: on a side stream, torch spins the GPU (torch.cuda._sleep), then writes the input;
the kernel reads it and torch copies the output, all on that stream. A kernel launched on
another stream would run before the input is written (or be copied before it ran), leaving
poison or stale values. Reference: float64 on the host; the kernel does one fp32 add per
element, correctly rounded, so the output equals the float64 sum rounded to fp32, bit for bit.
"""

import numpy as np
import pytest

import tritium

from conftest import ADD_KERNEL_SRC

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(
    not (torch.cuda.is_available() and any(n == "cuda" and ok for n, ok, _ in tritium.backend.backends())),
    reason="needs the cuda backend and torch with CUDA")


@pytest.fixture
def add(write_module):
    return write_module("kernels_torch_streams", ADD_KERNEL_SRC).add_kernel


def test_a_launch_is_ordered_on_torchs_current_stream(add, rng):
    n = 1 << 20
    hx = rng.standard_normal(n).astype(np.float32)
    hy = rng.standard_normal(n).astype(np.float32)
    src = torch.from_numpy(hx).cuda()
    y = torch.from_numpy(hy).cuda()
    x = torch.full((n,), float("nan"), device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(100_000_000)  # ~50 ms of GPU time before the input exists
        x.copy_(src)
        add[(tritium.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        got = out.clone()
    s.synchronize()
    want = (hx.astype(np.float64) + hy).astype(np.float32)
    np.testing.assert_array_equal(got.cpu().numpy(), want)


STRIDED_COPY_SRC = """
import tritium
import tritium.language as tl


@tritium.jit
def strided_copy(x, out, n, step, BLOCK: tl.constexpr):
    # A run-time loop step: the kernel carries the step check's failure word, which the
    # launch reads back on the caller's stream.
    for start in tl.range(tl.program_id(0) * BLOCK, n, step):
        o = start + tl.arange(0, BLOCK)
        tl.store(out + o, tl.load(x + o, mask=o < n) + 1.0, mask=o < n)
"""


def test_a_kernel_with_run_time_checks_is_ordered_on_torchs_stream_and_reports_failures(write_module, rng):
    # Ordering as above, for a kernel whose launch reads back a failure word (a run-time loop
    # step): the word is reset, written and read in the side stream's order. +1.0 on values
    # of |x| < 8 is exact in fp32, so the output equals x + 1 bit for bit.
    k = write_module("kernels_torch_streams_checked", STRIDED_COPY_SRC).strided_copy
    assert type(k).__module__.startswith("tritium.")  # not upstream Triton's jit
    n, block, programs = 1 << 20, 1024, 64
    hx = rng.uniform(-4, 4, n).astype(np.float32)
    src = torch.from_numpy(hx).cuda()
    x = torch.full((n,), float("nan"), device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(100_000_000)
        x.copy_(src)
        k[(programs,)](x, out, n, programs * block, BLOCK=block)
        got = out.clone()
        with pytest.raises(Exception, match="loop step must be positive at run time"):
            k[(programs,)](x, out, n, 0, BLOCK=block)
    s.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy(), hx + np.float32(1.0))


def test_do_bench_times_with_events(add):
    n = 1 << 24
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    ms = tritium.testing.do_bench(lambda: add[(tritium.cdiv(n, 1024),)](x, x, out, n, BLOCK=1024))
    # 3 x 64 MB moved: at most ~5 TB/s on any current GPU, so at least ~0.04 ms; well under 100 ms.
    assert 0.03 < ms < 100, ms
    q = tritium.testing.do_bench(lambda: add[(tritium.cdiv(n, 1024),)](x, x, out, n, BLOCK=1024),
                                 quantiles=[0.5, 0.2, 0.8])
    assert len(q) == 3 and q[1] <= q[0] <= q[2]


def test_tensor_descriptor_over_torch_cuda_tensors(as_triton, write_module, rng):
    from triton.tools.tensor_descriptor import TensorDescriptor

    mod = write_module("desc_cuda_mod", """
import triton
import triton.language as tl


@triton.jit
def twice(x_desc, o_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    o_desc.store([pm * BM, pn * BN], 2 * x_desc.load([pm * BM, pn * BN]))
""")
    hx = rng.integers(-100, 100, (100, 130)).astype(np.float16)
    x = torch.from_numpy(hx).cuda()
    o = torch.full_like(x, float("nan"))
    mod.twice[(4, 3)](TensorDescriptor.from_tensor(x, [32, 64]), TensorDescriptor.from_tensor(o, [32, 64]), BM=32, BN=64)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(o.cpu().numpy(), 2 * hx)  # small integers: exact in fp16


def test_the_driver_reports_torchs_current_stream():
    # triton.runtime.driver.active.get_current_stream(): the stream launches go on, as upstream.
    from tritium.compat import _ActiveDriver

    drv = _ActiveDriver()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        assert drv.get_current_stream() == s.cuda_stream != 0
    assert drv.get_current_stream() == torch.cuda.current_stream().cuda_stream
