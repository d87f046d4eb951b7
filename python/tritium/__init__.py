"""tritium: Triton-language kernels on CPUs and GPUs, from Python.

The same ``@triton.jit`` kernels and host code as upstream Triton, compiled by tritium's C++
compiler for the backend at hand (the cpu backend everywhere; cuda on NVIDIA GPUs)::

    import tritium
    import tritium.language as tl

    @tritium.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    add_kernel[(tritium.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)   # numpy arrays, torch tensors, ...

An unchanged Triton script runs with ``python -m tritium.run script.py`` (``import triton``
then resolves to tritium for that run), or after ``tritium.install_as_triton()``.

Contents: ``jit`` (tritium.jit), ``autotune`` / ``heuristics`` / ``Config``
(tritium.autotuner), ``language`` (tl), ``testing`` (do_bench, assert_close), ``cdiv``,
``next_power_of_2``, ``set_backend`` / ``synchronize`` (tritium.backend), the errors
(tritium.errors).
"""

from . import _C
from .errors import ArgumentError, CompilationError, DeviceError, NotFoundError, TritiumError
from .jit import CompiledKernel, JITFunction, KernelInterface, jit
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .backend import backends, get_backend, set_backend, set_numerics, synchronize
from . import language
from . import testing
from .compat import install_as_triton

__version__ = _C.version()


def cdiv(x, y):
    """ceil(x / y) for integers (Triton's triton.cdiv)."""
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1), as triton.next_power_of_2."""
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()


__all__ = ["jit", "JITFunction", "KernelInterface", "CompiledKernel", "autotune", "heuristics", "Config",
           "Autotuner", "Heuristics", "language", "testing", "cdiv", "next_power_of_2", "set_backend",
           "get_backend", "set_numerics", "synchronize", "backends", "install_as_triton", "TritiumError",
           "CompilationError", "ArgumentError", "NotFoundError", "DeviceError"]
