//! Ports of classic CUDA samples.
