//! Why a tensor map description was refused: each rule `cuTensorMapEncodeTiled` /
//! `cuTensorMapEncodeIm2col` documents, checked before the driver is asked (which would answer
//! only `CUDA_ERROR_INVALID_VALUE`), so the message says which value broke which rule.

use thiserror::Error;

/// A tensor map description that breaks one of the encoding rules (see [`crate::TensorMapDesc`]).
// The fields are the values each message names.
#[allow(missing_docs)]
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum TensorMapError {
    /// Rank outside 1..=5 (3..=5 for im2col and interleaved maps).
    #[error("a {what} tensor map has rank {min}..=5; this one has {rank} dimensions")]
    Rank {
        rank: usize,
        min: usize,
        what: &'static str,
    },
    /// Two per-dimension arrays of different lengths.
    #[error("`{what}` has {got} values; the tensor has {rank} dimensions")]
    Arity {
        what: &'static str,
        got: usize,
        rank: usize,
    },
    /// `globalDim[i]` is 0 or above 2^32.
    #[error("dimension {dim} has extent {extent}; extents are 1..=2^32")]
    Extent { dim: usize, extent: u64 },
    /// A byte stride that is not a multiple of 16 (32 for the 32-byte interleave).
    #[error("the stride of dimension {dim} is {stride} bytes; tensor map strides are multiples of {multiple} bytes below 2^40 (pad the rows: a pitched buffer)")]
    StrideAlignment {
        dim: usize,
        stride: u64,
        multiple: u64,
    },
    /// A stride smaller than the extent of the dimension below it: rows would overlap.
    #[error("the stride of dimension {dim} is {stride} bytes, less than the {below} bytes of dimension {} below it", .dim - 1)]
    StrideOverlap { dim: usize, stride: u64, below: u64 },
    /// The tensor reaches past the end of its buffer.
    #[error("the tensor (shape {shape:?}, byte strides {strides:?}) spans {needed} bytes; the buffer has {available}")]
    BufferTooSmall {
        shape: Vec<u64>,
        strides: Vec<u64>,
        needed: u64,
        available: u64,
    },
    /// The buffer's address is not aligned for the tensor copy engine.
    #[error("the tensor's global address {address:#x} is not {align}-byte aligned")]
    AddressAlignment { address: u64, align: u64 },
    /// `boxDim[i]` is 0 or above 256.
    #[error("box dimension {dim} is {size}; box dimensions are 1..=256")]
    BoxDim { dim: usize, size: u32 },
    /// The box's inner dimension is not whole 16-byte units.
    #[error("the box's inner dimension is {bytes} bytes; without interleave it must be a multiple of 16 bytes")]
    BoxInnerBytes { bytes: u64 },
    /// With a swizzle, the box's inner dimension spans more bytes than the swizzle pattern.
    #[error("the box's inner dimension is {bytes} bytes, more than the {span}-byte swizzle span (use a narrower box or a wider swizzle)")]
    SwizzleSpan { bytes: u64, span: u32 },
    /// `elementStrides[i]` is 0 or above 8.
    #[error("element stride {dim} is {stride}; element strides are 1..=8")]
    ElementStride { dim: usize, stride: u32 },
    /// The data type does not describe the buffer's elements.
    #[error("data type {data_type} ({bytes} bytes) does not describe elements of `{buffer}` ({buffer_bytes} bytes{})", if *.float_mismatch { ", another kind of number" } else { "" })]
    ElementType {
        data_type: &'static str,
        bytes: usize,
        buffer: &'static str,
        buffer_bytes: usize,
        float_mismatch: bool,
    },
    /// A buffer element type without a default tensor data type (a struct): name one.
    #[error("`{buffer}` has no tensor data type of its own; give one with `.data_type(..)`")]
    NoDataType { buffer: &'static str },
    /// NaN fill on an integer tensor.
    #[error("out-of-bounds NaN fill needs a floating-point data type; {data_type} is not one")]
    NanFillNotFloat { data_type: &'static str },
    /// An im2col corner outside the range its rank allows.
    #[error("im2col corner value {value} of spatial dimension {dim} is outside {min}..={max} (the range for rank {rank})")]
    Im2colCorner {
        dim: usize,
        value: i32,
        min: i32,
        max: i32,
        rank: usize,
    },
    /// `channelsPerPixel` outside 1..=256 or `pixelsPerColumn` outside 1..=1024.
    #[error("im2col {what} is {value}; it must be 1..={max}")]
    Im2colBox {
        what: &'static str,
        value: u32,
        max: u32,
    },
}
