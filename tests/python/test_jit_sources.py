"""Where tritium's source-file view of a kernel's names meets Python's: helper parameter
defaults, helper names Python binds to other functions (host rebinding, monkeypatching,
ImportError fallbacks, sys.path order, star imports), values read in other modules'
helpers, circular imports, files edited on disk after import or reloaded, version-gated
blocks. Each case was a silently different result before the check it tests; each
expected value is computed here by hand."""

import inspect
import os

import numpy as np
import pytest

import tritium


def test_helper_defaults_must_agree_with_python(as_triton, write_module):
    """A jit helper's parameter defaults come from its source file, evaluated where the def
    stands; where host code made Python's differ (a function rebinding the global before
    the def), refused, for helpers of the kernel's module and of another module alike.
    Defaults that agree run, and give Python's value."""
    write_module("dflt_lib_mod", """
import triton
import triton.language as tl

K_DEF = 3


def configure():
    global K_DEF
    K_DEF = 11


configure()


@triton.jit
def times_k(v, K: tl.constexpr = K_DEF):
    return v * K
""")
    m = write_module("dflt_user_mod", """
import triton
import triton.language as tl
from dflt_lib_mod import times_k

N_DEF = 4
M_DEF = 5


def setup():
    global N_DEF
    N_DEF = 9


setup()


@triton.jit
def plus_n(v, N: tl.constexpr = N_DEF):
    return v + N


@triton.jit
def plus_m(v, M: tl.constexpr = M_DEF):
    return v + M


@triton.jit
def uses_n(o):
    tl.store(o, plus_n(1.0))


@triton.jit
def uses_m(o):
    tl.store(o, plus_m(1.0))


@triton.jit
def uses_k(o):
    tl.store(o, times_k(2.0))
""")
    out = np.full(1, np.nan, np.float32)
    m.uses_m[(1,)](out)
    assert out[0] == 6.0  # 1 + M_DEF: the file and Python agree
    with pytest.raises(tritium.CompilationError, match=r"calls 'plus_n', whose parameter 'N' defaults to 9 in Python "
                                                       r"but to 4 in the source"):
        m.uses_n[(1,)](out)
    with pytest.raises(tritium.CompilationError, match=r"calls 'times_k', whose parameter 'K' defaults to 11 in "
                                                       r"Python but to 3 in the source"):
        m.uses_k[(1,)](out)


def test_a_helper_name_python_binds_elsewhere_is_refused(as_triton, write_module, tmp_path, monkeypatch):
    """tritium resolves helper names from the source files; where Python's name holds
    another function at the compile — rebound by a host function, a monkeypatched module
    attribute, an ImportError fallback, another sys.path order — it is refused naming both
    definitions (each of these ran the file's function, silently, before)."""
    write_module("rb_helpers", """
import triton
import triton.language as tl


@triton.jit
def f(x):
    return x * 2


@triton.jit
def g(x):
    return x * 3
""")
    m = write_module("rb_global", """
import triton
import triton.language as tl
from rb_helpers import f, g


@triton.jit
def k(o):
    tl.store(o, f(1.0))


def setup():
    global f
    f = g


setup()
""")
    out = np.full(1, np.nan, np.float32)
    with pytest.raises(tritium.CompilationError, match=r"calls 'f', which tritium resolves from the source to the jit "
                                                       r"function at .*rb_helpers.py:7, but which Python binds at this "
                                                       r"launch to 'g' at .*rb_helpers.py:11"):
        m.k[(1,)](out)

    import rb_helpers
    monkeypatch.setattr(rb_helpers, "f", rb_helpers.g)
    m2 = write_module("rb_attr", """
import triton
import triton.language as tl
import rb_helpers as h


@triton.jit
def k(o):
    tl.store(o, h.f(1.0))
""")
    with pytest.raises(tritium.CompilationError, match=r"calls 'h.f'.* binds at this launch to 'g'"):
        m2.k[(1,)](out)
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(tmp_path))

    (tmp_path / "rb_fast.py").write_text(
        "import triton\nimport triton.language as tl\nimport rb_missing_accelerator\n\n\n"
        "@triton.jit\ndef f(x):\n    return x * 5\n")
    m3 = write_module("rb_fallback", """
import triton
import triton.language as tl
try:
    from rb_fast import f
except ImportError:
    from rb_helpers import g as f


@triton.jit
def k(o):
    tl.store(o, f(1.0))
""")
    with pytest.raises(tritium.CompilationError, match=r"calls 'f', which tritium resolves from the source to the jit "
                                                       r"function at .*rb_fast.py:7, but which Python binds .* 'g'"):
        m3.k[(1,)](out)

    # sys.path order: Python finds rb_util in a directory put before the kernel's own.
    other = tmp_path / "first"
    other.mkdir()
    (other / "rb_util.py").write_text("import triton\n\n\n@triton.jit\ndef u(x):\n    return x + 7\n")
    (tmp_path / "rb_util.py").write_text("import triton\n\n\n@triton.jit\ndef u(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(other))
    m4 = write_module("rb_path", """
import triton
import triton.language as tl
from rb_util import u


@triton.jit
def k(o):
    tl.store(o, u(1.0))
""")
    assert os.path.dirname(inspect.getsourcefile(m4.u.fn)) == str(other)  # Python's choice
    with pytest.raises(tritium.CompilationError, match=r"calls 'u'.* binds at this launch to 'u' at .*first"):
        m4.k[(1,)](out)


def test_a_helper_modules_attribute_reads_must_agree_with_python(as_triton, write_module):
    """A helper of another module reading `cfg.SCALE` takes it from the files: a value the
    host code changed before the compile is refused (before: the file's value, silently)."""
    write_module("ar_cfg", "import triton.language as tl\nSCALE = tl.constexpr(2.0)\n")
    write_module("ar_helpers", """
import triton
import ar_cfg


@triton.jit
def scaled(x):
    return x * ar_cfg.SCALE
""")
    import triton.language as tl
    import ar_cfg
    ar_cfg.SCALE = tl.constexpr(5.0)
    m = write_module("ar_user", """
import triton
import triton.language as tl
from ar_helpers import scaled


@triton.jit
def k(o):
    tl.store(o, scaled(1.0))
""")
    with pytest.raises(tritium.CompilationError, match=r"reads 'ar_helpers.ar_cfg.SCALE', which is 5.0 in Python now "
                                                       r"but 2.0 in the source"):
        m.k[(1,)](np.full(1, np.nan, np.float32))


def test_an_edited_reloaded_helper_module_is_compiled_anew(as_triton, write_module, tmp_path):
    """Editing a helper module and reloading it (notebook autoreload) runs the new code:
    the helper files are part of the compiled module's identity (before: the first
    compile's helper ran, silently)."""
    import importlib
    import time
    write_module("ed_helpers", "import triton\n\n\n@triton.jit\ndef f(x):\n    return x * 2\n")
    m = write_module("ed_kern", """
import triton
import triton.language as tl
from ed_helpers import f


@triton.jit
def k(o):
    tl.store(o, f(1.0))
""")
    out = np.full(1, np.nan, np.float32)
    m.k[(1,)](out)
    assert out[0] == 2.0
    time.sleep(0.01)
    (tmp_path / "ed_helpers.py").write_text("import triton\n\n\n@triton.jit\ndef f(x):\n    return x * 300\n")
    import ed_helpers
    importlib.reload(ed_helpers)
    m = importlib.reload(m)
    out[0] = np.nan
    m.k[(1,)](out)
    assert out[0] == 300.0


def test_files_edited_on_disk_after_import(as_triton, write_module, tmp_path):
    """Python runs the code it imported; tritium compiles from files. A kernel file edited
    on disk before the first launch is refused; a helper file edited after the first
    compile leaves later specializations with the helper Python imported (the compiled
    module keeps the parses it first read). Both ran the edited code, silently, before."""
    import time
    m = write_module("edit_kern", """
import triton
import triton.language as tl


@triton.jit
def k(o):
    tl.store(o, 1.0)
""")
    time.sleep(0.01)
    p = tmp_path / "edit_kern.py"
    p.write_text(p.read_text().replace("tl.store(o, 1.0)", "tl.store(o, 2.0)"))
    with pytest.raises(tritium.CompilationError, match=r"edit_kern.py \(which defines 'k'\) was edited on disk after "
                                                       r"Python imported it"):
        m.k[(1,)](np.full(1, np.nan, np.float32))

    write_module("edit_helper", "import triton\n\n\n@triton.jit\ndef f(x):\n    return x + 100\n")
    u = write_module("edit_user", """
import triton
import triton.language as tl
from edit_helper import f


@triton.jit
def k(o, n):
    tl.store(o, f(n))
""")
    out = np.zeros(1, np.int32)
    u.k[(1,)](out, 1)
    assert out[0] == 101
    time.sleep(0.01)
    h = tmp_path / "edit_helper.py"
    h.write_text(h.read_text().replace("x + 100", "x + 200"))
    u.k[(1,)](out, 7)  # a new specialization (7 is not 1): Python's f still adds 100
    assert out[0] == 107
    u.k[(1,)](out, 32)  # another one (divisible by 16)
    assert out[0] == 132


def test_names_the_source_and_python_bind_differently(as_triton, write_module, tmp_path):
    """A star import after a jit helper of the same name rebinds it in Python: refused. A
    helper of the kernel's module reached through another module (a circular import) has
    its globals checked like any other: a value host code changed is refused. Both ran
    the file's reading, silently, before."""
    m = write_module("star_after", """
import triton


@triton.jit
def maximum(a, b):
    return a + b


from triton.language import *  # noqa: E402,F403 - rebinds maximum (and store)


@triton.jit
def k(out):
    store(out, maximum(3, 4))  # noqa: F405
""")
    with pytest.raises(tritium.CompilationError, match=r"calls 'maximum', which tritium resolves from the source to "
                                                       r"the jit function at .*star_after.py:6, but which Python binds"):
        m.k[(1,)](np.zeros(1, np.int32))

    (tmp_path / "circ_other.py").write_text(  # imported by circ_kmod (written, not imported, here)
        "import triton\nimport circ_kmod\n\n\n@triton.jit\ndef h(x):\n    return circ_kmod.g2(x) + 1\n")
    km = write_module("circ_kmod", """
import triton
import triton.language as tl
X = tl.constexpr(1)
import circ_other  # noqa: E402


@triton.jit
def g2(x):
    return x * X


@triton.jit
def k(out):
    tl.store(out, circ_other.h(10))
""")
    import triton.language as tl
    km.X = tl.constexpr(5)
    with pytest.raises(tritium.CompilationError, match=r"reads 'circ_kmod.X', which is 5 in Python now but 1 in the "
                                                       r"source"):
        km.k[(1,)](np.zeros(1, np.int32))


def test_version_gated_helpers(as_triton, write_module):
    """`if triton.__version__ >= "3.6":` at module level reads the version the package
    reports as triton (3.6.0+tritium.<version>), in Python and in the source alike."""
    import triton
    m = write_module("version_gate", """
import triton
import triton.language as tl

if triton.__version__ >= "3.6":
    @triton.jit
    def f(x):
        return x + 1
else:
    @triton.jit
    def f(x):
        return x + 2


@triton.jit
def k(out):
    tl.store(out, f(10))
""")
    out = np.zeros(1, np.int32)
    m.k[(1,)](out)
    assert triton.__version__ >= "3.6" and out[0] == 11
