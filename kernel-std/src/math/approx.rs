//! The hardware's approximate f32 units, callable from the f32 math library's `#[device]`
//! functions (`ex2(x)` in device code lowers to the intrinsic-table entry `approx_ex2.f32`, one
//! `ex2.approx.f32` instruction). CUDA's own f32 library is built on the same instructions.
//!
//! On the GPU the results are implementation-defined within the PTX bounds; the simulator (and
//! the host twins below, which run when a math function is called on the host, e.g. by unit
//! tests) compute [`model`]: the correctly rounded value of the same function.

/// The simulator's model of each instruction: the correctly rounded value of the function of the
/// same argument; `ftz` variants read subnormal inputs as zero of the same sign and flush
/// subnormal results.
pub mod model {
    fn flush(x: f32) -> f32 {
        if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    }
    /// `ex2.approx.f32` (subnormal results kept).
    pub fn ex2(x: f32) -> f32 {
        (x as f64).exp2() as f32
    }
    /// `ex2.approx.ftz.f32`.
    pub fn ex2_ftz(x: f32) -> f32 {
        flush(ex2(flush(x)))
    }
    /// `lg2.approx.ftz.f32`.
    pub fn lg2_ftz(x: f32) -> f32 {
        (flush(x) as f64).log2() as f32
    }
    /// `rsqrt.approx.f32`.
    pub fn rsqrt(x: f32) -> f32 {
        (1.0 / (x as f64).sqrt()) as f32
    }
    /// `rcp.approx.ftz.f32`.
    pub fn rcp_ftz(x: f32) -> f32 {
        flush((1.0 / flush(x) as f64) as f32)
    }
    /// `cvt.rni.f32.f32`: exact (nearest integer, ties to even).
    pub fn rint(x: f32) -> f32 {
        x.round_ties_even()
    }
    /// `fma.rn.sat.f32`: exact; the result clamped to `[0, 1]`, NaN to `+0`.
    pub fn fma_sat(a: f32, b: f32, c: f32) -> f32 {
        let r = a.mul_add(b, c);
        if r.is_nan() {
            0.0
        } else {
            r.clamp(0.0, 1.0) + 0.0
        }
    }
}

/// A host twin computing the model, plus the companion module naming the table entry.
macro_rules! approx_fn {
    ($(#[$m:meta])* $name:ident => $entry:literal, $model:path) => {
        $(#[$m])*
        pub fn $name(x: f32) -> f32 {
            $model(x)
        }
        #[doc(hidden)]
        pub mod $name {
            pub fn __fc_callable() -> ::kernel_ir::ast::Callable {
                ::kernel_ir::ast::Callable::Intrinsic($entry)
            }
        }
    };
}

approx_fn!(
    /// `2^x`, `ex2.approx.f32`: subnormal results kept (MUFU.EX2 plus the assembler's scaling).
    ex2 => "approx_ex2.f32", model::ex2
);
approx_fn!(
    /// `2^x`, `ex2.approx.ftz.f32`: one MUFU.EX2; subnormal inputs and results are zero.
    ex2_ftz => "approx_ex2_ftz.f32", model::ex2_ftz
);
approx_fn!(
    /// `log2 x`, `lg2.approx.ftz.f32`: one MUFU.LG2 (absolute error about 2^-22).
    lg2_ftz => "approx_lg2_ftz.f32", model::lg2_ftz
);
approx_fn!(
    /// `1/sqrt(x)`, `rsqrt.approx.f32`: MUFU.RSQ (CUDA's `rsqrtf`), subnormal inputs scaled.
    rsqrt => "approx_rsqrt.f32", model::rsqrt
);
approx_fn!(
    /// `1/x`, `rcp.approx.ftz.f32`: one MUFU.RCP (about 1 ulp).
    rcp_ftz => "approx_rcp_ftz.f32", model::rcp_ftz
);
approx_fn!(
    /// Nearest integer, ties to even (`cvt.rni.f32.f32`, exact).
    rint => "rint.f32", model::rint
);

/// `fma(a, b, c)` clamped to `[0, 1]` (NaN to `+0`): `fma.rn.sat.f32`, exact.
pub fn fma_sat(a: f32, b: f32, c: f32) -> f32 {
    model::fma_sat(a, b, c)
}
#[doc(hidden)]
pub mod fma_sat {
    pub fn __fc_callable() -> ::kernel_ir::ast::Callable {
        ::kernel_ir::ast::Callable::Intrinsic("fma_sat.f32")
    }
}

/// `if c { a } else { b }` of two computed values: one `selp.f32` (FSEL), never a branch.
pub fn select(c: bool, a: f32, b: f32) -> f32 {
    if c {
        a
    } else {
        b
    }
}
#[doc(hidden)]
pub mod select {
    pub fn __fc_callable() -> ::kernel_ir::ast::Callable {
        ::kernel_ir::ast::Callable::Intrinsic("select.f32")
    }
}

/// `if c { a } else { b }` for `u32`: one `selp.b32` (SEL).
pub fn select_u32(c: bool, a: u32, b: u32) -> u32 {
    if c {
        a
    } else {
        b
    }
}
#[doc(hidden)]
pub mod select_u32 {
    pub fn __fc_callable() -> ::kernel_ir::ast::Callable {
        ::kernel_ir::ast::Callable::Intrinsic("select.u32")
    }
}
