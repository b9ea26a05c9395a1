//! Tensor maps for Hopper's tensor memory accelerator (TMA, sm_90): the host side of
//! `cp.async.bulk.tensor` (guide "Using the Tensor Memory Accelerator", driver
//! `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col`).
//!
//! A [`TensorMapDesc`] describes a tensor in a device buffer (shape, byte strides, element type)
//! and the box one copy moves (or, for im2col, the filter window and pixel box), with the
//! swizzle, L2 promotion, out-of-bounds fill and interleave modes. [`TensorMapDesc::encode`]
//! checks it against the buffer and the encoding rules ([`TensorMapError`] names the rule) and
//! returns a [`HostTensorMap`] that borrows the buffer: the kernel's `tmap: &TensorMap`
//! parameter takes it (loads only). [`TensorMapDesc::encode_mut`] borrows the buffer mutably and
//! gives a [`HostTensorMapMut`], which a `tmap: &mut TensorMap` parameter takes (stores and
//! reductions write the buffer). The borrow is what keeps a launch from reading freed memory,
//! or a store from writing a buffer the launch also reads through a slice.
//!
//! ```
//! use ferrocuda::prelude::*;
//!
//! # fn main() -> Result<()> {
//! let dev = Device::simulator_with_arch(90)?;
//! let buf = dev.alloc_zeroed::<f32>(64 * 32)?;
//! // 64 columns x 32 rows of f32, loaded in boxes of 32 x 8 with the 128-byte swizzle.
//! let map = TensorMapDesc::tiled(&[64, 32], &[32, 8])
//!     .swizzle(TensorMapSwizzle::B128)
//!     .encode(&buf)?;
//! assert_eq!(map.box_bytes(), 32 * 8 * 4);
//! let bad = TensorMapDesc::tiled(&[64, 32], &[300, 8]).encode(&buf);
//! assert!(bad.unwrap_err().to_string().contains("1..=256"));
//! # Ok(())
//! # }
//! ```
//!
//! The map is encoded for the device of the stream each launch runs on (the driver's encoding
//! on CUDA, the simulator's own on the simulator: `kernel_ir::tensor_map`).

use std::marker::PhantomData;

use kernel_ir::ast::{FloatTy, IntTy, Type};
use kernel_ir::tensor_map::{Im2col, SimTensorMap};
use kernel_std::api::{DeviceType, TensorMap};

use crate::launch_api::{KernelSlice, KernelSliceMut};
pub use crate::tensor_map_error::TensorMapError;
use crate::{Error, Result, Stream};

/// `CUtensorMapDataType`: the element type the copy engine moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorDataType {
    /// `u8`, `i8`, `bool`.
    U8,
    /// `u16`, `i16`.
    U16,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `u64`.
    U64,
    /// `i64`.
    I64,
    /// `f16`.
    F16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `bf16`.
    BF16,
    /// f32 with denormals flushed to zero.
    F32Ftz,
    /// TF32 (f32 storage, 10-bit mantissa): what the tensor cores read.
    Tf32,
    /// TF32 with denormals flushed to zero.
    Tf32Ftz,
}

impl TensorDataType {
    /// The `CU_TENSOR_MAP_DATA_TYPE_*` value.
    pub fn code(self) -> u8 {
        self as u8
    }
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        use TensorDataType::*;
        match self {
            U8 => 1,
            U16 | F16 | BF16 => 2,
            U32 | I32 | F32 | F32Ftz | Tf32 | Tf32Ftz => 4,
            U64 | I64 | F64 => 8,
        }
    }
    /// Whether the type is a floating-point one (what NaN fill needs).
    pub fn is_float(self) -> bool {
        use TensorDataType::*;
        matches!(self, F16 | F32 | F64 | BF16 | F32Ftz | Tf32 | Tf32Ftz)
    }
    fn name(self) -> &'static str {
        use TensorDataType::*;
        match self {
            U8 => "U8",
            U16 => "U16",
            U32 => "U32",
            I32 => "I32",
            U64 => "U64",
            I64 => "I64",
            F16 => "F16",
            F32 => "F32",
            F64 => "F64",
            BF16 => "BF16",
            F32Ftz => "F32Ftz",
            Tf32 => "Tf32",
            Tf32Ftz => "Tf32Ftz",
        }
    }
    /// The data type of a scalar element type (`None` for structs and arrays).
    fn of(t: &Type) -> Option<TensorDataType> {
        use TensorDataType::*;
        Some(match t {
            Type::Int(IntTy::U8 | IntTy::I8) | Type::Bool => U8,
            Type::Int(IntTy::U16 | IntTy::I16) => U16,
            Type::Int(IntTy::U32) => U32,
            Type::Int(IntTy::I32) => I32,
            Type::Int(IntTy::U64 | IntTy::Usize) => U64,
            Type::Int(IntTy::I64 | IntTy::Isize) => I64,
            Type::Float(FloatTy::F16) => F16,
            Type::Float(FloatTy::BF16) => BF16,
            Type::Float(FloatTy::F32) => F32,
            Type::Float(FloatTy::F64) => F64,
            _ => return None,
        })
    }
}

/// `CUtensorMapSwizzle`: how a box's 16-byte chunks are spread over shared memory banks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TensorMapSwizzle {
    #[default]
    /// No swizzle: rows land as they are.
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B`.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B`.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B`: conflict-free column access to 128-byte rows.
    B128,
}

impl TensorMapSwizzle {
    /// The span of the pattern in bytes (0 for none).
    pub fn bytes(self) -> u32 {
        match self {
            TensorMapSwizzle::None => 0,
            TensorMapSwizzle::B32 => 32,
            TensorMapSwizzle::B64 => 64,
            TensorMapSwizzle::B128 => 128,
        }
    }
}

/// `CUtensorMapL2promotion`: the L2 sector size a load's misses are promoted to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TensorMapL2Promotion {
    #[default]
    /// No promotion.
    None,
    /// 64-byte sectors.
    B64,
    /// 128-byte sectors.
    B128,
    /// 256-byte sectors.
    B256,
}

/// `CUtensorMapFloatOOBfill`: what a load reads outside the tensor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TensorMapOobFill {
    /// Zeros.
    #[default]
    Zero,
    /// NaN (`NAN_REQUEST_ZERO_FMA`: the tensor cores then treat the element as zero).
    Nan,
}

/// `CUtensorMapInterleave`: a channel-interleaved layout (NC/8HWC8 and the like).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TensorMapInterleave {
    #[default]
    /// The plain layout.
    None,
    /// 16-byte channel groups.
    B16,
    /// 32-byte channel groups (32-byte aligned address and strides).
    B32,
}

impl TensorMapInterleave {
    fn bytes(self) -> u8 {
        match self {
            TensorMapInterleave::None => 0,
            TensorMapInterleave::B16 => 16,
            TensorMapInterleave::B32 => 32,
        }
    }
}

#[derive(Clone, Debug)]
enum Form {
    Tiled {
        box_dim: Vec<u32>,
    },
    Im2col {
        lower: Vec<i32>,
        upper: Vec<i32>,
        channels_per_pixel: u32,
        pixels_per_column: u32,
    },
}

/// The description of a tensor map: built with [`TensorMapDesc::tiled`] or
/// [`TensorMapDesc::im2col`], adjusted with the mode setters, checked and bound to a buffer with
/// [`TensorMapDesc::encode`] / [`TensorMapDesc::encode_mut`].
#[derive(Clone, Debug)]
pub struct TensorMapDesc {
    dims: Vec<u64>,
    strides: Option<Vec<u64>>,
    elem_strides: Option<Vec<u32>>,
    data_type: Option<TensorDataType>,
    form: Form,
    swizzle: TensorMapSwizzle,
    l2: TensorMapL2Promotion,
    oob: TensorMapOobFill,
    interleave: TensorMapInterleave,
}

/// Largest byte stride (exclusive) and extent the encoders accept.
const MAX_STRIDE: u64 = 1 << 40;
const MAX_EXTENT: u64 = 1 << 32;

impl TensorMapDesc {
    /// A tiled map (`cuTensorMapEncodeTiled`) of a tensor of extents `dims` (innermost first,
    /// packed unless [`strides`](Self::strides) says otherwise) loaded in boxes of `box_dim`.
    pub fn tiled(dims: &[u64], box_dim: &[u32]) -> Self {
        Self::new(
            dims,
            Form::Tiled {
                box_dim: box_dim.to_vec(),
            },
        )
    }

    /// An im2col map (`cuTensorMapEncodeIm2col`) of an NHWC-style tensor `dims` (channels
    /// innermost, then 1-3 spatial dimensions, then images): each load gathers
    /// `pixels_per_column` output pixels of `channels_per_pixel` channels, the filter window
    /// being `lower..=upper` (per spatial dimension, innermost first) around each pixel.
    pub fn im2col(
        dims: &[u64],
        lower: &[i32],
        upper: &[i32],
        channels_per_pixel: u32,
        pixels_per_column: u32,
    ) -> Self {
        Self::new(
            dims,
            Form::Im2col {
                lower: lower.to_vec(),
                upper: upper.to_vec(),
                channels_per_pixel,
                pixels_per_column,
            },
        )
    }

    fn new(dims: &[u64], form: Form) -> Self {
        TensorMapDesc {
            dims: dims.to_vec(),
            strides: None,
            elem_strides: None,
            data_type: None,
            form,
            swizzle: TensorMapSwizzle::None,
            l2: TensorMapL2Promotion::None,
            oob: TensorMapOobFill::Zero,
            interleave: TensorMapInterleave::None,
        }
    }

    /// The byte strides of dimensions 1.. (`globalStrides`, rank - 1 values; default packed).
    pub fn strides(mut self, bytes: &[u64]) -> Self {
        self.strides = Some(bytes.to_vec());
        self
    }
    /// `elementStrides`: a box takes every `s`-th element along each dimension (default 1).
    pub fn element_strides(mut self, s: &[u32]) -> Self {
        self.elem_strides = Some(s.to_vec());
        self
    }
    /// The element type the engine moves (default: the buffer's own scalar type).
    pub fn data_type(mut self, t: TensorDataType) -> Self {
        self.data_type = Some(t);
        self
    }
    /// The shared-memory swizzle (default none).
    pub fn swizzle(mut self, s: TensorMapSwizzle) -> Self {
        self.swizzle = s;
        self
    }
    /// The L2 promotion (default none).
    pub fn l2_promotion(mut self, l: TensorMapL2Promotion) -> Self {
        self.l2 = l;
        self
    }
    /// What loads read outside the tensor (default zeros).
    pub fn oob_fill(mut self, f: TensorMapOobFill) -> Self {
        self.oob = f;
        self
    }
    /// The interleaved layout (default none).
    pub fn interleave(mut self, i: TensorMapInterleave) -> Self {
        self.interleave = i;
        self
    }

    /// Checks the description against the rules and a buffer of `len` `T`s at `address`.
    fn check<T: DeviceType>(
        &self,
        address: u64,
        len: usize,
    ) -> Result<SimTensorMap, TensorMapError> {
        use TensorMapError as E;
        let rank = self.dims.len();
        let im2col = matches!(self.form, Form::Im2col { .. });
        let interleaved = self.interleave != TensorMapInterleave::None;
        let min = if im2col || interleaved { 3 } else { 1 };
        if !(min..=5).contains(&rank) {
            let what = if im2col {
                "im2col"
            } else if interleaved {
                "interleaved"
            } else {
                "tiled"
            };
            return Err(E::Rank { rank, min, what });
        }
        // The element type.
        let buffer = std::any::type_name::<T>();
        let buffer_bytes = std::mem::size_of::<T>();
        let own = TensorDataType::of(&T::ast_type());
        let dt = match (self.data_type, own) {
            (Some(d), _) => d,
            (None, Some(d)) => d,
            (None, None) => return Err(E::NoDataType { buffer }),
        };
        let float_mismatch = own.is_some_and(|o| o.is_float() != dt.is_float());
        if dt.bytes() != buffer_bytes || float_mismatch {
            return Err(E::ElementType {
                data_type: dt.name(),
                bytes: dt.bytes(),
                buffer,
                buffer_bytes,
                float_mismatch,
            });
        }
        if self.oob == TensorMapOobFill::Nan && !dt.is_float() {
            return Err(E::NanFillNotFloat {
                data_type: dt.name(),
            });
        }
        let eb = dt.bytes() as u64;
        // Extents and strides.
        for (dim, &extent) in self.dims.iter().enumerate() {
            if extent == 0 || extent > MAX_EXTENT {
                return Err(E::Extent { dim, extent });
            }
        }
        let multiple = if self.interleave == TensorMapInterleave::B32 {
            32
        } else {
            16
        };
        let mut strides = vec![eb];
        match &self.strides {
            Some(s) => {
                if s.len() != rank - 1 {
                    return Err(E::Arity {
                        what: "strides",
                        got: s.len(),
                        rank: rank - 1,
                    });
                }
                strides.extend_from_slice(s);
            }
            None => {
                for i in 1..rank {
                    strides.push(strides[i - 1] * self.dims[i - 1]);
                }
            }
        }
        for dim in 1..rank {
            let stride = strides[dim];
            if !stride.is_multiple_of(multiple) || stride >= MAX_STRIDE {
                return Err(E::StrideAlignment {
                    dim,
                    stride,
                    multiple,
                });
            }
            let below = strides[dim - 1] * self.dims[dim - 1];
            if stride < below {
                return Err(E::StrideOverlap { dim, stride, below });
            }
        }
        let align = if self.interleave == TensorMapInterleave::B32 {
            32
        } else {
            16
        };
        if !address.is_multiple_of(align) {
            return Err(E::AddressAlignment { address, align });
        }
        let needed: u64 = (0..rank)
            .map(|i| (self.dims[i] - 1) * strides[i])
            .sum::<u64>()
            + eb;
        let available = len as u64 * buffer_bytes as u64;
        if needed > available {
            return Err(E::BufferTooSmall {
                shape: self.dims.clone(),
                strides: strides.clone(),
                needed,
                available,
            });
        }
        // Element strides.
        let estr = self.elem_strides.clone().unwrap_or_else(|| vec![1; rank]);
        if estr.len() != rank {
            return Err(E::Arity {
                what: "element_strides",
                got: estr.len(),
                rank,
            });
        }
        for (dim, &stride) in estr.iter().enumerate() {
            if stride == 0 || stride > 8 {
                return Err(E::ElementStride { dim, stride });
            }
        }
        let mut m = SimTensorMap {
            rank: rank as u8,
            data_type: dt.code(),
            elem_bytes: eb as u8,
            swizzle: self.swizzle.bytes() as u8,
            interleave: self.interleave.bytes(),
            oob_nan: self.oob == TensorMapOobFill::Nan,
            l2_promotion: self.l2 as u8,
            global_address: address,
            ..Default::default()
        };
        for i in 0..rank {
            m.dims[i] = self.dims[i];
            m.strides[i] = strides[i];
            m.elem_strides[i] = estr[i] as u8;
        }
        let span = self.swizzle.bytes() as u64;
        let inner_bytes = match &self.form {
            Form::Tiled { box_dim } => {
                if box_dim.len() != rank {
                    return Err(E::Arity {
                        what: "box_dim",
                        got: box_dim.len(),
                        rank,
                    });
                }
                for (dim, &size) in box_dim.iter().enumerate() {
                    if size == 0 || size > 256 {
                        return Err(E::BoxDim { dim, size });
                    }
                    m.box_dim[dim] = size as u16;
                }
                box_dim[0] as u64 * eb
            }
            Form::Im2col {
                lower,
                upper,
                channels_per_pixel,
                pixels_per_column,
            } => {
                let spatial = rank - 2;
                for (what, v) in [("lower corner", lower), ("upper corner", upper)] {
                    if v.len() != spatial {
                        return Err(E::Arity {
                            what,
                            got: v.len(),
                            rank: spatial,
                        });
                    }
                }
                // The corners share 16 bits of the descriptor between the spatial dimensions.
                let bits = 16 / spatial as u32;
                let (lo, hi) = (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1);
                let mut c = Im2col {
                    channels_per_pixel: *channels_per_pixel as u16,
                    pixels_per_column: *pixels_per_column as u16,
                    ..Default::default()
                };
                for (dim, (&l, &u)) in lower.iter().zip(upper).enumerate() {
                    for value in [l, u] {
                        if !(lo..=hi).contains(&value) {
                            return Err(E::Im2colCorner {
                                dim,
                                value,
                                min: lo,
                                max: hi,
                                rank,
                            });
                        }
                    }
                    c.lower[dim] = l as i16;
                    c.upper[dim] = u as i16;
                }
                if !(1..=256).contains(channels_per_pixel) {
                    return Err(E::Im2colBox {
                        what: "channels per pixel",
                        value: *channels_per_pixel,
                        max: 256,
                    });
                }
                if !(1..=1024).contains(pixels_per_column) {
                    return Err(E::Im2colBox {
                        what: "pixels per column",
                        value: *pixels_per_column,
                        max: 1024,
                    });
                }
                m.im2col = Some(c);
                *channels_per_pixel as u64 * eb
            }
        };
        if !interleaved {
            if !inner_bytes.is_multiple_of(16) {
                return Err(E::BoxInnerBytes { bytes: inner_bytes });
            }
            if span != 0 && inner_bytes > span {
                return Err(E::SwizzleSpan {
                    bytes: inner_bytes,
                    span: span as u32,
                });
            }
        }
        Ok(m)
    }

    /// The map of this description over `buf`, for a kernel's `&TensorMap` parameter.
    pub fn encode<'a, T: DeviceType>(
        &self,
        buf: &'a impl KernelSlice<T>,
    ) -> Result<HostTensorMap<'a, T>> {
        let arg = buf.kernel_arg();
        let desc = self.check::<T>(arg.ptr, arg.len as usize)?;
        Ok(HostTensorMap { buf, desc })
    }

    /// The map of this description over `buf`, for a kernel's `&mut TensorMap` parameter
    /// (stores and reductions write `buf`).
    pub fn encode_mut<'a, T: DeviceType>(
        &self,
        buf: &'a mut impl KernelSliceMut<T>,
    ) -> Result<HostTensorMapMut<'a, T>> {
        let arg = buf.kernel_arg_mut();
        let desc = self.check::<T>(arg.ptr, arg.len as usize)?;
        Ok(HostTensorMapMut {
            buf,
            desc,
            _t: PhantomData,
        })
    }
}

/// A checked tensor map over a buffer it borrows, for a kernel's `tmap: &TensorMap` parameter.
pub struct HostTensorMap<'a, T: DeviceType> {
    buf: &'a dyn KernelSlice<T>,
    desc: SimTensorMap,
}

/// A checked tensor map over a buffer it borrows mutably, for a kernel's `tmap: &mut TensorMap`
/// parameter.
pub struct HostTensorMapMut<'a, T: DeviceType> {
    buf: &'a mut dyn KernelSliceMut<T>,
    desc: SimTensorMap,
    _t: PhantomData<T>,
}

impl<T: DeviceType> std::fmt::Debug for HostTensorMap<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostTensorMap")
            .field("desc", &self.desc)
            .finish()
    }
}
impl<T: DeviceType> std::fmt::Debug for HostTensorMapMut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostTensorMapMut")
            .field("desc", &self.desc)
            .finish()
    }
}

impl<T: DeviceType> HostTensorMap<'_, T> {
    /// Bytes one tiled load moves into shared memory (what its barrier must expect).
    pub fn box_bytes(&self) -> u32 {
        self.desc.box_bytes() as u32
    }
}
impl<T: DeviceType> HostTensorMapMut<'_, T> {
    /// Bytes one tiled load or store moves.
    pub fn box_bytes(&self) -> u32 {
        self.desc.box_bytes() as u32
    }
}

/// The buffer must not have moved since the map was checked (a view's address is fixed, so
/// this only fails for a broken `KernelSlice` implementation).
fn encode_for(stream: &Stream, desc: &SimTensorMap, ptr: u64) -> Result<TensorMap> {
    if ptr != desc.global_address {
        return Err(Error::InvalidValue(
            "tensor map: the buffer's address changed after the map was made".into(),
        ));
    }
    let bytes = stream.device().ops().encode_tensor_map(desc)?;
    Ok(TensorMap::from_bytes(bytes))
}

/// What a kernel's `&TensorMap` parameter accepts: a [`HostTensorMap`].
///
/// # Safety
/// The copy engine reads whatever memory the descriptor names: an implementation must return a
/// descriptor (for `stream`'s device) of memory that stays allocated while the launch may use
/// it and that no other work writes meanwhile, as [`KernelSlice::launch_arg`] promises.
pub unsafe trait KernelTensorMap {
    /// The descriptor for a launch on `stream`, the buffer's use recorded as a read.
    fn launch_arg(&self, stream: &Stream) -> Result<TensorMap>;
}

/// What a kernel's `&mut TensorMap` parameter accepts: a [`HostTensorMapMut`].
///
/// # Safety
/// As for [`KernelTensorMap`], for memory the kernel may also write, which nothing else reads
/// or writes meanwhile.
pub unsafe trait KernelTensorMapMut {
    /// The descriptor for a launch on `stream`, the buffer's use recorded as a write.
    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<TensorMap>;
}

// SAFETY: the descriptor is checked against the borrowed buffer's extent, and `launch_arg`
// records the use on the stream, as for the buffer itself.
unsafe impl<T: DeviceType> KernelTensorMap for HostTensorMap<'_, T> {
    fn launch_arg(&self, stream: &Stream) -> Result<TensorMap> {
        let arg = self.buf.launch_arg(stream)?;
        encode_for(stream, &self.desc, arg.ptr)
    }
}

// SAFETY: as above, the buffer borrowed mutably and its use recorded as a write.
unsafe impl<T: DeviceType> KernelTensorMapMut for HostTensorMapMut<'_, T> {
    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<TensorMap> {
        let arg = self.buf.launch_arg_mut(stream)?;
        encode_for(stream, &self.desc, arg.ptr)
    }
}
