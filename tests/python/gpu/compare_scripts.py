"""The tutorial-style scripts (tests/python/scripts) on upstream Triton and on tritium, on the
GPU with torch CUDA tensors (run by scripts/gpu-check --python).

Each script runs twice with the same inputs (one TRITIUM_SCRIPT_SEED): `python script.py`
(upstream Triton) and `python -m tritium.run script.py` (tritium's cuda backend, zero
copies: the scripts pass torch CUDA tensors). Both runs check their own outputs against
float64 references and save them; this compares the two runs' outputs element by element.
Bitwise equality is required where the numerics contract says the two must agree bit for
bit: kernels made only of correctly rounded IEEE operations (vector_add). Elsewhere the
two compilers may order a dot's accumulation or a reduction differently, and the table
shows how far apart they are (max |triton - tritium|, the fraction of equal bits).
Exit status 1 when a run fails its own checks or a bitwise-required output differs.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
BITWISE = {"vector_add"}


def run(cmd, env):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    print(r.stdout.rstrip())
    if r.returncode != 0:
        print(r.stderr[-4000:])
    return r.returncode == 0


def main():
    seed = str(int.from_bytes(os.urandom(4), "little"))
    ok = True
    rows = []
    for script in ["vector_add", "fused_softmax", "matmul_autotune", "layer_norm", "fused_attention"]:
        path = str(SCRIPTS / f"{script}.py")
        with tempfile.TemporaryDirectory() as up, tempfile.TemporaryDirectory() as tr:
            base = dict(os.environ, TRITIUM_SCRIPT_SEED=seed)
            base.pop("TRITIUM_BACKEND", None)
            print(f"== {script}: upstream Triton")
            ok &= run([sys.executable, path], dict(base, TRITIUM_SCRIPT_DUMP=up))
            print(f"== {script}: tritium (python -m tritium.run)")
            ok &= run([sys.executable, "-m", "tritium.run", path], dict(base, TRITIUM_SCRIPT_DUMP=tr))
            for f in sorted(Path(up).glob("*.npy")):
                g = Path(tr) / f.name
                if not g.exists():
                    rows.append((f.stem, "missing in tritium's run", "", ""))
                    ok = False
                    continue
                a, b = np.load(f), np.load(g)
                same_bits = a.tobytes() == b.tobytes()
                bits = f"u{a.itemsize}"
                eq = float(np.mean(a.view(bits) == b.view(bits))) if a.shape == b.shape else 0.0
                diff = float(np.nanmax(np.abs(a.astype(np.float64) - b.astype(np.float64)))) if a.shape == b.shape else float("inf")
                need = script in BITWISE
                verdict = "bitwise" if same_bits else ("DIFFERS (bitwise required)" if need else "within checks")
                if need and not same_bits:
                    ok = False
                rows.append((f.stem, verdict, f"{diff:.3e}", f"{eq * 100:.2f}%"))
    print()
    print(f"{'output':32} {'triton vs tritium':28} {'max |diff|':>10} {'equal elements':>15}")
    for r in rows:
        print(f"{r[0]:32} {r[1]:28} {r[2]:>10} {r[3]:>15}")
    print(f"seed {seed}; {'all runs passed their checks' if ok else 'FAILURES above'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
