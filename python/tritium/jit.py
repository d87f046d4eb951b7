"""tritium.jit: Triton's ``@triton.jit`` on tritium's compiler.

A ``JITFunction`` wraps a Python function whose body is Triton-language code. It is
never executed by Python: on ``kernel[grid](*args, **kwargs)`` tritium's C++ compiler
reads the function's source file (``inspect.getsourcefile``), resolves its names the way
Python's import system would (jit helpers imported from other modules, ``tl`` under any
alias, libdevice, module-level constexprs), specializes it on the arguments as Triton's
JIT does, compiles it (in-memory and on-disk caches) and launches it.

Launch semantics (upstream: python/triton/runtime/jit.py, Triton 3.6):

* arguments bind to the function's parameters positionally or by name, defaults apply;
  parameters annotated ``tl.constexpr`` are compile-time values (int, float, bool, str,
  a ``tl`` dtype), the others runtime arguments: tensors (numpy arrays, DLPack objects,
  torch tensors; their memory is used in place, never copied), ints, floats, bools, None;
* specialization: a tensor by its dtype and whether its address is a multiple of 16; an
  int as i32 when it fits (else i64) and whether it equals 1 or is a multiple of 16
  (``do_not_specialize`` / ``do_not_specialize_on_alignment`` turn that off per
  parameter); a float as fp32; None as the constexpr None;
* ``grid`` is a tuple of 1-3 ints or a callable over the meta-parameters (every bound
  argument by name plus num_warps / num_stages), called at each launch;
* launch options: ``num_warps`` (default 4), ``num_stages`` (default 3), ``num_ctas``
  (1 only), ``debug`` (``tl.device_assert`` active); ``maxnreg`` and
  ``enable_fp_fusion`` are accepted and have no effect on the result;
* the backend is ``tritium.set_backend(...)``'s, else ``$TRITIUM_BACKEND``'s, else the
  one where the tensors live (CUDA memory: cuda; host memory: cpu);
* the launch does not wait where the backend allows it (cuda: the default stream);
  ``tritium.synchronize()`` waits.

Errors: ``tritium.CompilationError`` (the construct and file:line:col),
``tritium.ArgumentError`` / ``TypeError`` / ``ValueError`` naming the argument.
"""

from __future__ import annotations

import ast
import collections.abc
import functools
import inspect
import linecache
import os
import sys
import threading

from . import _C
from . import backend as _backend
from .errors import CompilationError

_LAUNCH_OPTIONS = {"num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "debug", "warmup",
                   "grid", "launch_cooperative_grid", "enable_reflect_ftz", "sanitize_overflow"}

# TRITON_DEBUG=1 at import: tl.device_assert active in every kernel (as upstream's knob).
_DEBUG_ENV = os.environ.get("TRITON_DEBUG", "0") == "1"

_modules_lock = threading.Lock()
_modules: dict = {}  # file key + host values (+ qualname, line when isolated) -> _C.Module
_search_path_seen = None


def _sync_search_path():
    """Lets the C++ import resolver search Python's sys.path (TRITIUM_PYTHONPATH)."""
    global _search_path_seen
    key = tuple(sys.path)
    if key != _search_path_seen:
        os.environ["TRITIUM_PYTHONPATH"] = os.pathsep.join(p if p else os.getcwd() for p in sys.path)
        _search_path_seen = key


class _FileInfo:
    """What the Python side needs of a kernel's source file, parsed once per file text:
    the span (first line, decorators included, to last line; 1-based) of each top-level
    statement, and of every module-level definition of each name — at top level or inside
    module-level if / try / with / for / while blocks, where Python binds it globally too."""

    def __init__(self, text: str):
        self.top: list = []
        self.defs: dict = {}
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return  # the frontend reports it
        for st in tree.body:
            self.top.append(self._span(st))
            self._collect(st)

    @staticmethod
    def _span(node):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        return first, node.end_lineno

    def _collect(self, node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.defs.setdefault(node.name, []).append(self._span(node))
            return
        if isinstance(node, ast.ClassDef):
            return
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, []) or []:
                self._collect(child)

    def enclosing(self, line: int):
        for first, last in self.top:
            if first <= line <= last:
                return first, last
        return None


_info_cache: dict = {}  # file text -> _FileInfo


def _file_info(path: str) -> "_FileInfo":
    text = "".join(linecache.getlines(path))
    with _modules_lock:
        info = _info_cache.get(text)
    if info is None:
        info = _FileInfo(text)
        with _modules_lock:
            _info_cache[text] = info
    return info


def _needs_isolation(fn, info: "_FileInfo") -> bool:
    """False when `fn` is its name's only module-level definition and a top-level statement
    (the frontend then finds it by name in the file as it is); True otherwise: defined in a
    function, a class body or a module-level block, or its name is defined more than once."""
    if "." in fn.__qualname__:
        return True
    spans = info.defs.get(fn.__name__, [])
    return len(spans) != 1 or spans[0] not in info.top or spans[0][0] != fn.__code__.co_firstlineno


def _isolated_source(fn, path: str, info: "_FileInfo") -> str:
    """The file's text with `fn` alone as the top-level definition of its name: the
    top-level statement enclosing it (a function, class or block) is blanked except `fn`'s
    own lines, which are dedented, and every other module-level definition of the same
    name is blanked. Line numbers are kept (a diagnostic's column is off by the
    indentation, its line is exact)."""
    lines = linecache.getlines(path)
    src_lines, first = inspect.getsourcelines(fn)  # 1-based first line, decorators included
    last = first + len(src_lines) - 1
    indent = len(src_lines[0]) - len(src_lines[0].lstrip())
    out = list(lines)
    blank = [info.enclosing(first) or (first, last)]
    blank += [sp for sp in info.defs.get(fn.__name__, []) if not (sp[0] <= first <= sp[1])]
    for lo, hi in blank:
        for i in range(lo - 1, min(hi, len(lines))):
            out[i] = "\n"
    for i in range(first - 1, min(last, len(lines))):
        line = lines[i]
        lead = len(line) - len(line.lstrip(" \t"))
        out[i] = line[min(indent, lead):] if line.strip() else "\n"
    return "".join(out)


def _closure_values(fn) -> dict:
    """The names `fn` takes from an enclosing function, by value: constexprs (tl.constexpr,
    int, float, bool, str, dtype) pass to the compiler as the values of those names; anything
    else (a jit function, a tensor, a module) is refused, since tritium resolves kernel names
    through the source file, where the enclosing function's locals do not exist."""
    out = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            v = cell.cell_contents
        except ValueError:
            continue  # not yet assigned: the frontend reports the name if the kernel uses it
        x = v.value if type(v).__name__ == "constexpr" and hasattr(v, "value") else v
        if isinstance(x, (bool, int, float, str)) or hasattr(x, "_tritium_dtype"):
            out[name] = x
            continue
        what = "a jit function" if isinstance(v, KernelInterface) else f"a {type(v).__module__}.{type(v).__qualname__}"
        hint = (f"define '{name}' at module level" if isinstance(v, KernelInterface) else
                "pass it as an argument, or make it a module-level global")
        raise CompilationError(f"{inspect.getsourcefile(fn)}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}' uses "
                               f"'{name}' from its enclosing function, {what}: tritium takes only constexpr values "
                               f"(ints, floats, bools, strings, dtypes) from an enclosing function; {hint}")
    return out


def _frozen(values: dict) -> tuple:
    return tuple(sorted((k, type(v).__name__, repr(v)) for k, v in values.items()))


def _module_for(fn) -> "tuple[_C.Module, dict]":
    """The compiled-source module of `fn` and the host values given to it (the constexpr
    globals of its module and the constexprs it takes from an enclosing function). Modules
    are shared by the kernels of one file text with the same host values."""
    path = inspect.getsourcefile(fn) or fn.__code__.co_filename
    try:
        st = os.stat(path)
        file_key = (path, st.st_mtime_ns, st.st_size)
    except OSError:
        st = None
        file_key = (path, "linecache")
    if not linecache.getlines(path):
        raise CompilationError(f"tritium.jit: the source of '{fn.__qualname__}' ({path}) is not available; "
                               "tritium compiles kernels from their source file")
    info = _file_info(path)
    isolated = _needs_isolation(fn, info)
    host = _constexpr_globals(fn.__globals__)
    closure = _closure_values(fn)
    host.update(closure)
    key = file_key + (_frozen(host),) + ((fn.__qualname__, fn.__code__.co_firstlineno) if isolated else ())
    with _modules_lock:
        m = _modules.get(key)
    if m is not None:
        return m, host
    if isolated:
        m = _C.Module.from_string(_isolated_source(fn, path, info), path)
    elif st is not None:
        m = _C.Module.from_file(path)
    else:  # e.g. a notebook cell: linecache holds the source
        m = _C.Module.from_string("".join(linecache.getlines(path)), path)
    m.set_host_globals(host)
    with _modules_lock:
        _modules[key] = m
    return m, host


def _constexpr_globals(scope: dict) -> dict:
    """The ``X = tl.constexpr(...)`` globals of a kernel's module, by the values Python
    computed (upstream Triton reads them from the function's globals, whatever expression
    made them; tritium's frontend evaluates only the expressions it knows). Values that are
    not an int, float, bool, str or tritium dtype are left to the frontend. Captured when a
    kernel is first compiled, as upstream captures them at compile time; a later change to
    one of them raises at the next launch of that kernel (JITFunction._check_globals)."""
    out = {}
    for name, v in scope.items():
        if type(v).__name__ != "constexpr" or not hasattr(v, "value"):
            continue
        x = v.value
        if isinstance(x, (bool, int, float, str)) or hasattr(x, "_tritium_dtype"):
            out[name] = x
    return out


class CompiledKernel:
    """One specialization of a kernel, as launched (what ``kernel[grid](...)`` returns).

    Attributes: ``name``; ``signature`` (tritium's AOT signature of the specialization,
    constexprs in place); ``backend``; ``grid`` (x, y, z); ``metadata``, a dict whose keys
    read as attributes too (num_warps, num_stages, the meta-parameters, ``shared``: shared
    memory bytes per program, ``name``, ``backend``); ``n_regs`` (32-bit registers per
    thread), ``n_spills`` (local-memory words per thread: spills and local arrays),
    ``n_max_threads`` — on cpu the model figures of ``tritium.backend.device_properties``;
    ``asm``: the generated code by kind, ``"ir"`` (the kernel IR after the pass pipeline) and
    the backend's source (``"cpp"`` for cpu, ``"cuda"`` for cuda, ``"ir"`` only for interp)
    and, on cuda, ``"ptx"`` (compiled when first read).

    ``compiled[grid](*args)`` launches this specialization as upstream's CompiledKernel does:
    one argument per kernel parameter, constexprs included (they must equal the compiled
    values: a different one raises ValueError rather than run the compiled one); the
    launch goes through the kernel's launch path, so arguments are checked as for
    ``kernel[grid]``. ``_init_handles()`` is accepted (kernels are loaded when compiled).
    """

    __slots__ = ("_r", "_fn", "_opts", "__dict__")

    def __init__(self, result, fn=None, opts=None):
        self._r = result
        self._fn = fn
        self._opts = opts

    @property
    def name(self):
        return self._r.kernel.name

    @property
    def signature(self):
        return self._r.kernel.signature

    @property
    def backend(self):
        return self._r.kernel.backend

    @property
    def grid(self):
        return self._r.grid

    @functools.cached_property
    def metadata(self) -> "_Metadata":
        m = _Metadata(self._r.meta)
        m.setdefault("shared", self._resources["shared_bytes"])
        m.setdefault("name", self.name)
        m.setdefault("backend", self.backend)
        return m

    @functools.cached_property
    def _resources(self) -> dict:
        return self._r.kernel.resources

    @property
    def n_regs(self) -> int:
        return self._resources["registers"]

    @property
    def n_spills(self) -> int:
        return self._resources["local_bytes"] // 4

    @property
    def n_max_threads(self) -> int:
        return self._resources["max_threads"]

    def _init_handles(self):
        """Upstream loads the binary here; tritium loaded it when it compiled."""

    def __getitem__(self, grid):
        if self._fn is None:
            raise TypeError("this CompiledKernel cannot be launched (it was not made by a tritium.jit function)")

        def launch(*args):
            fn = self._fn
            meta = self._r.meta
            for i in fn._constexpr_idx:
                want = meta.get(fn.arg_names[i])
                if i < len(args) and args[i] is not None and (type(args[i]) is not type(want) or args[i] != want):
                    raise ValueError(f"{fn.fn.__name__}: constexpr '{fn.arg_names[i]}' = {args[i]!r} differs from "
                                     f"the {meta.get(fn.arg_names[i])!r} this kernel was compiled with")
            return fn.run(*args, grid=grid, _tritium_options=self._opts)

        return launch

    @functools.cached_property
    def asm(self) -> "_Assembly":
        return _Assembly(self._r.kernel, self.backend)

    def __repr__(self):
        return f"CompiledKernel({self.name}[{self.signature}] on {self.backend})"


class _Metadata(dict):
    """CompiledKernel.metadata: a dict whose keys also read as attributes (``metadata.shared``,
    ``metadata.num_warps``), as upstream's metadata namedtuple."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"kernel metadata has no '{name}' (it has: {', '.join(self)})") from None


class _Assembly(collections.abc.Mapping):
    """``CompiledKernel.asm``: generated code by kind, each produced when first read (the PTX
    of a cuda kernel is an NVRTC compile)."""

    _SOURCE_KIND = {"cpu": "cpp", "cuda": "cuda", "opencl": "opencl", "metal": "msl", "msl-emu": "msl"}

    def __init__(self, kernel, backend):
        self._k = kernel
        self._kinds = ["ir"]
        src = self._SOURCE_KIND.get(backend)
        if src:
            self._kinds.append(src)
        self._extra = list(kernel.assembly_kinds)
        self._kinds += self._extra
        self._done = {}

    def __getitem__(self, kind):
        if kind not in self._done:
            if kind == "ir":
                self._done[kind] = self._k.ir
            elif kind in self._extra:
                self._done[kind] = self._k.assembly(kind)
            elif kind in self._kinds:
                self._done[kind] = self._k.source
            else:
                raise KeyError(f"{kind!r}: this kernel's asm has {', '.join(self._kinds)}")
        return self._done[kind]

    def __iter__(self):
        return iter(self._kinds)

    def __len__(self):
        return len(self._kinds)


class KernelInterface:
    """``kernel[grid](*args, **kwargs)`` is ``kernel.run(*args, grid=grid, **kwargs)``."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)


def _make_binder(name: str, sig: inspect.Signature):
    """A function binding (*args, **kwargs) to the parameters: (values in order, extra kwargs)."""
    params, names, defaults = [], [], {}
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY):
            raise CompilationError(f"tritium.jit: parameter '{p.name}': *args, **kwargs and keyword-only "
                                   "parameters are not supported in kernels")
        names.append(p.name)
        if p.default is p.empty:
            params.append(p.name)
        else:
            defaults[p.name] = p.default
            params.append(f"{p.name}=_defaults[{p.name!r}]")
    src = (f"def {name}({', '.join(params + ['**_extra'])}):\n"
           f"    return ({''.join(n + ', ' for n in names)}), _extra\n")
    scope = {"_defaults": defaults}
    exec(compile(src, "<tritium binder>", "exec"), scope)  # noqa: S102 - generated from the signature
    return scope[name]


class JITFunction(KernelInterface):
    """A Triton-language kernel (see the module docstring for the launch semantics)."""

    def __init__(self, fn, *, do_not_specialize=None, do_not_specialize_on_alignment=None, debug=None,
                 noinline=None, repr=None, launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.debug = debug
        self.noinline = noinline

        def names_of(spec):
            out = []
            for s in spec or ():
                if isinstance(s, int):
                    if not 0 <= s < len(self.arg_names):
                        raise ValueError(f"{fn.__name__}: do_not_specialize index {s} is out of range")
                    out.append(self.arg_names[s])
                else:
                    if s not in self.arg_names:
                        raise ValueError(f"{fn.__name__}: do_not_specialize names no parameter '{s}'")
                    out.append(s)
            return out

        self.do_not_specialize = names_of(do_not_specialize)
        self.do_not_specialize_on_alignment = names_of(do_not_specialize_on_alignment)
        self._binder = _make_binder(fn.__name__, self.signature)
        self._kernel = None
        self._watch = []
        self._launch_cache = _C.LaunchCache()  # this function's specializations, by launch key
        self._runtime_idx = None
        self._constexpr_idx = None
        functools.update_wrapper(self, fn)

    # -- compilation ----------------------------------------------------------------------
    def _load(self):
        if self._kernel is None:
            _sync_search_path()
            m, host = _module_for(self.fn)
            name = self.fn.__name__
            if name not in m.kernel_names():
                raise CompilationError(f"{inspect.getsourcefile(self.fn)}:{self.fn.__code__.co_firstlineno}: "
                                       f"tritium.jit: '{name}' is not decorated there as a jit function that tritium "
                                       "finds: it compiles kernels from their source file, where each must be a "
                                       "`def` (at module level, in a function or in a class body) under "
                                       "`@triton.jit`, `@tritium.jit`, `@jit`, `@triton.jit(...)` or an imported alias "
                                       "of jit, or a module-level def wrapped by a module-level "
                                       "`NAME = triton.jit(def_name)`; other call forms (in a loop, a function, a "
                                       "dict) are not supported")
            k = m.kernel(name)
            g = self.fn.__globals__
            # The constexpr globals given to the compiler, watched by identity at each launch.
            self._watch = [(n, g[n]) for n in host if n in g and n not in self.fn.__code__.co_freevars]
            params = k.parameters
            if [p.name for p in params] != self.arg_names:
                raise CompilationError(f"tritium.jit: the source of '{name}' does not match the function "
                                       "(was the file edited after import?)")
            self._runtime_idx = [i for i, p in enumerate(params) if not p.is_constexpr]
            self._constexpr_idx = [i for i, p in enumerate(params) if p.is_constexpr]
            # constexprs None may be passed to: those whose default is None (the default applies)
            self._none_ok = {p.name for p in params if p.is_constexpr and p.has_default and p.default_text == "None"}
            self._kernel = k
        return self._kernel

    # -- launching ------------------------------------------------------------------------
    def run(self, *args, grid, warmup=False, **kwargs):
        """Binds, specializes, compiles (cached) and launches over `grid`; returns the
        CompiledKernel. With warmup=True only compiles (Triton's kernel.warmup)."""
        kernel = self._load()
        if self._watch:
            g = self.fn.__globals__
            for name, obj in self._watch:
                if g.get(name) is not obj:
                    self._check_globals()
                    break
        opts = kwargs.pop("_tritium_options", None)
        try:
            values, extra = self._binder(*args, **kwargs)
        except TypeError as e:
            raise TypeError(str(e)) from None
        if opts is not None:  # CompiledKernel[grid](...): the compiled kernel's options
            num_warps, num_stages, debug = opts
        elif extra or "num_warps" in kwargs or "num_stages" in kwargs:
            # As upstream, a keyword argument is read as a launch option too when it names
            # one, even when it also binds a kernel parameter (`num_stages: tl.constexpr`).
            num_warps = extra.pop("num_warps", kwargs.get("num_warps", 4))
            num_stages = extra.pop("num_stages", kwargs.get("num_stages", 3))
            num_ctas = extra.pop("num_ctas", 1)
            debug = extra.pop("debug", None)
            for k in ("maxnreg", "enable_fp_fusion", "launch_cooperative_grid", "enable_reflect_ftz",
                      "sanitize_overflow"):
                extra.pop(k, None)
            if extra:
                raise TypeError(f"{self.fn.__name__}: keyword argument(s) {', '.join(sorted(extra))} were "
                                "specified but are not parameters of the kernel nor launch options")
            if num_ctas != 1:
                raise ValueError(f"{self.fn.__name__}: num_ctas={num_ctas}: tritium launches one CTA per program")
        else:
            num_warps, num_stages, debug = 4, 3, None
        if debug is None:
            debug = self.debug if self.debug is not None else _DEBUG_ENV
        runtime = [values[i] for i in self._runtime_idx]
        meta = {}
        for i in self._constexpr_idx:
            v = values[i]
            if v is None:
                if self.arg_names[i] in self._none_ok:
                    continue  # the source's default (None) applies
                raise TypeError(f"{self.fn.__name__}: constexpr parameter '{self.arg_names[i]}' is None: tritium "
                                "passes None only to a constexpr whose default is None (a constexpr value is an "
                                "int, float, bool, str or dtype)")
            meta[self.arg_names[i]] = v
        if callable(grid):
            named = dict(zip(self.arg_names, values))
            named["num_warps"] = num_warps
            named["num_stages"] = num_stages
            grid = grid(named)
        r = _C.launch(self._launch_cache, kernel, _backend._backend or "", runtime, grid, meta, num_warps, num_stages, bool(debug),
                      _backend._numerics or "", self.do_not_specialize, self.do_not_specialize_on_alignment, not warmup)
        _backend.note_used(r.backend)
        return CompiledKernel(r, self, (num_warps, num_stages, debug))

    def _check_globals(self):
        """A tl.constexpr global of the kernel's module was rebound since the kernel was
        compiled: the same value is accepted (and watched from now on); another value raises,
        as upstream raises for a global a compiled kernel used (tritium does not know which
        of its module's constexpr globals a kernel uses, so it watches them all)."""
        g = self.fn.__globals__
        watch = []
        for name, obj in self._watch:
            new = g.get(name)
            old_v = getattr(obj, "value", obj)
            new_v = getattr(new, "value", new)
            if new is not obj and (type(new).__name__ != "constexpr" or type(new_v) is not type(old_v) or new_v != old_v):
                raise RuntimeError(f"Global variable {name} has changed since we compiled this kernel, from "
                                   f"{old_v!r} to {new_v!r} (kernel '{self.fn.__name__}'; tritium watches every "
                                   "tl.constexpr global of the kernel's module)")
            watch.append((name, new))
        self._watch = watch

    def warmup(self, *args, grid, **kwargs):
        """Compiles the specialization `kernel[grid](*args, **kwargs)` would launch, without launching."""
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.fn.__name__} is a @jit kernel: launch it as {self.fn.__name__}[grid](...), "
                           "or call it from another @jit function")

    def __repr__(self):
        return f"JITFunction({self.module}:{self.fn.__qualname__})"


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=None,
        do_not_specialize_on_alignment=None, debug=None, noinline=None):
    """Decorator: ``@tritium.jit`` / ``@tritium.jit(do_not_specialize=[...])``, as triton.jit."""

    def decorator(f):
        return JITFunction(f, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment, debug=debug,
                           noinline=noinline, repr=repr, launch_metadata=launch_metadata)

    return decorator(fn) if fn is not None else decorator
