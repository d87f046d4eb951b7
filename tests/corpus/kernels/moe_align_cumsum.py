"""MoE token alignment: sort (token, expert) assignments by expert with padded segments.

Given topk_ids[i] in [0, E) for i < numel (token-major, top-k flattened):
    counts[e]   = #{i : topk_ids[i] == e}
    padded[e]   = cdiv(counts[e], BLOCK_SIZE) * BLOCK_SIZE
    offsets[e]  = sum_{e' < e} padded[e']          (exclusive cumsum), offsets[E] = total
    sorted_ids[offsets[e] + rank] = i for the rank-th assignment of expert e in index
    order; padding slots hold numel (the sentinel); expert_of_block[b] = the expert
    owning sorted block b.
One program: pass 1 counts with one-hot sums over TILE-wide chunks; tl.cumsum gives the
offsets; pass 2 ranks every assignment by a cumsum of its one-hot tile down the chunk plus
the per-expert running count carried across chunks.

Shapes and dtypes
    topk_ids: [numel] int32; sorted_ids: [max_padded] int32 (prefilled by the kernel
    with numel); offsets: [E + 1] int32; expert_of_block: [max_padded / BLOCK_SIZE] int32.

Style imitated
    The Triton version of vLLM / SGLang's moe_align_block_size: one-hot comparisons
    `ids[:, None] == experts[None, :]`, tl.sum / tl.cumsum over them, exclusive scans
    written as `tl.cumsum(x) - x`, scattered tl.store of sorted positions, and the
    block-to-expert map written with a loop over experts.

Launch
    grid = (1,); NUM_EXPERTS a power of two >= E.
"""
import triton
import triton.language as tl


@triton.jit
def moe_align_block_size_kernel(topk_ids_ptr, sorted_ids_ptr, offsets_ptr, expert_of_block_ptr,
                                numel, E, max_padded,
                                NUM_EXPERTS: tl.constexpr, BLOCK_SIZE: tl.constexpr, TILE: tl.constexpr):
    experts = tl.arange(0, NUM_EXPERTS)
    lanes = tl.arange(0, TILE)

    counts = tl.zeros([NUM_EXPERTS], dtype=tl.int32)
    for start in range(0, numel, TILE):
        idx = start + lanes
        ids = tl.load(topk_ids_ptr + idx, mask=idx < numel, other=-1)
        onehot = (ids[:, None] == experts[None, :]).to(tl.int32)
        counts += tl.sum(onehot, axis=0)

    padded = tl.cdiv(counts, BLOCK_SIZE) * BLOCK_SIZE
    padded = tl.where(experts < E, padded, 0)
    ends = tl.cumsum(padded, axis=0)
    starts = ends - padded
    tl.store(offsets_ptr + experts, starts, mask=experts < E)
    tl.store(offsets_ptr + E, tl.sum(padded, axis=0))

    for s in range(0, max_padded, TILE):
        tl.store(sorted_ids_ptr + s + lanes, tl.zeros([TILE], dtype=tl.int32) + numel, mask=s + lanes < max_padded)
    tl.debug_barrier()

    seen = tl.zeros([NUM_EXPERTS], dtype=tl.int32)
    for start in range(0, numel, TILE):
        idx = start + lanes
        ids = tl.load(topk_ids_ptr + idx, mask=idx < numel, other=-1)
        onehot = (ids[:, None] == experts[None, :]).to(tl.int32)
        rank_tile = tl.cumsum(onehot, axis=0) - onehot + seen[None, :]
        rank = tl.sum(rank_tile * onehot, axis=1)
        base = tl.sum(starts[None, :] * onehot, axis=1)
        tl.store(sorted_ids_ptr + base + rank, idx, mask=idx < numel)
        seen += tl.sum(onehot, axis=0)

    for e in range(0, E):
        e_start = tl.sum(tl.where(experts == e, starts, 0), axis=0)
        e_end = tl.sum(tl.where(experts == e, ends, 0), axis=0)
        for b in range(e_start // BLOCK_SIZE, e_end // BLOCK_SIZE):
            tl.store(expert_of_block_ptr + b, e)
