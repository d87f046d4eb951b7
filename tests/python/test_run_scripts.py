"""Unchanged Triton scripts (tests/python/scripts, written in the style of Triton's
tutorials, importing `triton`) run on tritium with `python -m tritium.run`: each checks its
own outputs against float64 references (tolerances stated in each script) and exits
non-zero when one is off. Every run gets fresh random inputs (a new TRITIUM_SCRIPT_SEED).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "scripts"


@pytest.mark.parametrize("script", ["vector_add.py", "fused_softmax.py", "matmul_autotune.py", "layer_norm.py",
                                    "fused_attention.py"])
def test_unchanged_script_runs_on_tritium(script, tmp_path):
    env = dict(os.environ, TRITIUM_SCRIPT_SEED=str(int.from_bytes(os.urandom(4), "little")),
               TRITIUM_SCRIPT_DUMP=str(tmp_path))
    env.pop("TRITIUM_BACKEND", None)
    r = subprocess.run([sys.executable, "-m", "tritium.run", str(SCRIPTS / script)], env=env, capture_output=True,
                       text=True, timeout=600)
    print(r.stdout, r.stderr)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [l for l in r.stdout.splitlines() if l.startswith(("ok ", "FAIL"))]
    assert lines and all(l.startswith("ok ") for l in lines), r.stdout
    assert "all checks passed" in r.stdout
    assert list(tmp_path.glob("*.npy")), "the script saved no outputs"


def test_import_triton_is_tritium_only_in_the_run(tmp_path):
    script = tmp_path / "which.py"
    script.write_text("import sys, triton\nprint(triton.__version__, sys.argv[1:])\n")
    r = subprocess.run([sys.executable, "-m", "tritium.run", str(script), "a", "b"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert "+tritium" in r.stdout and "['a', 'b']" in r.stdout
    # Outside the run, `import triton` is whatever the environment has (here: nothing, or a real Triton).
    r2 = subprocess.run([sys.executable, "-c", "import triton; print(triton.__version__)"], capture_output=True,
                        text=True, timeout=120)
    assert "+tritium" not in r2.stdout


def test_run_a_module_pytest_on_a_triton_test_file(tmp_path):
    """`python -m tritium.run -m pytest FILE`: a Triton test suite runs on tritium, and its
    exit status is pytest's (a failing test fails the run)."""
    (tmp_path / "test_k.py").write_text(
        "import numpy as np\nimport triton\nimport triton.language as tl\n\n\n"
        "@triton.jit\ndef twice(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n    m = offs < n\n"
        "    tl.store(out_ptr + offs, 2 * tl.load(x_ptr + offs, mask=m), mask=m)\n\n\n"
        "def test_twice():\n    assert '+tritium' in triton.__version__\n"
        "    x = np.arange(1, 11, dtype=np.float32)\n    out = np.full(10, np.nan, np.float32)\n"
        "    twice[(1,)](x, out, 10, BLOCK=16)\n    np.testing.assert_array_equal(out, 2 * x)\n\n\n"
        "def test_fails():\n    assert False, 'on purpose'\n")
    r = subprocess.run([sys.executable, "-m", "tritium.run", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "test_k.py", "-k", "twice"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 passed" in r.stdout
    r = subprocess.run([sys.executable, "-m", "tritium.run", "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "test_k.py"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 1 and "1 failed, 1 passed" in r.stdout, r.stdout + r.stderr
