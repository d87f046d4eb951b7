"""Backend selection for launches from Python.

A launch runs on, in order of precedence:

1. the backend given to ``tritium.set_backend(name)`` ("cpu", "cuda", "interp", "opencl",
   "metal", "msl-emu"; ``None`` clears it);
2. the ``TRITIUM_BACKEND`` environment variable (read at each launch, in C++ through
   getenv, which sees changes made through ``os.environ``);
3. the memory its tensors live in: CUDA memory (torch CUDA tensors, CuPy) -> "cuda",
   host memory (numpy, torch CPU tensors) -> "cpu".

A tensor in memory the chosen backend cannot address is an error naming the argument;
tritium never copies tensors between devices.

Numerics: ``TRITIUM_NUMERICS=portable`` (or ``set_numerics("portable")``) compiles with
portable numerics (bit-identical results on every backend, ARCHITECTURE.md); the default
is "native", the fastest conformant code per backend.
"""

from __future__ import annotations

import functools
import os

from . import _C

_backend = None
_numerics = None
_used: set = set()

_NAMES = ("cpu", "interp", "cuda", "opencl", "metal", "msl-emu")


def set_backend(name):
    """Makes every following launch run on backend `name` (None: choose per launch again).

    Raises ValueError for an unknown name and tritium.DeviceError (with the reason) for a
    backend that is not available on this machine.
    """
    global _backend
    if name is None:
        _backend = None
        return
    if name not in _NAMES:
        raise ValueError(f"unknown backend '{name}' (one of {', '.join(_NAMES)})")
    for b in _C.backends():
        if b.name == name and not b.available:
            from .errors import DeviceError
            raise DeviceError(f"backend '{name}' is unavailable here: {b.reason}")
    _backend = name


def get_backend():
    """The backend set by set_backend or TRITIUM_BACKEND, or None (chosen per launch)."""
    return chosen() or None


def chosen() -> str:
    """The backend name for the next launch, or "" to choose from the tensors."""
    if _backend:
        return _backend
    return os.environ.get("TRITIUM_BACKEND", "")


def set_numerics(mode):
    """"native" (default) or "portable" numerics for the following compiles."""
    global _numerics
    if mode not in (None, "native", "portable"):
        raise ValueError(f"numerics must be 'native' or 'portable', got {mode!r}")
    _numerics = mode


def note_used(name: str):
    _used.add(name)


def synchronize(name=None):
    """Waits for every launch on backend `name` (default: every backend launched on so far)."""
    for b in ([name] if name else sorted(_used)):
        _C.synchronize(b)


def backends():
    """[(name, available, reason)] for every backend of this build."""
    return [(b.name, b.available, b.reason) for b in _C.backends()]


def device_backend() -> str:
    """The backend host code's device queries describe: the one set by set_backend or
    TRITIUM_BACKEND, else cuda when it is available (where torch CUDA tensors launch),
    else cpu."""
    name = chosen()
    if name:
        return name
    return "cuda" if _cuda_available() else "cpu"


@functools.lru_cache(maxsize=None)
def _cuda_available() -> bool:
    """Whether the cuda backend is available, probed once per process: host code asks on
    every call (tutorial 02's softmax() reads get_current_target() per launch), and probing
    every backend costs about half a millisecond."""
    return any(b.name == "cuda" and b.available for b in _C.backends())


def device_properties(name=None) -> dict:
    """Hardware figures of backend `name` (default: device_backend()) under upstream Triton's
    names — multiprocessor_count, max_shared_mem (bytes), max_num_regs, warpSize, and on cuda
    sm_clock_rate / mem_clock_rate (kHz), mem_bus_width (bits) and more (tritium::Device::
    properties in include/tritium/tritium.h). The cpu backend reports its execution model:
    one multiprocessor per worker thread, warpSize 1, a model register file and shared
    memory that one program fills, so occupancy arithmetic gives one program per thread.
    Raises tritium.DeviceError when the backend is unavailable."""
    return dict(_C.device_properties(name or device_backend()))
