"""Errors a kernel author sees from Python: each names the argument or the construct."""

import numpy as np
import pytest

import tritium

from conftest import ADD_KERNEL_SRC

SRC = ADD_KERNEL_SRC + """

@tritium.jit
def act_kernel(out_ptr, ACT: tl.constexpr = "relu", OPT: tl.constexpr = None):
    if ACT is None:
        tl.store(out_ptr, 1.0)
    elif OPT is None:
        tl.store(out_ptr, 2.0)
    else:
        tl.store(out_ptr, 3.0)


@tritium.jit
def pick(A: tl.constexpr, B: tl.constexpr):
    return 1.0 if A == "1" else 2.0


@tritium.jit
def str_kernel(out_ptr, A: tl.constexpr, B: tl.constexpr):
    tl.store(out_ptr, pick(A, B))


@tritium.jit
def bad_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.exp(tl.load(x_ptr + offs)))
"""


@pytest.fixture
def mod(write_module):
    return write_module("errors_mod", SRC)


def arrays(n=16):
    return np.ones(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)


def test_too_few_arguments(mod):
    x, y, _ = arrays()
    with pytest.raises(TypeError, match=r"add_kernel\(\) missing 2 required positional arguments: 'out_ptr' and 'n'"):
        mod.add_kernel[(1,)](x, y, BLOCK=16)


def test_unknown_keyword(mod):
    x, y, o = arrays()
    with pytest.raises(TypeError, match="BLOKC were specified but are not parameters"):
        mod.add_kernel[(1,)](x, y, o, 16, BLOCK=16, BLOKC=16)


def test_unsupported_dtype_names_the_argument(mod):
    x, y, o = arrays()
    with pytest.raises(TypeError, match=r"argument 'y_ptr' \(position 1\).*not supported"):
        mod.add_kernel[(1,)](x, np.ones(16, np.complex64), o, 16, BLOCK=16)


def test_unsupported_object_names_the_argument(mod):
    x, y, o = arrays()
    with pytest.raises(TypeError, match=r"argument 'out_ptr' \(position 2\): cannot pass <class 'list'>"):
        mod.add_kernel[(1,)](x, y, [0.0] * 16, 16, BLOCK=16)


def test_integer_out_of_range(mod):
    x, y, o = arrays()
    with pytest.raises(ValueError, match=r"argument 'n' \(position 3\).*64-bit"):
        mod.add_kernel[(1,)](x, y, o, 2**70, BLOCK=16)


def test_missing_constexpr(mod):
    x, y, o = arrays()
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'BLOCK'"):
        mod.add_kernel[(1,)](x, y, o, 16)


def test_bad_constexpr_value(mod):
    x, y, o = arrays()
    with pytest.raises(TypeError, match=r"constexpr 'BLOCK': cannot use \[16\]"):
        mod.add_kernel[(1,)](x, y, o, 16, BLOCK=[16])


def test_none_for_a_constexpr_without_a_none_default(mod):
    out = np.full(1, np.nan, np.float32)
    with pytest.raises(TypeError, match="constexpr parameter 'ACT' is None"):
        mod.act_kernel[(1,)](out, None)  # its default is "relu": ignoring None would store 2.0
    mod.act_kernel[(1,)](out, "relu", None)  # OPT's default is None: None is that default
    assert out[0] == 2.0


def test_string_constexprs_that_look_like_a_key_do_not_collide(mod):
    # The two launches differ (A is "1',B='2" vs "1"); a cache key built by joining
    # name=value texts would serve the second with the first's kernel.
    for a, b, want in (("1',B='2", "3", 2.0), ("1", "2',B='3", 1.0)):
        out = np.full(1, np.nan, np.float32)
        mod.str_kernel[(1,)](out, A=a, B=b)
        assert out[0] == want, (a, b)


def test_jit_called_on_a_plain_function_in_a_loop_is_refused_with_the_supported_forms(write_module):
    m = write_module("plain_mod", """
import tritium
import tritium.language as tl


def body(out_ptr):
    tl.store(out_ptr, 1.0)


kernels = [tritium.jit(f) for f in (body,)]
""")
    with pytest.raises(tritium.CompilationError, match=r"plain_mod.py:6: tritium.jit: 'body' is not decorated there.*"
                                                       r"other call forms \(in a loop"):
        m.kernels[0][(1,)](np.zeros(1, np.float32))


def test_bad_grid(mod):
    x, y, o = arrays()
    with pytest.raises(TypeError, match="grid"):
        mod.add_kernel["ten"](x, y, o, 16, BLOCK=16)
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        mod.add_kernel[(1, 1, 1, 1)](x, y, o, 16, BLOCK=16)


def test_compile_error_has_file_line_col(mod):
    x = np.ones(16, np.float32).astype(np.float16)
    with pytest.raises(tritium.CompilationError) as e:
        mod.bad_kernel[(1,)](x, BLOCK=16)
    msg = str(e.value)
    # upstream refuses tl.exp on fp16; the diagnostic points into the kernel's source file.
    assert "errors_mod.py:" in msg and "tl.exp" in msg, msg


def test_unknown_backend():
    with pytest.raises(ValueError, match="unknown backend"):
        tritium.set_backend("tpu")


def test_host_memory_on_an_unavailable_cuda_backend(mod):
    cuda = [b for b in tritium.backends() if b[0] == "cuda"]
    if cuda and cuda[0][1]:
        pytest.skip("a GPU is present: the cuda backend is available")
    with pytest.raises(tritium.DeviceError, match="unavailable"):
        tritium.set_backend("cuda")


def test_num_ctas_other_than_one(mod):
    x, y, o = arrays()
    with pytest.raises(ValueError, match="num_ctas=2"):
        mod.add_kernel[(1,)](x, y, o, 16, BLOCK=16, num_ctas=2)


@pytest.mark.parametrize("opts,match", [({"num_warps": 2**32 + 4}, "num_warps=4294967300"),
                                        ({"num_warps": 3}, "num_warps=3"),
                                        ({"num_stages": 2**32 + 1}, "num_stages=4294967297"),
                                        ({"num_stages": -1}, "num_stages=-1")])
def test_launch_options_out_of_range(mod, opts, match):
    # They were narrowed to C ints: a raw TypeError from the binding (or a wrapped value).
    x, y, o = arrays()
    with pytest.raises(ValueError, match=match):
        mod.add_kernel[(1,)](x, y, o, 16, BLOCK=16, **opts)


def test_do_not_specialize_naming_no_parameter():
    def k(x_ptr, n):
        pass

    with pytest.raises(ValueError, match="names no parameter 'm'"):
        tritium.jit(do_not_specialize=["m"])(k)
    with pytest.raises(ValueError, match="index 5 is out of range"):
        tritium.jit(do_not_specialize=[5])(k)


def test_function_without_a_jit_source(tmp_path):
    # A kernel whose source file is not a @jit function there: refused, naming the file.
    ns = {}
    exec(compile("def lonely(x_ptr):\n    pass\n", str(tmp_path / "nowhere.py"), "exec"), ns)
    k = tritium.jit(ns["lonely"])
    with pytest.raises(tritium.CompilationError, match="source"):
        k[(1,)](np.ones(4, np.float32))


def test_read_only_arrays_are_refused_where_the_kernel_writes(write_module, tmp_path):
    """A read-only numpy array (np.frombuffer over bytes, a read-only memory map) may be read
    by a kernel; passed where the kernel stores, the launch is refused naming the argument
    (writing it would modify immutable memory, or crash on a read-only mapping)."""
    from conftest import ADD_KERNEL_SRC

    add = write_module("readonly_mod", ADD_KERNEL_SRC).add_kernel
    x = np.frombuffer(np.arange(16, dtype=np.float32).tobytes(), np.float32)  # read-only
    assert not x.flags.writeable
    out = np.full(16, np.nan, np.float32)
    add[(1,)](x, x, out, 16, BLOCK=16)  # read-only inputs: fine
    np.testing.assert_array_equal(out, 2 * np.arange(16, dtype=np.float32))
    np.save(tmp_path / "m.npy", np.zeros(16, np.float32))
    mapped = np.load(tmp_path / "m.npy", mmap_mode="r")
    with pytest.raises(tritium.ArgumentError, match=r"'out_ptr'.*is read-only memory"):
        add[(1,)](x, x, mapped, 16, BLOCK=16)
    assert (np.asarray(mapped) == 0).all()
