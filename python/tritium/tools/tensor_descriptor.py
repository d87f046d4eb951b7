"""``TensorDescriptor``: a tensor described for block access from a kernel (upstream's
``triton.tools.tensor_descriptor.TensorDescriptor``).

Passed as a kernel argument, it arrives as the kernel-side ``tl.tensor_descriptor`` that
``tl.make_tensor_descriptor`` would build from the same fields: ``desc.load([i, j])`` reads
the block of ``block_shape`` at element offsets (i, j), padding elements outside ``shape``
with zero (``padding="zero"``) or NaN (``"nan"``); ``desc.store`` writes only the elements
inside. The kernel is specialized on the element dtype, the block shape and the padding
(signature entry ``tensordesc<fp16[64, 64]>``); shape and strides are launch arguments.

Upstream lowers host descriptors to the TMA unit, which also requires 16-byte aligned
strides; tritium does not need that and does not require it. It does check, at launch, that
every element the shape and strides name lies inside ``base``'s memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List


@dataclass
class TensorDescriptor:
    """``base``: a tensor (torch, numpy, DLPack); ``shape`` / ``strides``: elements per
    dimension and element strides (1 to 5 dimensions, the last stride 1); ``block_shape``:
    the block each access moves; ``padding``: "zero" or "nan".

    Raises ValueError for mismatched lengths, a last stride other than 1 or an unknown
    padding (the launch re-checks, and checks the extent against ``base``)."""

    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        if not 1 <= rank <= 5:
            raise ValueError(f"TensorDescriptor: 1 to 5 dimensions, got {rank}")
        if len(self.strides) != rank or len(self.block_shape) != rank:
            raise ValueError(f"TensorDescriptor: shape, strides and block_shape must have the same length, got "
                             f"{rank}, {len(self.strides)} and {len(self.block_shape)}")
        if int(self.strides[-1]) != 1:
            raise ValueError(f"TensorDescriptor: the last stride must be 1, got {self.strides[-1]}")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"TensorDescriptor: padding must be 'zero' or 'nan', got {self.padding!r}")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding: str = "zero") -> "TensorDescriptor":
        """The descriptor of a whole tensor: its shape and element strides (torch ``stride()``,
        numpy ``strides`` in bytes divided by the item size)."""
        shape = list(tensor.shape)
        if callable(getattr(tensor, "stride", None)):
            strides = list(tensor.stride())
        else:
            strides = [s // tensor.itemsize for s in tensor.strides]
        if 0 in shape:  # an empty tensor names no element: its strides are the contiguous ones
            strides = [1] * len(shape)
            for d in range(len(shape) - 2, -1, -1):
                strides[d] = strides[d + 1] * max(1, shape[d + 1])
        return TensorDescriptor(tensor, shape, strides, list(block_shape), padding)
