"""pytest configuration for the Python package's tests (tests/python).

Every test compiles its kernels for the cpu backend (the one every machine has) unless it
says otherwise; the on-disk kernel cache goes to a per-session temporary directory so a
run never reads another run's objects. Kernel sources live in files (tritium compiles a
kernel from its source file, as upstream Triton reads it with inspect): `write_module`
writes one into the test's own directory and imports it.
"""

import importlib
import os
import sys
import textwrap

import numpy as np
import pytest

# A vector add kernel module (one fp32 add per element), shared by tests that launch it.
ADD_KERNEL_SRC = """
import tritium
import tritium.language as tl


@tritium.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)
"""


@pytest.fixture(scope="session", autouse=True)
def _kernel_cache(tmp_path_factory):
    os.environ["TRITIUM_CACHE_DIR"] = str(tmp_path_factory.mktemp("tritium-cache"))
    os.environ.pop("TRITIUM_BACKEND", None)
    yield


@pytest.fixture
def write_module(tmp_path, monkeypatch):
    """write_module(name, source) -> the imported module (its file in tmp_path)."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(name, source):
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        sys.modules.pop(name, None)
        importlib.invalidate_caches()
        mod = importlib.import_module(name)
        # Where upstream Triton is installed (the H200 image), `import triton` without the
        # as_triton fixture gives upstream's jit: the test would then check upstream, not tritium.
        for attr, v in vars(mod).items():
            if type(v).__module__.split(".")[0] == "triton":
                pytest.fail(f"{name}.{attr} is upstream Triton's {type(v).__name__}: the module imports the real "
                            "triton; request the as_triton fixture (or import tritium)")
        return mod

    yield write


@pytest.fixture
def rng():
    """A generator seeded per test from the clock: fresh inputs each run (the seed is printed on failure)."""
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"numpy seed {seed}")
    return np.random.default_rng(seed)


def poisoned(shape, dtype):
    """An output array full of NaN (floats) or a sentinel (ints), so an unwritten element shows."""
    a = np.empty(shape, dtype=dtype)
    if np.issubdtype(a.dtype, np.floating):
        a.fill(np.nan)
    else:
        a.fill(np.iinfo(a.dtype).min + 7)
    return a


@pytest.fixture
def as_triton():
    """`import triton` resolves to tritium during the test (tritium.install_as_triton), then not."""
    import tritium

    before = {k: v for k, v in sys.modules.items() if k == "triton" or k.startswith("triton.")}
    tritium.install_as_triton()
    yield
    for k in [k for k in sys.modules if k == "triton" or k.startswith("triton.")]:
        del sys.modules[k]
    sys.modules.update(before)
