"""Exceptions raised by tritium.

Every error of tritium's C++ compiler and runtimes reaches Python as one of these:

    TritiumError (RuntimeError)      any tritium failure; base of the others
    CompilationError (TritiumError)  the kernel source is wrong or unsupported; the message
                                     is "FILE:LINE:COL: error: ..." with the source line
    ArgumentError (TritiumError, TypeError)
                                     launch arguments or constexprs that do not fit the
                                     kernel, naming the parameter
    NotFoundError (TritiumError, LookupError)
                                     no such kernel, backend or file
    DeviceError (TritiumError)       a backend failed (allocation, backend compiler,
                                     launch, an unavailable backend with the reason)
"""

from . import _C


class TritiumError(RuntimeError):
    """Base class of tritium's errors."""


class CompilationError(TritiumError):
    """The kernel cannot be compiled: the message names the construct and its file:line:col."""


class ArgumentError(TritiumError, TypeError):
    """Launch arguments do not fit the kernel (count, dtype, device, constexpr value)."""


class NotFoundError(TritiumError, LookupError):
    """No such kernel, backend or file."""


class DeviceError(TritiumError):
    """A backend failed: allocation, its compiler, a launch, or it is unavailable here."""


_C._set_error_types({
    "TritiumError": TritiumError,
    "CompilationError": CompilationError,
    "ArgumentError": ArgumentError,
    "NotFoundError": NotFoundError,
    "DeviceError": DeviceError,
})
