//! Device API: integer.
