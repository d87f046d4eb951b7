"""LayerNorm backward with a spin lock: dX per row, dW / dB reduced in two stages.

Given x, dy, w and the forward's mean / rstd per row (xhat = (x - mean) rstd):
    dx   = rstd (w dy - (xhat * c1 + c2)),  c1 = mean_c(xhat w dy), c2 = mean_c(w dy)
    dw[c] = sum_rows dy xhat,  db[c] = sum_rows dy.
Stage 1 (one program per row) accumulates its row's dy * xhat and dy into one of
GROUP_SIZE_M partial rows, chosen by row % GROUP_SIZE_M, under a per-partial spin lock;
the first writer of a partial stores instead of adding (a count next to each lock), so
the partial buffers need no zeroing. Stage 2 sums the GROUP_SIZE_M partials per column.

Shapes and dtypes
    X, DY, DX: [M, N] fp16 (row stride `stride`); W: [N] fp16; Mean, Rstd: [M] fp32;
    Lock: [2 * GROUP_SIZE_M] int32, zero before stage 1 (locks, then counts);
    DW, DB (partials): [GROUP_SIZE_M, N] fp32; FINAL_DW, FINAL_DB: [N] fp32.
    M >= GROUP_SIZE_M, so every partial row receives a first writer.

Style imitated
    The "layer norm" tutorial of upstream Triton (backward): `while tl.atomic_cas(Lock,
    0, 1) == 1: pass` to acquire, a Count cell read to detect the first writer and set
    with tl.atomic_xchg, loads of the partial under the lock, tl.atomic_xchg(Lock, 0)
    to release; then a [BLOCK_SIZE_M, BLOCK_SIZE_N] accumulation kernel over the
    partial rows followed by tl.sum(axis=0).

Launch
    stage 1: grid = (M,); stage 2: grid = (cdiv(N, BLOCK_SIZE_N),)
"""
import triton
import triton.language as tl


@triton.jit
def _acquire(lock):
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass


@triton.jit
def _release(lock):
    tl.atomic_xchg(lock, 0)


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    slot = row % GROUP_SIZE_M
    lock = Lock + slot
    count = Lock + GROUP_SIZE_M + slot
    DW = DW + slot * N + cols
    DB = DB + slot * N + cols

    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.)
    wdy = tl.where(mask, w * dy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)

    partial_dw = (dy * xhat).to(DW.dtype.element_ty)
    partial_db = dy.to(DB.dtype.element_ty)
    _acquire(lock)
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    _release(lock)


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0), mask=cols < N)
