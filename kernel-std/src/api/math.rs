//! Device API: math.
