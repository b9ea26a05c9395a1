//! Device API: f16/bf16, half2/bfloat162.
