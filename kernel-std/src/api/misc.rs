//! Device API: misc.
