"""Import a built-in suite kernel file (kernels/<name>.py) as a Python module.

Shared by the upstream-Triton tools in this folder; triton.jit needs the kernels to come
from a real source file, so they are imported from their paths rather than exec'd.
"""

import importlib.util
import os
import sys

KERNEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def load_kernels(name):
    """Import kernels/<name>.py as module ``tritium_kernels_<name>`` and return it (``name``
    may name a subfolder: "tools/ieee_matmul")."""
    path = os.path.join(KERNEL_DIR, name + ".py")
    spec = importlib.util.spec_from_file_location("tritium_kernels_" + name.replace("/", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod
