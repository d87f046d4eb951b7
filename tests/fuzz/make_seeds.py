#!/usr/bin/env python3
"""Writes the frontend fuzzer's seed inputs into a directory (docs/fuzzing.md).

    python3 tests/fuzz/make_seeds.py OUT_DIR

Seeds: the suite's kernels (kernels/*.py), the kernel corpus (tests/corpus/kernels/*.py),
every raw-string kernel source in the C++ tests that holds a jit function (R"(...)" in
tests/conformance, tests/errors and tests/unit; the triton imports prepended where missing), and the hand-written edge cases of
tests/fuzz/edge_cases.py. Each seed is named by the SHA-1 of its bytes, as libFuzzer names
corpus files, so rerunning the script adds nothing twice. The committed corpus
(tests/fuzz/corpus/frontend) is these seeds after fuzzing and `-merge=1` minimization.
"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
RAW = re.compile(r'R"([A-Za-z_]*)\((.*?)\)\1"', re.S)
IMPORTS = "import triton\nimport triton.language as tl\n\n"
MAX_LEN = 4096  # the fuzzer's -max_len: longer seeds are truncated by libFuzzer anyway


def sources():
    for pattern in ("kernels/*.py", "tests/corpus/kernels/*.py"):
        for p in sorted(ROOT.glob(pattern)):
            yield p.read_text()
    for folder in ("tests/conformance", "tests/errors", "tests/unit"):
        for p in sorted((ROOT / folder).rglob("*.cpp")):
            for m in RAW.finditer(p.read_text()):
                if "jit" in m.group(2):
                    # The tests prepend the imports to many of their sources: so do the seeds.
                    text = m.group(2)
                    yield text if "import triton" in text else IMPORTS + text
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import edge_cases  # noqa: E402 (the hand-written cases live next to this script)
    yield from edge_cases.CASES


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for text in sources():
        data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
        if len(data) > MAX_LEN:
            # A long kernel file: keep its imports and then each jit function on its own.
            n += write_parts(out, data)
            continue
        n += write(out, data)
    print(f"{n} seeds written to {out}")


def write(out, data):
    path = out / hashlib.sha1(data).hexdigest()
    if path.exists():
        return 0
    path.write_bytes(data)
    return 1


def write_parts(out, data):
    text = data.decode("utf-8", "surrogateescape")
    head = "".join(l for l in text.splitlines(True) if l.startswith(("import ", "from ")))
    parts = re.split(r"\n(?=@)", text)
    n = 0
    for part in parts:
        if "def " in part and ("jit" in part or "autotune" in part):
            chunk = (head + "\n" + part).encode("utf-8", "surrogateescape")[:MAX_LEN]
            n += write(out, chunk)
    return n


if __name__ == "__main__":
    main()
