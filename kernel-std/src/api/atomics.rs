//! Device API: atomics.
