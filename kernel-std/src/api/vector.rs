//! Device API: vector.
