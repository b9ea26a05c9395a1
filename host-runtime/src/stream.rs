//! Streams.

/// An ordered queue of device work.
#[derive(Debug)]
pub struct Stream {
    _private: (),
}
