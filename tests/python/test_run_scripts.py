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
