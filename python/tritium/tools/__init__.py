"""Host-side helpers of the Triton API (``triton.tools``): ``tensor_descriptor``."""
