"""Hand-written edge cases for the frontend fuzzer's seeds (tests/fuzz/make_seeds.py).

Each entry of CASES is a module source (str, or bytes for what is not valid UTF-8) that
tries one way to make a compiler crash, hang or allocate without bound: deep nesting,
unterminated tokens, odd indentation, bad encodings, huge literals and shapes, recursion
between jit functions, huge constexpr loops. The frontend must refuse each with a located
CompileError (or compile it).
"""

HEAD = "import triton\nimport triton.language as tl\n\n"


def kernel(body, params="x_ptr, y_ptr, N, BLOCK: tl.constexpr"):
    lines = "".join("    " + l + "\n" for l in body.strip("\n").split("\n"))
    return HEAD + f"@triton.jit\ndef k({params}):\n" + lines


CASES = [
    # --- lexing ---------------------------------------------------------------------------
    HEAD + "@triton.jit\ndef k(x_ptr):\n    s = 'unterminated\n",
    HEAD + '@triton.jit\ndef k(x_ptr):\n    s = """never closed\n',
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = (1 +\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = 1\n      y = 2\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n\tx = 1\n        y = 2\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = 1\n  y = 2\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = 1 \\\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = 0x\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = 1e\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = 1__0\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = f'{x_ptr'\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = f'{x_ptr:{N:{M}}}'\n",
    (HEAD + "@triton.jit\ndef k(x_ptr):\n    x = '\xff\xfe'\n").encode("latin-1"),
    (HEAD + "@triton.jit\ndef k(x_\xc3\x28ptr):\n    pass\n").encode("latin-1"),
    b"\xef\xbb\xbf" + HEAD.encode() + b"@triton.jit\ndef k(x_ptr):\n    pass\n",
    HEAD.encode() + b"@triton.jit\ndef k(x_ptr):\n    x = 1\x00\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\r\n    tl.store(x_ptr, 1)\r",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    \u00e9 = 1\n    tl.store(x_ptr, \u00e9)\n",
    "",
    "@",
    "@triton.jit",
    "@triton.jit\ndef",
    "@triton.jit\ndef k(",
    "@triton.jit\ndef k():",
    "@triton.jit\ndef k():\n",
    # --- nesting --------------------------------------------------------------------------
    kernel("x = " + "(" * 300 + "1" + ")" * 300),
    kernel("x = " + "[" * 300 + "1" + "]" * 300),
    kernel("x = " + "-" * 2000 + "1"),
    kernel("x = " + "not " * 1000 + "True"),
    kernel("x = " + "lambda: " * 500 + "1"),
    kernel("x = 1" + " + 1" * 3000),
    kernel("x = x_ptr" + ".a" * 2000),
    kernel("x = tl.load(x_ptr)" + "[None]" * 64),
    kernel("".join("    " * i + "if N > %d:\n" % i for i in range(120)) + "    " * 120 + "pass"),
    kernel("".join("    " * i + "for i%d in range(N):\n" % i for i in range(60)) + "    " * 60 + "pass"),
    # --- recursion ------------------------------------------------------------------------
    HEAD + "@triton.jit\ndef f(x):\n    return f(x)\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(1))\n",
    HEAD + "@triton.jit\ndef f(x, D: tl.constexpr):\n    return f(x, D + 1)\n\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(1, 0))\n",
    HEAD + "@triton.jit\ndef f(x):\n    return g(x)\n\n@triton.jit\ndef g(x):\n    return f(x + 1)\n\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, g(1))\n",
    HEAD + "@triton.jit\ndef f(x, D: tl.constexpr):\n    if D > 0:\n        return f(x, D - 1) + f(x, D - 1)\n"
    "    return x\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(1, 40))\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    k(x_ptr)\n",
    # --- huge values and shapes -----------------------------------------------------------
    kernel("x = 99999999999999999999999999999999999999\ntl.store(x_ptr, x)"),
    kernel("x = 1e999\ntl.store(x_ptr, x)"),
    kernel("x = 9223372036854775807 + 1\ntl.store(x_ptr, x)"),
    kernel("x = -9223372036854775808 // -1\ntl.store(x_ptr, x)"),
    kernel("x = -9223372036854775808 % -1\ntl.store(x_ptr, x)"),
    kernel("x = 1 << 64\ntl.store(x_ptr, x)"),
    kernel("x = 1 << -1\ntl.store(x_ptr, x)"),
    kernel("x = 2 ** 100000\ntl.store(x_ptr, x)"),
    kernel("x = 10 ** 10 ** 10\ntl.store(x_ptr, x)"),
    kernel("x = 1 // 0\ntl.store(x_ptr, x)"),
    kernel("x = 1.0 % 0.0\ntl.store(x_ptr, x)"),
    kernel("x = 'ab' * 1000000000\n"),
    kernel("o = tl.arange(0, 1 << 30)\ntl.store(x_ptr + o, o)"),
    kernel("o = tl.arange(0, 1 << 62)\ntl.store(x_ptr + o, o)"),
    kernel("o = tl.arange(-16, 16)\ntl.store(x_ptr + o, o)"),
    kernel("z = tl.zeros((1 << 20, 1 << 20), dtype=tl.float32)\ntl.store(x_ptr, tl.sum(z))"),
    kernel("z = tl.full((65536, 65536, 65536), 1, tl.int8)\ntl.store(x_ptr, tl.max(z))"),
    kernel("z = tl.zeros((BLOCK,) * 64, dtype=tl.float32)\ntl.store(x_ptr, tl.sum(z))"),
    kernel("z = tl.reshape(tl.arange(0, BLOCK), (0, BLOCK))\ntl.store(x_ptr, z)"),
    kernel("for i in tl.static_range(1 << 40):\n    tl.store(x_ptr + i, i)"),
    kernel("for i in tl.static_range(0, 100000000, 1):\n    pass"),
    kernel("for i in tl.static_range(0, 10, 0):\n    pass"),
    kernel("for i in range(0, N, 0):\n    pass"),
    kernel("i = 0\nwhile True:\n    i += 1"),
    kernel("x = (1,) * 100000000"),
    kernel("x = tl.arange(0, 16)\nx = x.reshape(" + "1, " * 200 + "16)"),
    # --- odd but valid --------------------------------------------------------------------
    kernel("pid = tl.program_id(0)\n"
           "o = pid * BLOCK + tl.arange(0, BLOCK)\n"
           "m = o < N\n"
           "tl.store(y_ptr + o, tl.load(x_ptr + o, mask=m, other=0.0) * 2, mask=m)"),
    kernel("x: tl.tensor = tl.load(x_ptr)\ny = x if N > 0 else -x\ntl.store(y_ptr, y)"),
    kernel("a, (b, c) = 1, (2, 3)\ntl.store(x_ptr, a + b * c)"),
    kernel("t = ()\nfor i in tl.static_range(4):\n    t = t + (i,)\ntl.store(x_ptr, t[3])"),
    kernel("x = tl.load(x_ptr + tl.arange(0, BLOCK)[:, None] * N + tl.arange(0, BLOCK)[None, :])\n"
           "y = tl.dot(x, x)\n"
           "tl.store(y_ptr + tl.arange(0, BLOCK)[:, None] * N + tl.arange(0, BLOCK)[None, :], y)"),
    HEAD + "@triton.autotune(configs=[triton.Config({'BLOCK': 16}, num_warps=1)], key=['N'])\n"
    "@triton.jit\ndef k(x_ptr, N, BLOCK: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n",
    HEAD + "@triton.heuristics({'BLOCK': lambda a: a['N'] * 2})\n"
    "@triton.jit\ndef k(x_ptr, N, BLOCK: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n",
    HEAD + "C = tl.constexpr(C)\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, C)\n",
    HEAD + "from .missing import helper\nfrom missing_pkg.mod import other\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, helper(1) + other(2))\n",
    HEAD + "@triton.jit\ndef k(*args, **kwargs):\n    pass\n",
    HEAD + "@triton.jit\ndef k(x_ptr, x_ptr):\n    pass\n",
    HEAD + "@triton.jit\ndef k(x_ptr, N=1, M):\n    pass\n",
    HEAD + "class A:\n    @triton.jit\n    def k(x_ptr):\n        pass\n",
    HEAD + "@triton.jit\n@triton.jit\ndef k(x_ptr):\n    pass\n",
    HEAD + "@triton.jit\nasync def k(x_ptr):\n    await x_ptr\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    global G\n    nonlocal H\n    del x_ptr\n    yield 1\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    try:\n        pass\n    except:\n        raise\n    with a as b:\n        pass\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    match x_ptr:\n        case 1:\n            pass\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = [i for i in range(4)]\n    y = {1: 2}\n    z = {1, 2}\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    x = (yield)\n    y = *x_ptr\n    z = x_ptr @ x_ptr\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    tl.static_assert(False, 'no')\n",
    HEAD + "@triton.jit\ndef k(x_ptr):\n    tl.device_assert(x_ptr == 0, 'msg')\n    tl.device_print('x', x_ptr)\n",
    # --- folding, shapes and ranges at the limits of their integer types ------------------
    kernel("a = tl.full((16,), 2147483647, tl.int32) + 1\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.full((16,), -2147483648, tl.int32) // -1\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.full((16,), -9223372036854775808, tl.int64) % -1\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.full((16,), 1, tl.int32) << 40\ntl.store(y_ptr + tl.arange(0, 16), a >> -1)"),
    kernel("a = tl.full((16,), 1e30, tl.float32).to(tl.int32)\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.full((16,), float('nan'), tl.float32).to(tl.uint64)\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.full((16,), 1e300, tl.float64).to(tl.float16)\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.full((16,), 7, tl.int32) // 0 + tl.full((16,), 7, tl.int32) % 0\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = -tl.full((16,), -2147483648, tl.int32) * 2147483647\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.abs(tl.full((16,), -9223372036854775808, tl.int64))\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = tl.arange(2147483640, 2147483647 + 9)\ntl.store(y_ptr + tl.arange(0, 16), a)"),
    kernel("a = (N * 0 - 2147483648) // -1\ntl.store(y_ptr, a << 33)"),
    kernel("for i in range(2147483647, -2147483648, -2147483647):\n    tl.store(y_ptr + i, i)"),
    kernel("for i in tl.static_range(9223372036854775800, 9223372036854775807, 5):\n    tl.store(y_ptr, i)"),
    kernel("for i in tl.static_range(-9223372036854775807, -9223372036854775808, -5):\n    tl.store(y_ptr, i)"),
    kernel("for i in range(-9223372036854775808, 9223372036854775807, 4611686018427387904):\n    tl.store(y_ptr, i)"),
    kernel("a = tl.reshape(tl.arange(0, 16), (4, 4))\ntl.store(y_ptr, tl.sum(tl.permute(a, (0, 9223372036854775807))))"),
    kernel("a = tl.reshape(tl.arange(0, 16), (9223372036854775807, 2))\ntl.store(y_ptr, a)"),
    kernel("a = tl.broadcast_to(tl.arange(0, 16)[None, :], (4611686018427387904, 16))\ntl.store(y_ptr, a)"),
    kernel("a = tl.arange(0, 16)[None, None, None, None, None, None, None, None, None, None, :]\ntl.store(y_ptr, tl.sum(a))"),
    kernel("b = tl.join(tl.arange(0, 16), tl.arange(0, 16))\nb = tl.join(b, b)\ntl.store(y_ptr, tl.sum(tl.reshape(b, (64,))))"),
    kernel("a = tl.arange(0, 16)\ntl.store(y_ptr + a, tl.gather(a, a + 100, 0) + tl.flip(a, 5))"),
    kernel("a = tl.histogram(tl.arange(0, 16), 4611686018427387904)\ntl.store(y_ptr, tl.sum(a))"),
    kernel("a = tl.topk(tl.arange(0, 16), 1000)\ntl.store(y_ptr, tl.sum(a))"),
    kernel("p = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (0, 0), (16, 16), (1, 0))\n"
           "q = tl.advance(p, (9223372036854775807, 1))\ntl.store(y_ptr, tl.sum(tl.load(q, boundary_check=(0, 5))))"),
    kernel("x = tl.randint(N, tl.arange(0, 16), n_rounds=100000000)\ntl.store(y_ptr + tl.arange(0, 16), x)"),
    kernel("tl.device_print('%s%s%n' * 1000, N)\ntl.device_assert(N > 0, 'm' * 100000)"),
    # --- found by a review (session 31): each crashed, hung or exhausted memory -----------
    kernel("a = " + "1 + " * 20000 + "N\ntl.store(x_ptr, a)"),
    kernel("a = f" + "()" * 5000 + "\ntl.store(x_ptr, a)"),
    kernel("if N == 0:\n    v = 0\n" + "".join("elif N == %d:\n    v = %d\n" % (i, i) for i in range(1, 3000))
           + "else:\n    v = -1\ntl.store(x_ptr, v)"),
    HEAD + "@triton.constexpr_function\ndef f(n):\n    s = 0\n    for i in range(n):\n        for j in range(n):\n"
    "            for k in range(n):\n                s = s + 1\n    return s\n\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(100000))\n",
    HEAD + "@triton.constexpr_function\ndef f(n):\n    x = [0] * n\n    return len(x)\n\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(1000000000000000000))\n",
    HEAD + "@triton.constexpr_function\ndef f(n):\n    x = [1]\n    for i in range(n):\n        x += x\n    return len(x)\n\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(40))\n",
    HEAD + "@triton.constexpr_function\ndef f(n):\n    x = 'ab'\n    for i in range(n):\n        x = x + x\n    return len(x)\n\n"
    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(62))\n",
    HEAD + "@triton.constexpr_function\ndef f(n):\n    i = 0\n    while i < n:\n        j = 0\n        while j < n:\n"
    "            j = j + 1\n        i = i + 1\n    return i\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(999999))\n",
    HEAD + "@triton.autotune(configs=[triton.Config({'BLOCK': 16}, num_warps=2**32 + 4, num_stages=2**32 + 1)], key=[])\n"
    "@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n",
    (HEAD + "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, nope)\n").replace("\n", "\r"),
]
