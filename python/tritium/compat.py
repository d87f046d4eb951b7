"""Running unchanged Triton scripts: ``install_as_triton()``.

After ``tritium.install_as_triton()``, ``import triton``, ``import triton.language as tl``,
``from triton.language.extra import libdevice``, ``import triton.testing`` and
``triton.runtime.driver.active.get_active_torch_device()`` resolve to tritium in this
process only (entries in ``sys.modules``; nothing on disk changes and an installed Triton
stays as it is for other processes). ``python -m tritium.run script.py`` does this and
then runs the script as ``__main__``.
"""

from __future__ import annotations

import importlib.machinery
import sys
import types


class _ActiveDriver:
    """triton.runtime.driver.active: what host code asks of the GPU driver."""

    def get_active_torch_device(self):
        import torch

        return torch.device("cuda", 0) if _cuda_available() else torch.device("cpu")

    def get_current_device(self):
        return 0

    def get_current_target(self):
        if _cuda_available():
            return types.SimpleNamespace(backend="cuda", arch=90, warp_size=32)
        return types.SimpleNamespace(backend="cpu", arch=0, warp_size=1)


def _cuda_available() -> bool:
    from . import _C
    return any(b.name == "cuda" and b.available for b in _C.backends())


def _shim(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__tritium_shim__ = True
    # A module spec, as real modules have (importlib.util.find_spec("triton") reads it).
    m.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=name == "triton")
    return m


def install_as_triton():
    """Makes ``import triton`` (and its submodules scripts use) resolve to tritium in this process."""
    import tritium
    from tritium import language as tl

    # torch initializes CUDA lazily and, at that point, looks for its own Triton (to
    # register kernels written in it). Let it do so now, against the real installation
    # (or none), before `triton` means tritium here.
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch  # noqa: F401
        except ImportError:
            torch = None
    if torch is not None and torch.cuda.is_available():
        torch.cuda.init()

    runtime = _shim("triton.runtime", driver=types.SimpleNamespace(active=_ActiveDriver()),
                    Autotuner=tritium.Autotuner, Heuristics=tritium.Heuristics, JITFunction=tritium.JITFunction,
                    KernelInterface=tritium.KernelInterface, Config=tritium.Config, autotune=tritium.autotune,
                    heuristics=tritium.heuristics, jit=tritium.jit)
    triton = _shim("triton", jit=tritium.jit, autotune=tritium.autotune, heuristics=tritium.heuristics,
                   Config=tritium.Config, cdiv=tritium.cdiv, next_power_of_2=tritium.next_power_of_2, language=tl,
                   testing=tritium.testing, runtime=runtime, JITFunction=tritium.JITFunction,
                   KernelInterface=tritium.KernelInterface, CompilationError=tritium.CompilationError,
                   __version__="3.6.0+tritium." + tritium.__version__, __path__=[])
    compiler = _shim("triton.compiler", CompilationError=tritium.CompilationError)
    triton.compiler = compiler
    mods = {
        "triton": triton,
        "triton.language": tl,
        "triton.language.math": tl.math,
        "triton.language.extra": tl.extra,
        "triton.language.extra.libdevice": tl.extra.libdevice,
        "triton.language.extra.cuda": tl.extra.cuda,
        "triton.language.extra.cuda.libdevice": tl.extra.libdevice,
        "triton.testing": tritium.testing,
        "triton.runtime": runtime,
        "triton.compiler": compiler,
        "triton.compiler.errors": compiler,
    }
    sys.modules.update(mods)
    return triton
