"""Launch tritium-compiled kernels on torch tensors from Python, through libtritium_c.so.

A bench tool, not the Python package (issue 5): it lets a script time tritium's cuda
backend and upstream Triton on the same tensors in one process, interleaved. The launch
mirrors upstream Triton's ``kernel[grid](*args, CONST=..., num_warps=..., num_stages=...)``
and its JIT specialization (python/triton/runtime/jit.py): a tensor argument becomes
``*<dtype>`` with ``:16`` when its address is a multiple of 16 bytes; an int becomes
``i32`` when it fits, else ``i64``, with ``:1`` when it equals 1 and ``:16`` when it is a
multiple of 16; a float becomes ``fp32``; constexpr parameters are passed by value. Each
specialization is compiled once (tritium's own caches) and launched without waiting
(``tritium_c_launch(..., wait=0)``: the CUDA default stream, which torch and Triton use
too), so CUDA-event timings see the kernel, not a host synchronisation.

    lib = TritiumLib("build/capi/libtritium_c.so", backend="cuda")
    mod = load_kernels("vector_add")                  # the triton module (kernel_loader)
    tt = lib.module(mod)                             # the same kernels, compiled by tritium
    tt.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)

Errors (compile errors with file:line:col, argument errors naming the parameter, device
errors) raise ``TritiumError`` with tritium's message.
"""

import ctypes
import inspect

import torch

PTR, INT, FLOAT, NONE = 0, 1, 2, 3

_DTYPES = {
    torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16", torch.float64: "fp64",
    torch.int8: "i8", torch.int16: "i16", torch.int32: "i32", torch.int64: "i64", torch.uint8: "u8",
    torch.bool: "i1",
}


class TritiumError(RuntimeError):
    """A tritium compile, argument or device error (tritium's message)."""


class _Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("i", ctypes.c_int64), ("f", ctypes.c_double), ("ptr", ctypes.c_void_p),
                ("bytes", ctypes.c_uint64), ("dtype", ctypes.c_char_p)]


class TritiumLib:
    """libtritium_c.so, loaded once; `backend` ("cuda", "cpu", ...) for every compile."""

    def __init__(self, path, backend="cuda"):
        self.lib = ctypes.CDLL(path)
        self.backend = backend.encode()
        L = self.lib
        L.tritium_c_last_error.restype = ctypes.c_char_p
        L.tritium_c_version.restype = ctypes.c_char_p
        L.tritium_c_compile.restype = ctypes.c_void_p
        L.tritium_c_compile.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.c_int, ctypes.c_int, ctypes.c_int]
        L.tritium_c_launch.restype = ctypes.c_int
        L.tritium_c_launch.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                       ctypes.POINTER(_Arg), ctypes.c_int, ctypes.c_int]
        L.tritium_c_synchronize.argtypes = [ctypes.c_char_p]
        L.tritium_c_source.restype = ctypes.c_char_p
        L.tritium_c_source.argtypes = [ctypes.c_void_p]
        L.tritium_c_signature.restype = ctypes.c_char_p
        L.tritium_c_signature.argtypes = [ctypes.c_void_p]
        L.tritium_c_num_args.argtypes = [ctypes.c_void_p]

    def version(self):
        return self.lib.tritium_c_version().decode()

    def error(self):
        return self.lib.tritium_c_last_error().decode()

    def synchronize(self):
        if self.lib.tritium_c_synchronize(self.backend):
            raise TritiumError(self.error())

    def module(self, triton_module):
        """The jit functions of `triton_module` (a module of @triton.jit kernels imported from a
        file), compiled by tritium from the same file."""
        return _Module(self, triton_module)


class _Module:
    def __init__(self, lib, mod):
        self._lib, self._mod = lib, mod

    def __getattr__(self, name):
        fn = getattr(self._mod, name)
        k = TritiumKernel(self._lib, inspect.getsourcefile(fn.fn), name, fn.fn)
        setattr(self, name, k)
        return k


def _constexpr_text(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if v is None:
        return "None"
    if isinstance(v, str):
        return repr(v)
    name = getattr(v, "name", None)          # a tl.dtype
    if name is not None:
        return "tl." + str(v).replace("triton.language.", "")
    raise TypeError(f"constexpr value {v!r} has no signature spelling")


class TritiumKernel:
    """One jit function of a file; ``kernel[grid](*args, **meta)`` compiles (cached) and
    launches it with tritium, as upstream Triton's launch does."""

    def __init__(self, lib, path, name, pyfn):
        self.lib, self.path, self.name = lib, path, name
        self.params = []                                 # (name, is_constexpr, default)
        for p in inspect.signature(pyfn).parameters.values():
            ann = p.annotation
            is_cx = ann is not inspect.Parameter.empty and "constexpr" in str(ann)
            self.params.append((p.name, is_cx, p.default))
        self.cache = {}
        self.last = None                                 # the last compiled handle (for .source())

    def __getitem__(self, grid):
        return lambda *args, **kw: self.run(grid, args, kw)

    def source(self):
        return self.lib.lib.tritium_c_source(self.last).decode() if self.last else ""

    def signature(self):
        return self.lib.lib.tritium_c_signature(self.last).decode() if self.last else ""

    def run(self, grid, args, kw):
        nw, ns = kw.pop("num_warps", 4), kw.pop("num_stages", 3)
        if len(args) > len(self.params):
            raise TypeError(f"{self.name} takes {len(self.params)} arguments, got {len(args)}")
        names = {p for p, _, _ in self.params}
        unknown = [k for k in kw if k not in names]
        if unknown:
            raise TypeError(f"{self.name}: unknown keyword argument(s) {', '.join(unknown)}")
        bound = {}
        for (pname, _, _), a in zip(self.params, args):
            bound[pname] = a
        bound.update(kw)
        entries, rt = [], []
        for pname, is_cx, default in self.params:
            if pname in bound:
                v = bound[pname]
            elif default is not inspect.Parameter.empty:
                v = default
                bound[pname] = v
            else:
                raise TypeError(f"{self.name}: missing argument '{pname}'")
            if is_cx:
                entries.append(_constexpr_text(v))
            elif isinstance(v, torch.Tensor):
                entries.append("*" + _DTYPES[v.dtype] + (":16" if v.data_ptr() % 16 == 0 else ""))
                rt.append(v)
            elif isinstance(v, bool):
                entries.append("i1")
                rt.append(int(v))
            elif isinstance(v, int):
                if not -2 ** 63 <= v < 2 ** 63:   # Triton would pass [2^63, 2^64) as u64; the C ABI has int64 only
                    raise TypeError(f"{self.name}: argument '{pname}' = {v} does not fit in int64")
                t = "i32" if -2 ** 31 <= v < 2 ** 31 else "i64"
                entries.append(t + (":1" if v == 1 else ":16" if v % 16 == 0 else ""))
                rt.append(v)
            elif isinstance(v, float):
                entries.append("fp32")
                rt.append(v)
            elif v is None:
                entries.append("None")
            else:
                raise TypeError(f"{self.name}: argument '{pname}' of type {type(v).__name__} is not supported")
        sig = ", ".join(entries)
        key = (sig, nw, ns)
        h = self.cache.get(key)
        if h is None:
            h = self.lib.lib.tritium_c_compile(self.lib.backend, self.path.encode(), self.name.encode(), sig.encode(),
                                               nw, ns, 0)
            if not h:
                raise TritiumError(self.lib.error())
            self.cache[key] = h
        self.last = h
        arr = (_Arg * max(1, len(rt)))()
        keep = []
        for i, v in enumerate(rt):
            a = arr[i]
            if isinstance(v, torch.Tensor):
                st = v.untyped_storage()
                a.kind, a.ptr = PTR, v.data_ptr()
                a.bytes = st.data_ptr() + st.nbytes() - v.data_ptr()
                d = _DTYPES[v.dtype].encode()
                keep.append(d)
                a.dtype = d
            elif isinstance(v, float):
                a.kind, a.f = FLOAT, v
            else:
                a.kind, a.i = INT, v
        g = grid(bound) if callable(grid) else grid
        g = tuple(g) + (1,) * (3 - len(g))
        if self.lib.lib.tritium_c_launch(h, g[0], g[1], g[2], arr, len(rt), 0):
            raise TritiumError(self.lib.error())
