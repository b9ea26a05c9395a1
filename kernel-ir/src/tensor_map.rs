//! The simulator's tensor map: what `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col` put in a
//! `CUtensorMap`, written by host-runtime's simulator backend into the same 128 bytes a kernel's
//! `&TensorMap` parameter receives, and read back by the simulator's bulk tensor copies. The
//! driver's own encoding is opaque, so the simulator gets this one instead; both describe the
//! same copy (host-runtime validates the description once, before either encoding).
//!
//! Also where a grid-constant parameter's "address" points in the simulator: a handle above any
//! global allocation and below the shared window, which no load can read (a kernel only hands it
//! to the bulk tensor instructions).

/// First grid-constant handle: parameter `i` of a launch is `GRID_CONSTANT_BASE + 128 * i`.
pub const GRID_CONSTANT_BASE: u64 = 0xfe00_0000_0000;

/// The simulator's handle of the launch's parameter `index` (`ParamKind::GridConstant`).
pub fn grid_constant_handle(index: usize) -> u64 {
    GRID_CONSTANT_BASE + 128 * index as u64
}

/// The parameter index of a handle, when it is one.
pub fn grid_constant_index(handle: u64) -> Option<usize> {
    let off = handle.checked_sub(GRID_CONSTANT_BASE)?;
    (off.is_multiple_of(128) && off < 128 * 4096).then_some((off / 128) as usize)
}

/// Marks the 128 bytes as this encoding (a zeroed or driver-encoded map is not one).
const MAGIC: u16 = 0x4d54;

/// The im2col part of a map (`cuTensorMapEncodeIm2col`): the bounding box of the filter's
/// pixels relative to each output pixel, and the shape of the box it loads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Im2col {
    /// `pixelBoxLowerCorner` / `pixelBoxUpperCorner`, per spatial dimension (rank - 2 of them:
    /// W, H, D from the innermost).
    pub lower: [i16; 3],
    pub upper: [i16; 3],
    pub channels_per_pixel: u16,
    pub pixels_per_column: u16,
}

/// One tensor map, decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimTensorMap {
    /// 1..=5.
    pub rank: u8,
    /// `CUtensorMapDataType`'s value.
    pub data_type: u8,
    pub elem_bytes: u8,
    /// Swizzle span in bytes: 0 (none), 32, 64 or 128.
    pub swizzle: u8,
    /// Interleave in bytes: 0 (none), 16 or 32.
    pub interleave: u8,
    /// Out-of-bounds elements of a load read as NaN (`NAN_REQUEST_ZERO_FMA`) instead of zero.
    pub oob_nan: bool,
    /// `CUtensorMapL2promotion`'s value (no effect on the simulator).
    pub l2_promotion: u8,
    pub global_address: u64,
    /// `globalDim`, innermost first.
    pub dims: [u64; 5],
    /// Byte strides: `strides[0]` is the element size, `strides[i]` `globalStrides[i - 1]`.
    pub strides: [u64; 5],
    /// `boxDim` (tiled maps).
    pub box_dim: [u16; 5],
    /// `elementStrides`.
    pub elem_strides: [u8; 5],
    pub im2col: Option<Im2col>,
}

fn put(b: &mut [u8; 128], at: usize, v: &[u8]) {
    b[at..at + v.len()].copy_from_slice(v);
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

impl SimTensorMap {
    /// The 128 bytes of the map.
    pub fn encode(&self) -> [u8; 128] {
        let mut b = [0u8; 128];
        put(&mut b, 0, &MAGIC.to_le_bytes());
        b[2] = self.rank;
        b[3] = self.data_type;
        b[4] = self.elem_bytes;
        b[5] = self.swizzle;
        b[6] = self.interleave;
        b[7] = self.oob_nan as u8 | (self.im2col.is_some() as u8) << 1;
        put(&mut b, 8, &self.global_address.to_le_bytes());
        for i in 0..5 {
            put(&mut b, 16 + 8 * i, &self.dims[i].to_le_bytes());
            put(&mut b, 88 + 2 * i, &self.box_dim[i].to_le_bytes());
            b[98 + i] = self.elem_strides[i];
        }
        for i in 1..5 {
            put(&mut b, 56 + 8 * (i - 1), &self.strides[i].to_le_bytes());
        }
        if let Some(c) = self.im2col {
            for i in 0..3 {
                put(&mut b, 104 + 2 * i, &c.lower[i].to_le_bytes());
                put(&mut b, 110 + 2 * i, &c.upper[i].to_le_bytes());
            }
            put(&mut b, 116, &c.channels_per_pixel.to_le_bytes());
            put(&mut b, 118, &c.pixels_per_column.to_le_bytes());
        }
        b[120] = self.l2_promotion;
        b
    }

    /// The map in `bytes`, or `None` when they are not one of these (a parameter the host never
    /// filled with a simulator tensor map).
    pub fn decode(bytes: &[u8]) -> Option<SimTensorMap> {
        if bytes.len() < 128 || u16_at(bytes, 0) != MAGIC {
            return None;
        }
        let mut m = SimTensorMap {
            rank: bytes[2],
            data_type: bytes[3],
            elem_bytes: bytes[4],
            swizzle: bytes[5],
            interleave: bytes[6],
            oob_nan: bytes[7] & 1 != 0,
            l2_promotion: bytes[120],
            global_address: u64_at(bytes, 8),
            ..Default::default()
        };
        m.strides[0] = m.elem_bytes as u64;
        for i in 0..5 {
            m.dims[i] = u64_at(bytes, 16 + 8 * i);
            m.box_dim[i] = u16_at(bytes, 88 + 2 * i);
            m.elem_strides[i] = bytes[98 + i];
        }
        for i in 1..5 {
            m.strides[i] = u64_at(bytes, 56 + 8 * (i - 1));
        }
        if bytes[7] & 2 != 0 {
            let mut c = Im2col::default();
            for i in 0..3 {
                c.lower[i] = u16_at(bytes, 104 + 2 * i) as i16;
                c.upper[i] = u16_at(bytes, 110 + 2 * i) as i16;
            }
            c.channels_per_pixel = u16_at(bytes, 116);
            c.pixels_per_column = u16_at(bytes, 118);
            m.im2col = Some(c);
        }
        if !(1..=5).contains(&m.rank) || m.elem_bytes == 0 {
            return None;
        }
        Some(m)
    }

    /// Elements one load or store moves along dimension `i` of a tiled map
    /// (`ceil(boxDim / elementStrides)`).
    pub fn box_elems(&self, i: usize) -> u64 {
        let s = self.elem_strides[i].max(1) as u64;
        (self.box_dim[i] as u64).div_ceil(s)
    }

    /// Bytes of shared memory one tiled load or store moves (what it completes on the barrier).
    pub fn box_bytes(&self) -> u64 {
        (0..self.rank as usize)
            .map(|i| self.box_elems(i))
            .product::<u64>()
            * self.elem_bytes as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let m = SimTensorMap {
            rank: 4,
            data_type: 7,
            elem_bytes: 4,
            swizzle: 128,
            interleave: 0,
            oob_nan: true,
            l2_promotion: 2,
            global_address: 0x1234_5678_9a00,
            dims: [64, 33, 7, 2, 1],
            strides: [4, 256, 256 * 33, 256 * 33 * 7, 0],
            box_dim: [32, 8, 1, 1, 1],
            elem_strides: [1, 2, 1, 1, 1],
            im2col: Some(Im2col {
                lower: [-1, -1, 0],
                upper: [1, 1, 0],
                channels_per_pixel: 64,
                pixels_per_column: 128,
            }),
        };
        assert_eq!(SimTensorMap::decode(&m.encode()), Some(m));
        assert_eq!(SimTensorMap::decode(&[0u8; 128]), None);
        assert_eq!(m.box_elems(1), 4);
    }

    #[test]
    fn handles_name_their_parameter() {
        assert_eq!(grid_constant_index(grid_constant_handle(3)), Some(3));
        assert_eq!(grid_constant_index(GRID_CONSTANT_BASE + 1), None);
        assert_eq!(grid_constant_index(0x1000), None);
    }
}
