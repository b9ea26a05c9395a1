//! Device API: warp.
