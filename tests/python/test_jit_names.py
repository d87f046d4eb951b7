"""Name resolution of kernels launched from Python: jit helpers imported from another
module (by `from m import f` and as `m.f`), module-level constexpr globals, `tl` under any
alias and import spelling, libdevice, kernels defined inside a function or a class body,
the jit decorator under another name and applied as a call.

References: float64 numpy. The kernels below do exact operations (adds and multiplies of
small integers held in fp32, exact in binary32), or one correctly rounded operation, so
outputs are compared bit for bit; outputs are NaN-poisoned before each launch.
"""

import numpy as np
import pytest

import tritium

from conftest import poisoned

HELPERS = """
import triton
import triton.language as tl

SCALE: tl.constexpr = 3
OFFSET = tl.constexpr(5)


@triton.jit
def scale_add(x, y):
    return x * SCALE + y


@triton.jit
def plus_offset(x):
    return x + OFFSET
"""

USER = """
import triton
from triton import language as language
import helpers_mod
from helpers_mod import scale_add

BLOCK_DEFAULT: language.constexpr = 128


@triton.jit
def combine_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: language.constexpr = BLOCK_DEFAULT):
    offs = language.program_id(0) * BLOCK + language.arange(0, BLOCK)
    m = offs < n
    x = language.load(x_ptr + offs, mask=m)
    y = language.load(y_ptr + offs, mask=m)
    language.store(out_ptr + offs, helpers_mod.plus_offset(scale_add(x, y)), mask=m)
"""

LIBDEVICE = """
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def floor_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, libdevice.floor(tl.load(x_ptr + offs, mask=m)), mask=m)
"""


def small_ints(rng, n):
    return rng.integers(-1000, 1000, n).astype(np.float32)


def test_helpers_from_another_module_and_constexpr_globals(as_triton, write_module, rng):
    write_module("helpers_mod", HELPERS)
    user = write_module("user_mod", USER)
    n = 1000
    x, y = small_ints(rng, n), small_ints(rng, n)
    out = poisoned(n, np.float32)
    k = user.combine_kernel[(tritium.cdiv(n, 128),)](x, y, out, n)
    ref = x.astype(np.float64) * 3 + y + 5  # exact: small integers
    np.testing.assert_array_equal(out, ref.astype(np.float32))
    assert "BLOCK=128" in k.signature


COMPUTED = """
import os
import numpy as np
import triton
import triton.language as tl


def pick_block():  # host code the frontend does not evaluate
    return int(np.sqrt(4096))


BLOCK = tl.constexpr(pick_block())
SCALE = tl.constexpr(float(np.float32(0.5)) * 3)
DT = tl.constexpr(tl.float16 if os.getpid() > 0 else tl.float32)  # fp16


@triton.jit
def computed_kernel(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, (tl.load(x_ptr + offs, mask=m) * SCALE + 0.1).to(DT), mask=m)
"""


def test_constexpr_globals_computed_by_host_code(as_triton, write_module, rng):
    # Upstream Triton takes a tl.constexpr global's value from the function's globals,
    # whatever Python computed it with: here BLOCK = 64, SCALE = 1.5, DT = fp16. The
    # reference: x * 1.5 is exact in fp32; + 0.1 (fp32) is one correctly rounded fp32 add,
    # which float64 reproduces when rounded to fp32; then one rounding to fp16 (the store
    # widens it back to fp32 exactly): bit-exact.
    mod = write_module("computed_mod", COMPUTED)
    n = 1000
    x = small_ints(rng, n)
    out = poisoned(n, np.float32)
    k = mod.computed_kernel[(tritium.cdiv(n, 64),)](x, out, n)
    ref = (x.astype(np.float64) * 1.5 + np.float64(np.float32(0.1))).astype(np.float32).astype(np.float16)
    np.testing.assert_array_equal(out, ref.astype(np.float32))
    # BLOCK is 64, not another power of two: 8 programs write exactly the first 512 elements.
    out2 = poisoned(n, np.float32)
    mod.computed_kernel[(8,)](x, out2, n)
    np.testing.assert_array_equal(out2[:512], out[:512])
    assert np.isnan(out2[512:]).all()


def test_libdevice(as_triton, write_module, rng):
    mod = write_module("libdevice_mod", LIBDEVICE)
    n = 777
    x = (rng.standard_normal(n) * 100).astype(np.float32)
    out = poisoned(n, np.float32)
    mod.floor_kernel[(1,)](x, out, n, BLOCK=1024)
    np.testing.assert_array_equal(out, np.floor(x))


NESTED = """
import numpy as np
import tritium
import tritium.language as tl


def make_and_run(x, out):
    @tritium.jit
    def negate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, -tl.load(x_ptr + offs, mask=m), mask=m)

    negate_kernel[(1,)](x, out, x.size, BLOCK=1024)
    return negate_kernel
"""


def test_kernel_defined_inside_a_function(write_module, rng):
    mod = write_module("nested_mod", NESTED)
    x = rng.standard_normal(1000).astype(np.float32)
    out = poisoned(1000, np.float32)
    mod.make_and_run(x, out)
    np.testing.assert_array_equal(out, -x)


DECORATOR_FORMS = """
import triton
import tritium
import triton.language as tl
from tritium import jit as myjit

J = triton.jit


@myjit
def twice(x):
    return x * 2


@J
def plus_one(x):
    return twice(x) + 1


def affine_body(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, plus_one(tl.load(x_ptr + offs, mask=m)), mask=m)


affine = tritium.jit(affine_body)


@myjit(do_not_specialize=["n"])
def calls_alias(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    affine(x_ptr, out_ptr, n, BLOCK)


class Ops:
    @triton.jit
    def negate(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, -tl.load(x_ptr + offs, mask=m), mask=m)

    @staticmethod
    @triton.jit
    def triple(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, 3 * tl.load(x_ptr + offs, mask=m), mask=m)
"""


@pytest.mark.parametrize("kernel, expect", [
    ("affine", lambda x: 2 * x + 1),                 # NAME = tritium.jit(def_name)
    ("calls_alias", lambda x: 2 * x + 1),            # @myjit(...) calling the call-form kernel by its new name
    ("Ops.negate", lambda x: -x),                    # a class body
    ("Ops.triple", lambda x: 3 * x),                 # @staticmethod over @triton.jit in a class body
])
def test_decorator_forms(as_triton, write_module, rng, kernel, expect):
    mod = write_module("decorator_forms_mod", DECORATOR_FORMS)
    k = mod
    for part in kernel.split("."):
        k = getattr(k, part)
    n = 1000
    x = small_ints(rng, n)  # exact in fp32: compared bit for bit
    out = poisoned(n, np.float32)
    k[(tritium.cdiv(n, 256),)](x, out, n, BLOCK=256)
    np.testing.assert_array_equal(out, expect(x.astype(np.float64)).astype(np.float32))


def test_language_module_names():
    import tritium.language as tl

    assert tl.float16.name == "fp16" and tl.bfloat16.name == "bf16" and tl.float32.is_floating()
    assert tl.constexpr(4) + 1 == 5 and int(tl.constexpr(8)) == 8
    for name in ("load", "store", "dot", "program_id", "arange", "sum", "exp", "where", "make_block_ptr"):
        assert hasattr(tl, name), name
    assert hasattr(tl.math, "exp") and hasattr(tl.extra.libdevice, "rsqrt")
    with pytest.raises(TypeError, match="only be called inside"):
        tl.load(None)
    assert set(tl.__all__) >= {"constexpr", "float32", "load", "dot"}


# Each jit function runs its own definition, whatever else the file defines under its name
# (Python binds each def to its own function object; tritium compiles a kernel defined in a
# function, a class or a module-level block, or whose name is defined more than once, from
# the file with that definition alone in place). Each kernel stores a distinct constant.
SAME_NAMES = '''
import triton
import triton.language as tl


class Op:
    """A docstring with a line at column 0:
no indentation here."""

    @triton.jit
    def kernel(o):
        tl.store(o, 1.0)

    def make(self):
        @triton.jit
        def kernel(o):
            """Ends at column 0.
"""
            tl.store(o, 3.0)
        return kernel


@triton.jit
def kernel(o):
    tl.store(o, 2.0)


first = kernel


@triton.jit
def kernel(o):
    tl.store(o, 4.0)


if True:
    @triton.jit
    def variant(o):
        tl.store(o, 5.0)
else:
    @triton.jit
    def variant(o):
        tl.store(o, 6.0)

if __name__ != "__main__":
    @triton.jit
    def guarded(o):
        tl.store(o, 7.0)
'''


@pytest.mark.parametrize("get, value", [
    (lambda m: m.Op.kernel, 1.0),
    (lambda m: m.Op().make(), 3.0),
    (lambda m: m.first, 2.0),
    (lambda m: m.kernel, 4.0),
    (lambda m: m.variant, 5.0),
    (lambda m: m.guarded, 7.0),
])
def test_each_kernel_runs_its_own_definition(as_triton, write_module, get, value):
    m = write_module("same_names_mod", SAME_NAMES)
    out = np.full(1, np.nan, np.float32)
    get(m)[(1,)](out)
    assert out[0] == value


CLOSURES = '''
import triton
import triton.language as tl

SCALE = tl.constexpr(10.0)


@triton.jit
def helper(x):
    return x * 2


def make(s):
    SCALE = tl.constexpr(s)

    @triton.jit
    def scaled(o):
        tl.store(o, SCALE)

    return scaled


def make_with_local_helper():
    @triton.jit
    def helper(x):
        return x * 3

    @triton.jit
    def uses(o):
        tl.store(o, helper(1.0))

    return uses


def make_with_array(a):
    @triton.jit
    def uses_array(o):
        tl.store(o, a)

    return uses_array
'''


def test_constexprs_from_an_enclosing_function(as_triton, write_module):
    m = write_module("closures_mod", CLOSURES)
    for s in (3.0, 5.0, 3.0):  # a new closure value compiles anew; the global SCALE never leaks in
        out = np.full(1, np.nan, np.float32)
        m.make(s)[(1,)](out)
        assert out[0] == s


def test_non_constexpr_closures_are_refused(as_triton, write_module):
    m = write_module("closures_mod2", CLOSURES)
    out = np.full(1, np.nan, np.float32)
    with pytest.raises(tritium.CompilationError, match=r"kernel 'uses' uses 'helper' from its enclosing function, "
                                                       r"a jit function.*define 'helper' at module level"):
        m.make_with_local_helper()[(1,)](out)
    with pytest.raises(tritium.CompilationError, match=r"'a' from its enclosing function, a numpy.ndarray"):
        m.make_with_array(np.zeros(1))[(1,)](out)
    assert np.isnan(out[0])


def test_a_constexpr_global_is_read_when_each_kernel_compiles_and_watched_after(as_triton, write_module):
    m = write_module("rebind_mod", """
import triton
import triton.language as tl

C = tl.constexpr(1.0)


@triton.jit
def a(o):
    tl.store(o, C)


@triton.jit
def b(o):
    tl.store(o, C + 10)
""")
    import triton.language as tl

    out = np.full(1, np.nan, np.float32)
    m.a[(1,)](out)
    assert out[0] == 1.0
    m.C = tl.constexpr(2.0)  # before b's first compile: b sees it
    m.b[(1,)](out)
    assert out[0] == 12.0
    with pytest.raises(RuntimeError, match="Global variable C has changed since we compiled this kernel, from 1.0 "
                                           "to 2.0"):
        m.a[(1,)](out)
    m.C = tl.constexpr(2.0)  # rebound to an equal value: accepted
    m.b[(1,)](out)
    assert out[0] == 12.0


# Python's bindings at launch, not the file's last ones: a script that launches between two
# bindings of a name. Each case launches at import and keeps its output.
LIVE_BINDINGS = '''
import numpy as np
import triton
import triton.language as tl

DT = tl.float16
C: tl.constexpr = 2
UNUSED = tl.constexpr(10)


@triton.jit
def h(v):
    return v + 100


@triton.jit
def g(v):
    return h(v) * 2


@triton.jit
def k(x_ptr, o_ptr):
    tl.store(o_ptr, (tl.load(x_ptr) * C).to(DT).to(tl.float32))


class P:
    @triton.jit
    def h(x_ptr, o_ptr):  # named like the module's helper h, which g (called here) uses
        tl.store(o_ptr, g(tl.load(x_ptr)))


x = np.array([1.1], np.float32)
out_k = np.full(1, np.nan, np.float32)
k[(1,)](x, out_k)
out_p = np.full(1, np.nan, np.float32)
P.h[(1,)](x, out_p)

C = 5
DT = tl.bfloat16
UNUSED = tl.constexpr(11)
'''


def test_launches_use_pythons_bindings_at_launch(as_triton, write_module):
    m = write_module("live_bindings_mod", LIVE_BINDINGS)
    x = np.float32(1.1)
    assert m.out_k[0] == np.float32(np.float16(x * np.float32(2)))  # C = 2 and fp16, as at that launch
    assert m.out_p[0] == (x + np.float32(100)) * np.float32(2)     # the module's h inside g, not P.h
    with pytest.raises(RuntimeError, match=r"Global variable C has changed since we compiled this kernel, from 2 "
                                           r"to 5"):
        m.k[(1,)](m.x, m.out_k)
    m.C = 2
    with pytest.raises(RuntimeError, match=r"Global variable DT has changed"):
        m.k[(1,)](m.x, m.out_k)
    m.DT = __import__("triton").language.float16
    m.k[(1,)](m.x, m.out_k)  # UNUSED changed too, but k never names it: no error


REBOUND_HELPER = '''
import numpy as np
import triton
import triton.language as tl


@triton.jit
def helper(v):
    return v * 2


@triton.jit
def k(x_ptr, o_ptr):
    tl.store(o_ptr, helper(tl.load(x_ptr)))


out = np.full(1, np.nan, np.float32)
try:
    k[(1,)](np.ones(1, np.float32), out)
    error = None
except Exception as e:  # noqa: BLE001 - the test checks it
    error = e


@triton.jit
def helper(v):  # noqa: F811 - rebinding the helper after the launch is the point
    return v * 3
'''


def test_a_helper_rebound_later_in_the_file_is_refused_not_mixed_up(as_triton, write_module):
    m = write_module("rebound_helper_mod", REBOUND_HELPER)
    assert isinstance(m.error, tritium.CompilationError), m.error
    assert "calls 'helper', which the file binds 2 times (lines 7, 25)" in str(m.error)
    assert np.isnan(m.out[0])


def test_a_closure_shadowing_a_global_a_helper_reads_is_refused(as_triton, write_module):
    m = write_module("closure_shadow_mod", """
import triton
import triton.language as tl

SCALE: tl.constexpr = 3


@triton.jit
def times_scale(v):
    return v * SCALE


def factory(SCALE):
    @triton.jit
    def k(o):
        tl.store(o, times_scale(1.0) + SCALE)

    return k
""")
    with pytest.raises(tritium.CompilationError, match="takes 'SCALE' from its enclosing function, and a jit helper "
                                                       "it calls reads the global 'SCALE'"):
        m.factory(5)[(1,)](np.zeros(1, np.float32))


HELPER_BINDINGS = '''
import os
import numpy as np
import triton
import triton.language as tl

BLOCK = 4
FAST = os.environ.get("NO_SUCH_VARIABLE_TRITIUM", "1") == "1"


def _impl2(v):
    return v * 2


def _impl3(v):
    return v * 3


helper = triton.jit(_impl2)
helper = triton.jit(_impl3)  # the last binding, and Python's at the launch below

if FAST:
    @triton.jit
    def branch(v):
        return v + 10
else:
    @triton.jit
    def branch(v):
        return v + 20


@triton.jit
def documented(v):
    return v - 1


documented.__doc__ = "an attribute assignment, not a rebinding"


@triton.jit
def k(o):
    tl.store(o, branch(helper(documented(2.0))))


class Box:
    @triton.jit
    def k(o):
        tl.store(o + tl.arange(0, BLOCK), tl.full([BLOCK], 1.0, tl.float32))
'''


def test_helper_bindings_python_and_the_file_agree_on(as_triton, write_module):
    m = write_module("helper_bindings_mod", HELPER_BINDINGS)
    out = np.full(1, np.nan, np.float32)
    m.k[(1,)](out)
    assert out[0] == (2.0 - 1) * 3 + 10
    o4 = np.full(4, np.nan, np.float32)
    ck = m.Box.k[(1,)](o4)
    assert ck.name == "k" and ck.metadata.name == "k"  # not the private name it compiles under
    np.testing.assert_array_equal(o4, np.ones(4, np.float32))


def test_attribute_names_are_not_watched_globals(as_triton, write_module):
    write_module("cfg_attr_mod", "import triton.language as tl\nBLOCK = tl.constexpr(8)\n")
    m = write_module("attr_user_mod", """
import triton
import triton.language as tl
import cfg_attr_mod

BLOCK = 4


@triton.jit
def k(o):
    tl.store(o + tl.arange(0, cfg_attr_mod.BLOCK), tl.full([cfg_attr_mod.BLOCK], 2.0, tl.float32))
""")
    out = np.full(8, np.nan, np.float32)
    m.k[(1,)](out)
    np.testing.assert_array_equal(out, np.full(8, 2.0, np.float32))
    m.BLOCK = 5  # a global named like the attribute, which k never reads
    m.k[(1,)](out)


def test_values_tritium_reads_from_the_source_must_agree_with_python(as_triton, write_module):
    """Values read through another module, tuple and None globals come from the source
    files: where Python's value differs at the first compile, the kernel is refused (naming
    both values); a change after the compile raises, as for other globals."""
    import triton.language as tl

    cfg = write_module("cfg_src_mod", "import triton.language as tl\nBLOCK = tl.constexpr(4)\nSCALE = 2.0\n")
    m = write_module("src_agree_mod", """
import triton
import triton.language as tl
import cfg_src_mod

SHAPE = (4, 2)
OPT = tl.constexpr(5.0)


@triton.jit
def via_module(o):
    tl.store(o + tl.arange(0, cfg_src_mod.BLOCK), tl.full([cfg_src_mod.BLOCK], cfg_src_mod.SCALE, tl.float32))


@triton.jit
def via_tuple(o):
    tl.store(o + tl.arange(0, SHAPE[0]), tl.full([SHAPE[0]], SHAPE[1], tl.float32))


@triton.jit
def via_none(o):
    v = 1.0
    if OPT is not None:
        v += OPT
    tl.store(o, v)
""")
    out = np.full(8, np.nan, np.float32)
    m.via_module[(1,)](out)  # agrees with the file: runs
    np.testing.assert_array_equal(out[:4], np.full(4, 2.0, np.float32))
    cfg.SCALE = 3.0  # changed after the compile: raises at the next launch
    with pytest.raises(RuntimeError, match=r"Global variable cfg_src_mod.SCALE has changed .* from 2.0 to 3.0"):
        m.via_module[(1,)](out)
    m.SHAPE = (8, 3)  # before via_tuple's first compile: Python and the file disagree
    with pytest.raises(tritium.CompilationError, match=r"reads 'SHAPE', which is \(8, 3\) in Python now but "
                                                       r"\(4, 2\) in the source"):
        m.via_tuple[(1,)](out)
    m.OPT = tl.constexpr(None)
    with pytest.raises(tritium.CompilationError, match=r"reads 'OPT', which is None in Python now but 5.0 in the source"):
        m.via_none[(1,)](out)
    m.OPT = tl.constexpr(5.0)  # as the file says: runs
    out[0] = np.nan
    m.via_none[(1,)](out)
    assert out[0] == 6.0


def test_a_helper_modules_own_globals_must_agree_with_python(as_triton, write_module):
    """A jit helper from another module reads that module's globals from its file: where
    Python's value differs at the first compile, refused; a later change raises."""
    import triton.language as tl

    lib = write_module("lib_globals_mod", """
import triton
import triton.language as tl

SCALE = tl.constexpr(2.0)


@triton.jit
def scale(v):
    return v * SCALE
""")
    m = write_module("lib_user_mod", """
import triton
import triton.language as tl
from lib_globals_mod import scale


@triton.jit
def k(o):
    tl.store(o, scale(1.0))


@triton.jit
def k2(o):
    tl.store(o, scale(1.0) + 1)
""")
    out = np.full(1, np.nan, np.float32)
    m.k[(1,)](out)
    assert out[0] == 2.0
    lib.SCALE = tl.constexpr(9.0)
    with pytest.raises(RuntimeError, match=r"Global variable lib_globals_mod.SCALE has changed .* from 2.0 to 9.0"):
        m.k[(1,)](out)
    with pytest.raises(tritium.CompilationError, match=r"reads 'lib_globals_mod.SCALE', which is 9.0 in Python now "
                                                       r"but 2.0 in the source"):
        m.k2[(1,)](out)
