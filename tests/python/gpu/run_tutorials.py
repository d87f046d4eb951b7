"""Runs upstream Triton's official tutorials, unchanged, on tritium and on upstream Triton.

    python tests/python/gpu/run_tutorials.py DIR --out OUT [--timeout S] [--only NAME]
                                             [--impls tritium,triton]

DIR holds the tutorial files (not in the repository: upstream's code stays out of it; the
H200 run used python/tutorials of triton-lang/triton at the 3.6 branch point, listed in
DIR/SOURCES.txt). Each file runs twice, as `python -m tritium.run FILE` and as
`python FILE`, each in a fresh directory with MPLBACKEND=Agg and a wall-clock limit (the
tutorials benchmark at module level after their own checks; a run stopped by the limit
after its checks passed is reported as such). 06-fused-attention has no module-level check:
its own pytest `test_op` runs instead on a few parameter sets
(`python -m tritium.run -m pytest FILE -k ...`, and `python -m pytest` upstream).

Per run: exit status, seconds, and the lines each tutorial prints to report its checks
(torch.allclose results, "Triton and Torch match", max differences, pytest's summary).
Full logs: OUT/tutorial-<name>-<tritium|triton>.log; a table on stdout. Exit status 0
when every tritium run either finished or was stopped by the limit after printing its
checks, and no check line reports a mismatch.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHECK = re.compile(r"^(True|False)$|match|differ|max|✅|❌|passed|failed|error|Error|Traceback", re.I)
BAD = re.compile(r"^False$|❌|don't match|[1-9]\d* failed|Traceback|Error", re.I)
ATTN_CASES = "bwd-False-False-64-1024-2-1 or bwd-False-True-64-1024-2-1 or bwd-False-True-128-128-2-1 or fp8-fwd-False-False-64-1024-2-1"


def run(cmd, cwd, timeout, log):
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONUNBUFFERED="1")
    t0 = time.time()
    with open(log, "w") as f:
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = "limit"
    return rc, time.time() - t0


def checks(log):
    lines = Path(log).read_text(errors="replace").splitlines()
    out = [l.strip() for l in lines if CHECK.search(l) and len(l) < 200]
    return out[:12]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", default="")
    ap.add_argument("--tritium-only", action="store_true")
    ap.add_argument("--impls", default="tritium,triton", help="which runs: tritium, triton (upstream) or both")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in Path(a.dir).glob("*.py") if a.only in p.name)
    ok = True
    rows = []
    for f in files:
        name = f.stem
        impls = ["tritium"] if a.tritium_only else [i for i in a.impls.split(",") if i]
        for impl in impls:
            cwd = tempfile.mkdtemp(prefix=f"tut-{name}-{impl}-")
            if name.startswith("06-"):
                tail = ["-m", "pytest", "-q", "-p", "no:cacheprovider", str(f.resolve()), "-k", ATTN_CASES]
            else:
                tail = [str(f.resolve())]
            cmd = [sys.executable] + (["-m", "tritium.run"] if impl == "tritium" else []) + tail
            log = out / f"tutorial-{name}-{impl}.log"
            rc, secs = run(cmd, cwd, a.timeout, log)
            c = checks(log)
            bad = [l for l in c if BAD.search(l)]
            status = "ok" if rc == 0 else ("limit" if rc == "limit" else f"rc={rc}")
            if impl == "tritium" and (bad or (rc != 0 and rc != "limit") or (rc == "limit" and not c)):
                ok = False
            rows.append((name, impl, status, secs, c))
            print(f"== {name} [{impl}] {status} {secs:.0f}s", flush=True)
            for l in c:
                print("   " + l, flush=True)
    print()
    print(f"{'tutorial':32} {'impl':8} {'result':7} {'s':>5}  checks")
    for name, impl, status, secs, c in rows:
        print(f"{name:32} {impl:8} {status:7} {secs:5.0f}  {' | '.join(c[:4])[:110]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
