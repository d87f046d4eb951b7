"""Running unchanged Triton scripts: ``install_as_triton()``.

After ``tritium.install_as_triton()``, ``import triton``, ``import triton.language as tl``,
``from triton.language.extra import libdevice``, ``import triton.testing``,
``triton.runtime.driver.active`` (get_active_torch_device, get_current_target,
utils.get_device_properties), ``triton.runtime.jit``, ``triton.set_allocator`` and
``triton.language.core``, ``triton.tools.tensor_descriptor`` resolve to tritium in this process only (entries in ``sys.modules``; nothing on disk changes and an installed Triton
stays as it is for other processes). ``python -m tritium.run script.py`` does this and
then runs the script as ``__main__``.
"""

from __future__ import annotations

import collections
import importlib.machinery
import platform
import sys
import types

from . import backend as _backend


class GPUTarget(collections.namedtuple("GPUTarget", "backend arch warp_size")):
    """triton.backends.compiler.GPUTarget: the target launches compile for (backend name,
    arch — the compute capability as an int on cuda, e.g. 90; the machine name on cpu —
    and warp size)."""


class _DriverUtils:
    """triton.runtime.driver.active.utils."""

    def get_device_properties(self, device=None):
        """Hardware figures by upstream's keys (tritium.backend.device_properties); `device`
        (an ordinal) is accepted for compatibility: tritium drives device 0."""
        return _backend.device_properties()


class _ActiveDriver:
    """triton.runtime.driver.active: what host code asks of the GPU driver."""

    utils = _DriverUtils()

    def get_active_torch_device(self):
        import torch

        return torch.device("cuda", 0) if _backend.device_backend() == "cuda" else torch.device("cpu")

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        if device not in (0, None):
            raise ValueError(f"tritium drives device 0 only, got device {device}")

    def get_device_capability(self, device=None):
        p = _backend.device_properties()
        cc = p.get("compute_capability", 0)
        return (cc // 10, cc % 10)

    def get_current_stream(self, device=None):
        """The raw handle of the stream cuda launches go on: torch's current CUDA stream when
        torch is imported (as upstream), else 0 (the default stream)."""
        torch = sys.modules.get("torch")
        if torch is not None and _backend.device_backend() == "cuda" and torch.cuda.is_available():
            return torch.cuda.current_stream().cuda_stream
        return 0

    def get_current_target(self):
        name = _backend.device_backend()
        if name == "cuda":
            return GPUTarget("cuda", _backend.device_properties("cuda").get("compute_capability", 0), 32)
        return GPUTarget(name, platform.machine(), 1)

    def is_active(self):
        return True


class OutOfResources(Exception):
    """triton.runtime.errors.OutOfResources: a kernel needs more of a resource (shared memory,
    registers) than the device has. tritium raises tritium.CompilationError for these (with
    the amounts); the class exists so host code that catches it imports."""

    def __init__(self, required=0, limit=0, name=""):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(f"out of resource: {name}, Required: {required}, Hardware limit: {limit}")


def _set_allocator(allocator):
    """triton.set_allocator: the function upstream calls for the global scratch memory some
    kernels need (on-device tensor descriptors). tritium allocates that scratch itself, so
    the allocator is kept and never called."""
    global _allocator
    _allocator = allocator


_allocator = None


_PACKAGES = ("triton", "triton.runtime", "triton.tools", "triton.backends", "triton.compiler")


def _shim(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__tritium_shim__ = True
    # A module spec, as real modules have (importlib.util.find_spec("triton") reads it).
    m.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=name in _PACKAGES)
    if name in _PACKAGES:
        m.__path__ = []
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

    driver = types.SimpleNamespace(active=_ActiveDriver())
    driver.set_active = lambda _d: None
    jit_mod = _shim("triton.runtime.jit", JITFunction=tritium.JITFunction, KernelInterface=tritium.KernelInterface,
                    jit=tritium.jit)
    autotuner_mod = _shim("triton.runtime.autotuner", Autotuner=tritium.Autotuner, Heuristics=tritium.Heuristics,
                          Config=tritium.Config, autotune=tritium.autotune, heuristics=tritium.heuristics)
    errors_mod = _shim("triton.runtime.errors", OutOfResources=OutOfResources,
                       InterpreterError=tritium.TritiumError)
    runtime = _shim("triton.runtime", driver=driver, jit=jit_mod, autotuner=autotuner_mod, errors=errors_mod,
                    OutOfResources=OutOfResources,
                    Autotuner=tritium.Autotuner, Heuristics=tritium.Heuristics, JITFunction=tritium.JITFunction,
                    KernelInterface=tritium.KernelInterface, Config=tritium.Config, autotune=tritium.autotune,
                    heuristics=tritium.heuristics)
    triton = _shim("triton", jit=tritium.jit, autotune=tritium.autotune, heuristics=tritium.heuristics,
                   Config=tritium.Config, cdiv=tritium.cdiv, next_power_of_2=tritium.next_power_of_2, language=tl,
                   testing=tritium.testing, runtime=runtime, JITFunction=tritium.JITFunction,
                   KernelInterface=tritium.KernelInterface, CompilationError=tritium.CompilationError,
                   set_allocator=_set_allocator,
                   __version__="3.6.0+tritium." + tritium.__version__, __path__=[])
    compiler = _shim("triton.compiler", CompilationError=tritium.CompilationError, CompiledKernel=tritium.CompiledKernel)
    backends_compiler = _shim("triton.backends.compiler", GPUTarget=GPUTarget)
    backends = _shim("triton.backends", compiler=backends_compiler)
    from .tools import tensor_descriptor as _td
    tools = _shim("triton.tools", tensor_descriptor=_td)
    triton.tools = tools
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
        "triton.runtime.jit": jit_mod,
        "triton.runtime.autotuner": autotuner_mod,
        "triton.runtime.errors": errors_mod,
        "triton.backends": backends,
        "triton.backends.compiler": backends_compiler,
        "triton.tools": tools,
        "triton.tools.tensor_descriptor": _td,
        "triton.language.core": tl,
    }
    sys.modules.update(mods)
    return triton
