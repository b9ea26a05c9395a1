//! Device API: sync.
