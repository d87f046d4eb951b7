"""``python -m tritium.run script.py [args ...]``: runs an unchanged Triton script on tritium.
``python -m tritium.run -m module [args ...]`` runs a module the same way (e.g. ``-m pytest
test_kernels.py``, so a test suite written for Triton runs on tritium).

``import triton`` and its submodules resolve to tritium for this run only
(tritium.install_as_triton); the script runs as ``__main__`` with ``sys.argv`` =
``[script.py, args ...]`` and its directory first on ``sys.path``, as ``python script.py``
would run it. The backend is chosen per launch (tensors in CUDA memory: cuda; else cpu)
unless ``TRITIUM_BACKEND`` names one.
"""

from __future__ import annotations

import os
import runpy
import sys


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if argv[0] == "-m":
        if len(argv) < 2:
            print("tritium.run: -m needs a module name", file=sys.stderr)
            return 2
        from .compat import install_as_triton

        install_as_triton()
        sys.argv = [argv[1]] + argv[2:]
        sys.path.insert(0, os.getcwd())
        try:
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        except SystemExit as e:  # pytest and other tools exit with their status
            return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        return 0
    script = argv[0]
    if not os.path.isfile(script):
        print(f"tritium.run: no such script: {script}", file=sys.stderr)
        return 2
    from .compat import install_as_triton

    install_as_triton()
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
