"""Checks upstream Triton's random numbers on the GPU against the reference tritium's
conformance tests use (tests/conformance/random_test.cpp): Philox4x32-10 written from the
definition (J. K. Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011),
with key = the seed's low and high 32-bit words and counter = (offset's low 32 bits, its
high 32 bits for 64-bit offsets else 0, 0, 0); tl.rand as one int -> fp32 conversion times
fp32 2^-31-ish scale of the |x| folded to [0, 2^31).

tritium's interpreter and CPU backend match that reference bit for bit in CI; this script,
run by scripts/gpu-check on a machine with an NVIDIA GPU and upstream Triton, shows whether
upstream does too: tl.randint, tl.randint4x and tl.rand for int32 and int64 offsets and
several seeds (int32, int64, negative). Prints one line per check and a summary; exit
status 1 when any differs.

Usage: python3 kernels/tools/upstream_random.py
"""

import sys

import numpy as np
import torch
import triton
import triton.language as tl

M0, M1 = 0xD2511F53, 0xCD9E8D57  # Philox4x32 multipliers
W0, W1 = 0x9E3779B9, 0xBB67AE85  # Weyl key increments
MASK = 0xFFFFFFFF


def philox4x32(c, k, rounds=10):
    c = list(c)
    k0, k1 = k
    for r in range(rounds):
        if r:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & MASK, p1 & MASK, ((p0 >> 32) ^ c[3] ^ k1) & MASK, p0 & MASK]
    return c


def reference(seed, offsets, wide):
    s = seed & 0xFFFFFFFFFFFFFFFF
    key = (s & MASK, s >> 32)
    out = []
    for o in offsets:
        o = int(o) & 0xFFFFFFFFFFFFFFFF
        out.append(philox4x32((o & MASK, (o >> 32) if wide else 0, 0, 0), key))
    return np.array(out, dtype=np.uint64).astype(np.uint32)


def uniform(u32):
    x = u32.view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x).astype(np.int32)
    return (x.astype(np.float32) * np.float32(4.6566127342e-10)).astype(np.float32)


@triton.jit
def rng_kernel(seed, off_ptr, i_ptr, q_ptr, f_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    o = tl.load(off_ptr + offs)
    tl.store(i_ptr + offs, tl.randint(seed, o))
    a, b, c, d = tl.randint4x(seed, o)
    tl.store(q_ptr + offs * 4 + 0, a)
    tl.store(q_ptr + offs * 4 + 1, b)
    tl.store(q_ptr + offs * 4 + 2, c)
    tl.store(q_ptr + offs * 4 + 3, d)
    tl.store(f_ptr + offs, tl.rand(seed, o))


def main():
    n = 1024
    rng = np.random.default_rng(7)
    failed = 0
    for wide in (False, True):
        if wide:
            offs = rng.integers(0, 2**62, n, dtype=np.int64)
        else:
            offs = (np.arange(n, dtype=np.int64) + 123456).astype(np.int32)
        for seed in (0, 1, 12345, 2**31 - 1, -5, 2**40 + 17):
            ot = torch.from_numpy(offs).cuda()
            i = torch.empty(n, dtype=torch.int32, device="cuda")
            q = torch.empty(4 * n, dtype=torch.int32, device="cuda")
            f = torch.empty(n, dtype=torch.float32, device="cuda")
            rng_kernel[(1,)](seed, ot, i, q, f, N=n)
            ref = reference(seed, offs, wide)
            got_i = i.cpu().numpy().view(np.uint32)
            got_q = q.cpu().numpy().view(np.uint32).reshape(n, 4)
            got_f = f.cpu().numpy()
            want_f = uniform(ref[:, 0].copy())
            bad = int((got_i != ref[:, 0]).sum()), int((got_q != ref).sum()), int((got_f.view(np.uint32) != want_f.view(np.uint32)).sum())
            tag = f"{'int64' if wide else 'int32'} offsets, seed {seed}"
            print(f"{tag}: randint {n - bad[0]}/{n}, randint4x {4 * n - bad[1]}/{4 * n}, rand {n - bad[2]}/{n} bit-exact")
            failed += any(bad)
    print("random upstream check:", "all match" if not failed else f"{failed} case(s) differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
