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
import dis
import functools
import inspect
import linecache
import os
import re
import sys
import threading
import types

from . import _C
from ._annotations import annotation_type
from . import backend as _backend
from .errors import CompilationError, TritiumError

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
        # name -> [(kind, span, in_block)] of the statements binding it at module level, in
        # order: kind "def", "import" or "assign"; in_block: inside a module-level if / try /
        # with / for / while (where the frontend follows Python's control flow itself).
        self.bindings: dict = {}
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return  # the frontend reports it
        for st in tree.body:
            self.top.append(self._span(st))
            self._collect(st, False)

    @staticmethod
    def _span(node):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        return first, node.end_lineno

    def _bind(self, name, kind, node, in_block):
        self.bindings.setdefault(name, []).append((kind, self._span(node), in_block))

    def _collect(self, node, in_block):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.defs.setdefault(node.name, []).append(self._span(node))
            self._bind(node.name, "def", node, in_block)
            return
        if isinstance(node, ast.ClassDef):
            self._bind(node.name, "assign", node, in_block)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for al in node.names:
                self._bind(al.asname or al.name.split(".")[0], "import", node, in_block)
            return
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:  # names bound: a Name, or Names in tuple / list unpacking (not x.attr or x[i])
            todo = [t]
            while todo:
                n = todo.pop()
                if isinstance(n, ast.Name):
                    self._bind(n.id, "assign", node, in_block)
                elif isinstance(n, (ast.Tuple, ast.List)):
                    todo.extend(n.elts)
                elif isinstance(n, ast.Starred):
                    todo.append(n.value)
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, []) or []:
                self._collect(child, True)

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


_ISOLATED_SUFFIX = "__tritium_isolated"


def _isolated_source(fn, path: str, info: "_FileInfo") -> str:
    """The file's text with `fn` moved to top level under the name
    `<name>__tritium_isolated` (so no other definition of its name can shadow it, and the
    module's own definitions of that name stay for the helpers that call them): the
    top-level statement enclosing it (a function, class or block) is blanked except `fn`'s
    own lines, which are dedented. Line numbers are kept (a diagnostic's column is off by
    the indentation, its line is exact)."""
    lines = linecache.getlines(path)
    src_lines, first = inspect.getsourcelines(fn)  # 1-based first line, decorators included
    last = first + len(src_lines) - 1
    indent = len(src_lines[0]) - len(src_lines[0].lstrip())
    out = list(lines)
    lo, hi = info.enclosing(first) or (first, last)
    for i in range(lo - 1, min(hi, len(lines))):
        out[i] = "\n"
    renamed = False
    for i in range(first - 1, min(last, len(lines))):
        line = lines[i]
        lead = len(line) - len(line.lstrip(" \t"))
        text = line[min(indent, lead):] if line.strip() else "\n"
        if not renamed:
            m = re.match(r"(\s*(?:async\s+)?def\s+)" + re.escape(fn.__name__) + r"\b", text)
            if m:
                text = m.group(1) + fn.__name__ + _ISOLATED_SUFFIX + text[m.end():]
                renamed = True
        out[i] = text
    return "".join(out)


def _is_dtype(x) -> bool:
    from .language import dtype

    return isinstance(x, dtype)


_NOT_CONSTEXPR = object()


def _constexpr_value(v):
    """The compile-time value a Python object stands for in a kernel, or _NOT_CONSTEXPR:
    tl.constexpr(x) -> x; int, float, bool, str, dtype -> itself."""
    x = v.value if type(v).__name__ == "constexpr" and hasattr(v, "value") else v
    if isinstance(x, (bool, int, float, str)) or _is_dtype(x):
        return x
    return _NOT_CONSTEXPR


def _base_jit(v):
    """The JITFunction under autotune / heuristics wrappers, or None."""
    while v is not None and not isinstance(v, JITFunction):
        v = getattr(v, "fn", None) if isinstance(v, KernelInterface) else None
    return v


_GLOBAL_LOADS = ("LOAD_GLOBAL", "LOAD_NAME")


def _same_module_code(fn):
    """Yields (function, its bytecode instructions) for every code object of `fn` and of the
    jit helpers of `fn`'s module it names as globals, transitively (nested code objects
    included); the one walk the dependency questions below share."""
    g = fn.__globals__
    todo, seen = [fn], set()
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        codes = [f.__code__]
        while codes:
            c = codes.pop()
            codes.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
            ins = list(dis.get_instructions(c))
            yield f, ins
            for op in ins:
                if op.opname in _GLOBAL_LOADS and op.argval in g:
                    base = _base_jit(g[op.argval])
                    if base is not None and base.fn.__globals__ is g:
                        todo.append(base.fn)


def _used_globals(fn) -> "tuple[dict, set]":
    """The globals of `fn`'s module that `fn` and the jit helpers of that module it calls
    (transitively) read as globals (LOAD_GLOBAL, not attribute names), {name: object}, as
    Python resolves them through fn.__globals__; and the names the helpers (not `fn`
    itself) read."""
    g = fn.__globals__
    used: dict = {}
    by_helpers: set = set()
    for f, ins in _same_module_code(fn):
        for op in ins:
            if op.opname not in _GLOBAL_LOADS:
                continue
            if f is not fn:
                by_helpers.add(op.argval)
            if op.argval in g:
                used.setdefault(op.argval, g[op.argval])
    return used, by_helpers


def _closure_values(fn, by_helpers: set) -> dict:
    """The names `fn` takes from an enclosing function, by value: constexprs (tl.constexpr,
    int, float, bool, str, dtype) pass to the compiler as the values of those names; anything
    else (a jit function, a tensor, a module) is refused, since tritium resolves kernel names
    through the source file, where the enclosing function's locals do not exist. A constexpr
    whose name is also a global that one of the kernel's jit helpers uses is refused too:
    the value would reach that helper, where Python reads the global."""
    out = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            v = cell.cell_contents
        except ValueError:
            continue  # not yet assigned: the frontend reports the name if the kernel uses it
        where = f"{inspect.getsourcefile(fn)}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}'"
        x = _constexpr_value(v)
        if x is not _NOT_CONSTEXPR:
            if name in fn.__globals__ and name in by_helpers:
                raise CompilationError(
                    f"{where} takes '{name}' from its enclosing function, and a jit helper it calls reads the global "
                    f"'{name}': tritium gives a kernel's constexprs to its whole source module, where the helper "
                    "would see the enclosing function's value instead of the global; rename one")
            out[name] = x
            continue
        is_jit = isinstance(v, KernelInterface)
        what = "a jit function" if is_jit else f"a {type(v).__module__}.{type(v).__qualname__}"
        hint = f"define '{name}' at module level" if is_jit else "pass it as an argument, or make it a module-level global"
        raise CompilationError(f"{where} uses '{name}' from its enclosing function, {what}: tritium takes only "
                               f"constexpr values (ints, floats, bools, strings, dtypes) from an enclosing function; "
                               f"{hint}")
    return out


def _refuse_stale_helpers(fn, used: dict, info: "_FileInfo", path: str):
    """A jit helper the kernel uses whose name the file binds more than once, all at top
    level: the frontend reads the file's last binding, Python the one at this launch. When
    the last binding is a def of that name and Python's helper is not that def, or it is an
    import and Python's helper is a def of this file, refused (naming the lines) rather than
    run the other definition. (Bindings inside module-level blocks follow the frontend's own
    evaluation of the block; assignments of other expressions are not compared.)"""
    for name, v in used.items():
        base = _base_jit(v)
        binds = info.bindings.get(name, [])
        if base is None or len(binds) < 2 or any(in_block for _, _, in_block in binds):
            continue
        kind, (lo, hi), _ = binds[-1]
        here = base.fn.__globals__ is fn.__globals__
        live = base.fn.__code__.co_firstlineno
        if kind == "def":
            stale = not (here and lo <= live <= hi)
        elif kind == "import":
            stale = here
        else:
            continue
        if stale:
            where = f"the definition at line {live}" if here else f"'{base.fn.__module__}.{base.fn.__name__}'"
            raise CompilationError(
                f"{path}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}' calls '{name}', which the file binds "
                f"{len(binds)} times (lines {', '.join(str(sp[0]) for _, sp, _ in binds)}); at this launch Python's "
                f"'{name}' is {where}, but tritium compiles from the file and would use its last binding (line "
                f"{lo}): give the helpers different names")


def _value_key(v):
    """The comparison key of a compile-time value (tritium::Module::global_value_key's
    format), or None when `v` is not such a value."""
    x = v.value if type(v).__name__ == "constexpr" and hasattr(v, "value") else v
    if x is None:
        return "None"
    if isinstance(x, bool):
        return "True" if x else "False"
    if isinstance(x, int):
        return f"int:{x}"
    if isinstance(x, float):
        return "float:nan" if x != x else f"float:{x!r}"
    if isinstance(x, str):
        return f"str:{x}"
    if _is_dtype(x):
        return f"dtype:{x.name}"
    if isinstance(x, (tuple, list)):
        keys = [_value_key(e) for e in x]
        return None if None in keys else "(" + ",".join(keys) + ")"
    return None


def _shown(key: str) -> str:
    """A value key as text for messages: "(int:8,int:3)" -> "(8, 3)"."""
    return re.sub(r"\b(int|float|str|dtype):", "", key).replace(",", ", ")


def _module_attr_reads(fn) -> dict:
    """The values `fn` and its same-module jit helpers read through an imported Python
    module (`cfg.BLOCK`, `pkg.cfg.BLOCK`; not triton's / tritium's own modules), by dotted
    path: {path: (module object, attribute, value)}, from LOAD_GLOBAL + LOAD_ATTR chains."""
    g = fn.__globals__
    out = {}
    for _, ins in _same_module_code(fn):
        for i, op in enumerate(ins):
            if op.opname not in _GLOBAL_LOADS or op.argval not in g:
                continue
            obj, path = g[op.argval], op.argval
            j = i + 1
            while isinstance(obj, types.ModuleType) and j < len(ins) and ins[j].opname in ("LOAD_ATTR", "LOAD_METHOD"):
                if obj.__name__.split(".")[0] in ("triton", "tritium") or not hasattr(obj, ins[j].argval):
                    break
                mod, attr = obj, ins[j].argval
                obj, path = getattr(mod, attr), f"{path}.{attr}"
                if not isinstance(obj, types.ModuleType):
                    out[path] = (mod, attr, obj)
                j += 1
    return out


_file_modules: dict = {}  # (path, mtime_ns, size) -> _C.Module of another module's file, as written


def _reach(fn, used: dict, attrs: dict) -> "tuple[list, list]":
    """What tritium resolves from source files rather than from Python, for `fn` and every
    jit helper it reaches (by name or through a module attribute, transitively, across
    modules):
      refs:   [(file or None, dotted path there, JITFunction)] — each reference to a jit
              helper, with the module whose file the frontend resolves it in (None: `fn`'s
              own source module);
      values: [(owner module, attribute, file, dotted path in file, value, label)] — the
              compile-time values jit helpers of OTHER modules read in their own modules
              (by name or through a module attribute: `cfg.SCALE`); label: the helper's
              module name and the path ("helpers.cfg.SCALE")."""
    g = fn.__globals__
    todo = [(None, name, _base_jit(v)) for name, v in used.items()]
    todo += [(None, p, _base_jit(a[2])) for p, a in attrs.items()]
    refs, values, seen = [], [], set()
    while todo:
        file, path, base = todo.pop()
        if base is None or base.fn is fn:
            continue
        refs.append((file, path, base))
        # A helper of fn's module reached from fn's module: its reads are in used / attrs.
        # Reached through another module (a circular import), they are not: collected here.
        if id(base) in seen or (base.fn.__globals__ is g and file is None):
            if file is None:
                seen.add(id(base))
            continue
        seen.add(id(base))
        here = inspect.getsourcefile(base.fn) or base.fn.__code__.co_filename
        owner = sys.modules.get(base.fn.__module__)
        for name, v in _used_globals(base.fn)[0].items():
            if _base_jit(v) is not None:
                todo.append((here, name, _base_jit(v)))
            elif owner is not None and _value_key(v) is not None:
                values.append((owner, name, here, name, v, f"{base.fn.__module__}.{name}"))
        for p, (mod, attr, v) in _module_attr_reads(base.fn).items():
            if _base_jit(v) is not None:
                todo.append((here, p, _base_jit(v)))
            elif _value_key(v) is not None:
                values.append((mod, attr, here, p, v, f"{base.fn.__module__}.{p}"))
    return refs, values


def _source_stat(fn):
    """(file, mtime_ns, size) of the file `fn` was defined in, now; None when unknown."""
    try:
        path = inspect.getsourcefile(fn) or fn.__code__.co_filename
        st = os.stat(path)
        return (path, st.st_mtime_ns, st.st_size)
    except (OSError, TypeError):
        return None


def _refuse_files_edited_since_import(fn, kernel, refs: list, path: str):
    """tritium compiles from the source files; Python runs what it read when the module was
    imported (upstream's JIT keeps the source it read then). A kernel's or helper's file
    edited on disk since then is refused rather than compiled with code Python never ran."""
    for base in [kernel] + [r[2] for r in refs]:
        then = getattr(base, "_src_stat", None)
        if then is None:
            continue
        now = _source_stat(base.fn)
        if now is not None and now != then:
            raise CompilationError(
                f"{path}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}': {then[0]} (which defines "
                f"'{base.fn.__qualname__}') was edited on disk after Python imported it; tritium compiles from the "
                "file and would run code Python never ran: reload the module (importlib.reload) or restart")


def _refuse_non_jit_names_the_source_calls_helpers(fn, m, used: dict, path: str):
    """A name the kernel (or a helper of its module) reads that Python binds to something
    other than a jit function — `from triton.language import *` after a jit helper of the
    same name, say — while the frontend resolves it to a jit function from the source:
    refused, as tritium would call the helper where Python calls the other object."""
    for name, v in used.items():
        if _base_jit(v) is not None or not callable(v):
            continue
        loc = m.function_location(name)
        if loc is not None:
            raise CompilationError(
                f"{path}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}' calls '{name}', which tritium resolves "
                f"from the source to the jit function at {loc[0]}:{loc[2]}, but which Python binds to {v!r}, not a "
                "jit function (a later import or assignment rebinds it): rename the helper")


def _refuse_helpers_python_does_not_hold(fn, m, refs: list, path: str):
    """Each jit helper name the kernel's source resolves (in its own file or in a helper's
    file) must name the function Python holds under that name at this compile: host code
    can rebind it (`global f; f = g` in a function, a monkeypatched module attribute, a
    `try: from fast import f / except ImportError: from slow import f`, another sys.path
    order), and tritium, which compiles from the files, would run another function.
    Refused, naming both definitions."""
    for file, where, base in refs:
        fm = m if file is None else _file_module(file)
        loc = fm.function_location(where) if fm is not None else None
        if loc is None:
            continue  # not a jit function to the frontend: a call to it fails to compile, loudly
        code = base.fn.__code__
        py_file = inspect.getsourcefile(base.fn) or code.co_filename
        same_file = os.path.realpath(loc[0]) == os.path.realpath(py_file)
        # co_firstlineno is the first decorator's line (the def's without one); a `G =
        # triton.jit(F)` decorator the frontend adds stands after the def
        if same_file and min(loc[1], loc[2]) <= code.co_firstlineno <= max(loc[1], loc[2]):
            continue
        in_file = f" in {file}" if file is not None else ""
        raise CompilationError(
            f"{path}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}' calls '{where}'{in_file}, which tritium "
            f"resolves from the source to the jit function at {loc[0]}:{loc[2]}, but which Python binds at this "
            f"launch to '{base.fn.__qualname__}' at {py_file}:{code.co_firstlineno} (host code rebound the name, or "
            "Python found another module): tritium compiles from the source files, so it would run another "
            "function; bind the name plainly in the source (no rebinding at run time)")


def _file_module(file: str):
    try:
        st = os.stat(file)
    except OSError:
        return None
    key = (file, st.st_mtime_ns, st.st_size)
    with _modules_lock:
        m = _file_modules.get(key)
    if m is None:
        m = _C.Module.from_file(file)
        with _modules_lock:
            _file_modules[key] = m
    return m


def _refuse_values_the_source_disagrees_on(fn, m, used: dict, attrs: dict, values: list, host: dict, path: str):
    """Values tritium cannot hand to the compiler (tuples, None; anything read through
    another module) come from the source files as written: where the frontend's value
    differs from Python's at this compile, refused, naming both, rather than compiled with
    the file's."""
    checks = [(name, v, m, name) for name, v in used.items() if name not in host and _value_key(v) is not None]
    checks += [(p, v, m, p) for p, (_, _, v) in attrs.items() if _value_key(v) is not None]
    for _owner, _attr, file, where, v, label in values:
        fm = _file_module(file)
        if fm is not None:
            checks.append((label, v, fm, where))
    for name, v, module, where in checks:
        want = _value_key(v)
        got = module.global_value_key(where)
        if got is not None and got != want:
            raise CompilationError(
                f"{path}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}' reads '{name}', which is "
                f"{_shown(want)} in Python now but {_shown(got)} in the source as tritium reads it: tritium takes this value from the source file (values read through another module, tuples "
                "and None are not passed from Python); set it in the source, or pass it as a constexpr argument")


def _refuse_defaults_the_source_disagrees_on(fn, m, refs: list, path: str):
    """A jit helper's parameter defaults are evaluated by the frontend where its `def`
    stands in the source file; Python evaluated them when the `def` ran. Where the host code
    made them differ (a global rebound by a function before the `def`, say), refused, naming
    both, rather than compiled with the file's value. (The kernel's own defaults are bound
    from Python's at each launch.)"""
    done = set()
    for file, where, base in refs:
        if id(base) in done:
            continue
        done.add(id(base))
        fm = m if file is None else _file_module(file)
        if fm is None:
            continue
        for p in inspect.signature(base.fn).parameters.values():
            want = None if p.default is p.empty else _value_key(p.default)
            if want is None:
                continue
            got = fm.default_value_key(where, p.name)
            if got is not None and got != want:
                raise CompilationError(
                    f"{path}:{fn.__code__.co_firstlineno}: kernel '{fn.__name__}' calls '{base.fn.__qualname__}', whose "
                    f"parameter '{p.name}' defaults to {_shown(want)} in Python but to {_shown(got)} in the source as "
                    "tritium reads it (tritium evaluates a helper's defaults from its source file): write the "
                    "default as a literal or as a global the file sets at top level")


def _frozen(values: dict) -> tuple:
    return tuple(sorted((k, type(v).__name__, repr(v)) for k, v in values.items()))


def _module_for(fn, kernel=None) -> "tuple[_C.Module, dict, str]":
    """The compiled-source module of `fn`, the globals to watch ({name: object}: the
    constexprs and jit helpers `fn` uses), and the kernel's name in the module. The host
    values given to the module are the constexpr globals `fn` and its helpers use, by
    Python's values now, and the constexprs `fn` takes from an enclosing function; modules
    are shared by the kernels of one file text with the same host values."""
    path = inspect.getsourcefile(fn) or fn.__code__.co_filename
    linecache.checkcache(path)  # an edited (reloaded) file is read anew
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
    used, by_helpers = _used_globals(fn)
    _refuse_stale_helpers(fn, used, info, path)
    host, watch = {}, {}
    for name, v in used.items():
        x = _constexpr_value(v)
        if x is not _NOT_CONSTEXPR:
            host[name] = x
            watch[name] = v
        elif _base_jit(v) is not None:
            watch[name] = v
    host.update(_closure_values(fn, by_helpers))
    attrs = _module_attr_reads(fn)
    refs, values = _reach(fn, used, attrs)
    # The files of helpers from other modules are part of the key: a reloaded, edited helper
    # module gives a new module here (its compiled specializations are not reused).
    helper_files = []
    files = {inspect.getsourcefile(r[2].fn) or r[2].fn.__code__.co_filename for r in refs
             if r[2].fn.__globals__ is not fn.__globals__}
    for f in sorted(files | {v[2] for v in values}):
        try:
            hs = os.stat(f)
            helper_files.append((f, hs.st_mtime_ns, hs.st_size))
        except OSError:
            helper_files.append((f, None, None))
    key = file_key + (_frozen(host), tuple(helper_files)) + \
        ((fn.__qualname__, fn.__code__.co_firstlineno) if isolated else ())
    name = fn.__name__ + (_ISOLATED_SUFFIX if isolated else "")
    with _modules_lock:
        m = _modules.get(key)
    if m is None:
        if isolated:
            m = _C.Module.from_string(_isolated_source(fn, path, info), path)
        elif st is not None:
            m = _C.Module.from_file(path)
        else:  # e.g. a notebook cell: linecache holds the source
            m = _C.Module.from_string("".join(linecache.getlines(path)), path)
        m.set_host_globals(host)
        with _modules_lock:
            _modules[key] = m
    _refuse_files_edited_since_import(fn, kernel, refs, path)
    _refuse_helpers_python_does_not_hold(fn, m, refs, path)
    _refuse_non_jit_names_the_source_calls_helpers(fn, m, used, path)
    _refuse_values_the_source_disagrees_on(fn, m, used, attrs, values, host, path)
    _refuse_defaults_the_source_disagrees_on(fn, m, refs, path)
    for owner, attr, _file, _where, v, label in values:  # watched like attribute reads
        attrs.setdefault(label, (owner, attr, v))
    for g_name, v in used.items():  # tuples, None: read from the source, checked above, watched from now on
        if g_name not in watch and _value_key(v) is not None:
            watch[g_name] = v
    return m, watch, attrs, name


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
        return self._r.kernel.name.removesuffix(_ISOLATED_SUFFIX)

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
            # Upstream runs its compiled binary whatever the run-time arguments are (a value
            # specialized as 1 stays 1); tritium refuses arguments that specialize otherwise
            # (ValueError, before launching) rather than run another specialization.
            try:
                return fn.run(*args, grid=grid, _tritium_options=self._opts, _tritium_expect=self.signature)
            except ValueError as e:
                if "this CompiledKernel was compiled as" in str(e):
                    raise ValueError(f"{fn.fn.__name__}: {e}") from None
                raise

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
        self._src_stat = _source_stat(fn)  # the file as Python read it (checked at the first compile)
        self._kernel = None
        self._watch = []
        self._attr_watch = []
        self._launch_cache = _C.LaunchCache()  # this function's specializations, by launch key
        self._runtime_idx = None
        self._constexpr_idx = None
        functools.update_wrapper(self, fn)

    # -- compilation ----------------------------------------------------------------------
    def _load(self):
        if self._kernel is None:
            _sync_search_path()
            m, watch, attrs, name = _module_for(self.fn, self)
            if name not in m.kernel_names():
                raise CompilationError(f"{inspect.getsourcefile(self.fn)}:{self.fn.__code__.co_firstlineno}: "
                                       f"tritium.jit: '{self.fn.__name__}' is not decorated there as a jit function that tritium "
                                       "finds: it compiles kernels from their source file, where each must be a "
                                       "`def` (at module level, in a function or in a class body) under "
                                       "`@triton.jit`, `@tritium.jit`, `@jit`, `@triton.jit(...)` or an imported alias "
                                       "of jit, or a module-level def wrapped by a module-level "
                                       "`NAME = triton.jit(def_name)`; other call forms (in a loop, a function, a "
                                       "dict) are not supported")
            k = m.kernel(name)
            # The globals the kernel uses (constexprs, jit helpers), watched by identity at each launch.
            self._watch = list(watch.items())
            self._attr_watch = [(p, mod, attr, v) for p, (mod, attr, v) in attrs.items()]
            params = k.parameters
            if [p.name for p in params] != self.arg_names:
                raise CompilationError(f"tritium.jit: the source of '{self.fn.__name__}' does not match the function "
                                       "(was the file edited after import?)")
            # Annotation types from the objects Python holds (an alias, a __future__ string),
            # as upstream reads them, replace the frontend's reading of the source text.
            sig = self.signature.parameters
            k.set_annotation_types({p.name: annotation_type(sig[p.name].annotation)
                                    for p in params if not p.is_constexpr})
            params = k.parameters
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
        if self._attr_watch:
            for _, mod, attr, obj in self._attr_watch:
                if getattr(mod, attr, _NOT_CONSTEXPR) is not obj:
                    self._check_globals()
                    break
        opts = kwargs.pop("_tritium_options", None)
        expect = kwargs.pop("_tritium_expect", "")
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
            # Checked before they are narrowed to C ints (2**32 + 4 warps was a raw TypeError).
            if not isinstance(num_warps, int) or not (1 <= num_warps <= 64) or num_warps & (num_warps - 1):
                raise ValueError(f"{self.fn.__name__}: num_warps={num_warps!r} must be a power of two in [1, 64]")
            if not isinstance(num_stages, int) or not (0 <= num_stages <= 64):
                raise ValueError(f"{self.fn.__name__}: num_stages={num_stages!r} must be an integer in [0, 64]")
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
        try:
            r = _C.launch(self._launch_cache, kernel, _backend._backend or "", runtime, grid, meta, num_warps,
                          num_stages, bool(debug), _backend._numerics or "", self.do_not_specialize,
                          self.do_not_specialize_on_alignment, not warmup, expect)
        except TritiumError as e:
            if _ISOLATED_SUFFIX not in str(e):
                raise
            raise type(e)(str(e).replace(_ISOLATED_SUFFIX, "")) from None  # the kernel's own name in messages
        _backend.note_used(r.backend)
        return CompiledKernel(r, self, (num_warps, num_stages, debug))

    def _check_globals(self):
        """A value the kernel reads (a global constexpr or jit helper named in its code or its
        helpers' code, or a value read through another module) was rebound since the kernel
        compiled: an equal compile-time value is accepted (and watched from now on);
        anything else raises, as upstream does."""
        g = self.fn.__globals__

        def changed(what, old, new):
            if new is old:
                return
            ko, kn = _value_key(old), (None if new is _NOT_CONSTEXPR else _value_key(new))
            if ko is None or kn is None or ko != kn:
                shown = "(deleted)" if new is _NOT_CONSTEXPR else (_shown(kn) if kn else repr(new))
                raise RuntimeError(f"Global variable {what} has changed since we compiled this kernel, from "
                                   f"{_shown(ko) if ko else repr(old)} to {shown} "
                                   f"(kernel '{self.fn.__name__}')")

        watch = []
        for name, obj in self._watch:
            new = g.get(name, _NOT_CONSTEXPR)
            changed(name, obj, new)
            watch.append((name, new))
        attr_watch = []
        for path, mod, attr, obj in self._attr_watch:
            new = getattr(mod, attr, _NOT_CONSTEXPR)
            changed(path, obj, new)
            attr_watch.append((path, mod, attr, new))
        self._watch, self._attr_watch = watch, attr_watch

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
