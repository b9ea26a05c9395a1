//! Device API: memory.
