//! Correctly rounded f64 references from GNU MPFR, so an f64 row measures our distance from the
//! correctly rounded result itself (CUDA's definition) instead of from another libm's result.
//!
//! MPFR is loaded at run time from the system's `libmpfr.so.6` (`FERROCUDA_MPFR` names another
//! file): every machine with gcc has it (gcc's own `cc1` links it), so the tests need no
//! build-time dependency. Each call computes at 53 bits with the exponent range of binary64
//! (`emin = -1073`, `emax = 1024`) and `mpfr_subnormalize`, which gives the correctly rounded
//! double, subnormal results included, with one rounding.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_long, c_void, CString};
use std::sync::OnceLock;

/// `__mpfr_struct` (mpfr.h): precision, sign, exponent, limbs.
#[repr(C)]
struct Mpfr {
    prec: c_long,
    sign: c_int,
    exp: c_long,
    limbs: *mut c_void,
}

const RNDN: c_int = 0;

type Un = unsafe extern "C" fn(*mut Mpfr, *const Mpfr, c_int) -> c_int;
type Bin = unsafe extern "C" fn(*mut Mpfr, *const Mpfr, *const Mpfr, c_int) -> c_int;
type LgammaFn = unsafe extern "C" fn(*mut Mpfr, *mut c_int, *const Mpfr, c_int) -> c_int;

extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
}

struct Lib {
    handle: usize,
    init2: unsafe extern "C" fn(*mut Mpfr, c_long),
    clear: unsafe extern "C" fn(*mut Mpfr),
    set_d: unsafe extern "C" fn(*mut Mpfr, f64, c_int) -> c_int,
    get_d: unsafe extern "C" fn(*const Mpfr, c_int) -> f64,
    set_emin: unsafe extern "C" fn(c_long) -> c_int,
    set_emax: unsafe extern "C" fn(c_long) -> c_int,
    subnormalize: unsafe extern "C" fn(*mut Mpfr, c_int, c_int) -> c_int,
    lgamma: LgammaFn,
}

/// The address of `name` in the library `handle`, as a function pointer of type `T`.
///
/// # Safety
/// `T` must be the C signature of `name`.
unsafe fn sym<T: Copy>(handle: usize, name: &str) -> T {
    let c = CString::new(name).unwrap();
    let p = dlsym(handle as *mut c_void, c.as_ptr());
    assert!(!p.is_null(), "{name} is not in the loaded libmpfr");
    std::mem::transmute_copy(&p)
}

fn lib() -> &'static Lib {
    static LIB: OnceLock<Lib> = OnceLock::new();
    LIB.get_or_init(|| {
        let file = std::env::var("FERROCUDA_MPFR").unwrap_or_else(|_| "libmpfr.so.6".into());
        let c = CString::new(file.clone()).unwrap();
        const RTLD_NOW: c_int = 2;
        // SAFETY: plain C call with a NUL-terminated name.
        let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW) } as usize;
        assert!(
            handle != 0,
            "cannot load {file}: the f64 accuracy tests take their correctly rounded reference \
             from GNU MPFR (Debian/Ubuntu package libmpfr6; set FERROCUDA_MPFR to its path)"
        );
        // SAFETY: each type is the C signature of the MPFR function named (mpfr.h).
        unsafe {
            Lib {
                handle,
                init2: sym(handle, "mpfr_init2"),
                clear: sym(handle, "mpfr_clear"),
                set_d: sym(handle, "mpfr_set_d"),
                get_d: sym(handle, "mpfr_get_d"),
                set_emin: sym(handle, "mpfr_set_emin"),
                set_emax: sym(handle, "mpfr_set_emax"),
                subnormalize: sym(handle, "mpfr_subnormalize"),
                lgamma: sym(handle, "mpfr_lgamma"),
            }
        }
    })
}

/// Three 53-bit variables per thread (two arguments and the result), with binary64's exponent
/// range set for that thread (MPFR keeps it per thread).
struct Vars([Mpfr; 3]);

impl Vars {
    fn new() -> Vars {
        let l = lib();
        let blank = || Mpfr {
            prec: 0,
            sign: 0,
            exp: 0,
            limbs: std::ptr::null_mut(),
        };
        let mut v = Vars([blank(), blank(), blank()]);
        // SAFETY: MPFR initialises each variable before any other use.
        unsafe {
            for m in &mut v.0 {
                (l.init2)(m, 53);
            }
            (l.set_emin)(-1073);
            (l.set_emax)(1024);
        }
        v
    }
}

impl Drop for Vars {
    fn drop(&mut self) {
        let l = lib();
        for m in &mut self.0 {
            // SAFETY: initialised in `new`, cleared once.
            unsafe { (l.clear)(m) };
        }
    }
}

thread_local! {
    static VARS: RefCell<Option<Vars>> = const { RefCell::new(None) };
}

/// Runs `f(result, x, y)` on this thread's variables, `x` and `y` set exactly from `a` and `b`, and
/// returns the result rounded once to a double.
fn with(a: f64, b: f64, f: impl FnOnce(&Lib, *mut Mpfr, *const Mpfr, *const Mpfr) -> c_int) -> f64 {
    VARS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let vars = slot.get_or_insert_with(Vars::new);
        let l = lib();
        let [r, x, y] = &mut vars.0;
        // SAFETY: all three are initialised 53-bit variables of this thread; a double fits
        // exactly.
        unsafe {
            (l.set_d)(x, a, RNDN);
            (l.set_d)(y, b, RNDN);
            let t = f(l, r, x, y);
            (l.subnormalize)(r, t, RNDN);
            (l.get_d)(r, RNDN)
        }
    })
}

thread_local! {
    static FNS: RefCell<Vec<(&'static str, usize)>> = const { RefCell::new(Vec::new()) };
}

/// The address of the MPFR function `name` (looked up once per thread).
fn function(name: &'static str) -> usize {
    FNS.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(&(_, p)) = c.iter().find(|(n, _)| *n == name) {
            return p;
        }
        // SAFETY: read back only as the shape its caller's name has (`un`/`bin`).
        let p: usize = unsafe { sym::<*mut c_void>(lib().handle, name) } as usize;
        c.push((name, p));
        p
    })
}

/// The correctly rounded `f(x)` for the MPFR function `mpfr_NAME` of shape `(rop, op, rnd)`.
pub fn un(name: &'static str, x: f64) -> f64 {
    // SAFETY: callers name functions of shape `Un`.
    let f = unsafe { std::mem::transmute::<usize, Un>(function(name)) };
    // SAFETY: `f` has the shape `Un`.
    with(x, 0.0, |_, r, x, _| unsafe { f(r, x, RNDN) })
}

/// The correctly rounded `f(x, y)` for the MPFR function `mpfr_NAME` of shape
/// `(rop, op1, op2, rnd)`.
pub fn bin(name: &'static str, a: f64, b: f64) -> f64 {
    // SAFETY: callers name functions of shape `Bin`.
    let f = unsafe { std::mem::transmute::<usize, Bin>(function(name)) };
    // SAFETY: `f` has the shape `Bin`.
    with(a, b, |_, r, x, y| unsafe { f(r, x, y, RNDN) })
}

/// The correctly rounded `f(n, x)` for `mpfr_jn` or `mpfr_yn` (shape `(rop, long, op, rnd)`).
pub fn order_n(name: &'static str, n: i32, x: f64) -> f64 {
    type OrderFn = unsafe extern "C" fn(*mut Mpfr, c_long, *const Mpfr, c_int) -> c_int;
    // SAFETY: callers name `mpfr_jn` or `mpfr_yn`, of shape `OrderFn`.
    let f = unsafe { std::mem::transmute::<usize, OrderFn>(function(name)) };
    // SAFETY: `f` has the shape `OrderFn`.
    with(x, 0.0, |_, r, x, _| unsafe { f(r, n as c_long, x, RNDN) })
}

/// The correctly rounded `ln |Gamma(x)|`.
pub fn lgamma(x: f64) -> f64 {
    with(x, 0.0, |l, r, x, _| {
        let mut sign: c_int = 0;
        // SAFETY: `lgamma` has the shape `LgammaFn`.
        unsafe { (l.lgamma)(r, &mut sign, x, RNDN) }
    })
}

/// Values at 256 bits with MPFR's widest exponent range, for references that compose several
/// operations (`1/sqrt(a^2 + b^2 + c^2)`, `exp(x^2) erfc(x)`): each step rounds at 256 bits,
/// and [`Big::to_f64`] rounds once to a double, so the result is the correctly rounded one
/// unless the exact value lies within 2^-250 relative of a rounding boundary.
pub struct Big(Mpfr);

type Set = unsafe extern "C" fn(*mut Mpfr, *const Mpfr, c_int) -> c_int;
type CheckRange = unsafe extern "C" fn(*mut Mpfr, c_int, c_int) -> c_int;

impl Big {
    fn blank(prec: c_long) -> Big {
        let l = lib();
        let mut m = Mpfr {
            prec: 0,
            sign: 0,
            exp: 0,
            limbs: std::ptr::null_mut(),
        };
        // SAFETY: initialises a fresh variable; the exponent range is per thread.
        unsafe {
            (l.init2)(&mut m, prec);
            (l.set_emin)(-(1 << 30));
            (l.set_emax)(1 << 30);
        }
        Big(m)
    }
    /// `x` exactly.
    pub fn new(x: f64) -> Big {
        let mut b = Big::blank(256);
        // SAFETY: an initialised variable; a double fits exactly.
        unsafe { (lib().set_d)(&mut b.0, x, RNDN) };
        b
    }
    /// `mpfr_NAME(self)` at 256 bits, for a function of shape `(rop, op, rnd)`.
    pub fn un(&self, name: &'static str) -> Big {
        let mut r = Big::blank(256);
        // SAFETY: callers name functions of shape `Un`.
        let f = unsafe { std::mem::transmute::<usize, Un>(function(name)) };
        // SAFETY: initialised variables.
        unsafe { f(&mut r.0, &self.0, RNDN) };
        r
    }
    /// `mpfr_NAME(self, other)` at 256 bits, for a function of shape `(rop, op1, op2, rnd)`.
    pub fn bin(&self, name: &'static str, other: &Big) -> Big {
        let mut r = Big::blank(256);
        // SAFETY: callers name functions of shape `Bin`.
        let f = unsafe { std::mem::transmute::<usize, Bin>(function(name)) };
        // SAFETY: initialised variables.
        unsafe { f(&mut r.0, &self.0, &other.0, RNDN) };
        r
    }
    pub fn add(&self, o: &Big) -> Big {
        self.bin("mpfr_add", o)
    }
    pub fn sub(&self, o: &Big) -> Big {
        self.bin("mpfr_sub", o)
    }
    pub fn mul(&self, o: &Big) -> Big {
        self.bin("mpfr_mul", o)
    }
    pub fn div(&self, o: &Big) -> Big {
        self.bin("mpfr_div", o)
    }
    /// The value as an f64 (not the correctly rounded double: for Newton steps).
    pub fn approx(&self) -> f64 {
        // SAFETY: an initialised variable.
        unsafe { (lib().get_d)(&self.0, RNDN) }
    }
    /// The value rounded once to a double in binary64's exponent range (subnormals, overflow
    /// and underflow as IEEE rounds them).
    pub fn to_f64(&self) -> f64 {
        let l = lib();
        let mut r = Big::blank(53);
        // SAFETY: initialised variables; the range is narrowed after the 53-bit rounding, which
        // `mpfr_check_range` and `mpfr_subnormalize` then apply (their documented use).
        unsafe {
            let set: Set = std::mem::transmute::<usize, Set>(function("mpfr_set"));
            let check: CheckRange =
                std::mem::transmute::<usize, CheckRange>(function("mpfr_check_range"));
            let t = set(&mut r.0, &self.0, RNDN);
            (l.set_emin)(-1073);
            (l.set_emax)(1024);
            let t = check(&mut r.0, t, RNDN);
            (l.subnormalize)(&mut r.0, t, RNDN);
            (l.get_d)(&r.0, RNDN)
        }
    }
}

impl Drop for Big {
    fn drop(&mut self) {
        // SAFETY: initialised in `blank`, cleared once.
        unsafe { (lib().clear)(&mut self.0) };
    }
}
