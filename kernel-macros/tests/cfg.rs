//! `#[cfg]` / `#[cfg_attr]` in device code follow rustc's decision in every position Rust allows
//! them: each `#[device]` fn below runs on the simulator (through a kernel) and as the plain
//! Rust function it also is, and the two must agree. Before the macro handed the predicates to
//! rustc, configured-out code ran on the device (`cfg_stmt` gave `100 + x`).

// `cfg(all())` / `cfg(any())` are the predicates that are always / never true here.
#![allow(clippy::non_minimal_cfg)]

use ferrocuda::prelude::*;

const INPUTS: [u32; 6] = [0, 1, 2, 7, 100, 12345];

#[device]
pub fn cfg_stmt(x: u32) -> u32 {
    let mut z = 1;
    #[cfg(any())]
    {
        z = 100;
    }
    #[cfg(all())]
    {
        z += 2;
    }
    z + x
}

#[device]
pub fn cfg_let(x: u32) -> u32 {
    let z = x;
    #[cfg(any())]
    let z = 100;
    #[cfg(all())]
    let z = z * 3;
    z
}

#[device]
pub fn cfg_control_flow(x: u32) -> u32 {
    let mut z = x;
    #[cfg(any())]
    if z > 0 {
        z = 1000;
    }
    #[cfg(any())]
    for _ in 0..3 {
        z += 7;
    }
    #[cfg(any())]
    while z < 10_000 {
        z += 1;
    }
    #[cfg(any())]
    loop {
        z = 5;
        break;
    }
    #[cfg(all())]
    for i in 0..2 {
        z += i;
    }
    z
}

#[device]
pub fn cfg_macro_stmt(x: u32) -> u32 {
    #[cfg(any())]
    panic!("configured out");
    #[cfg(any())]
    assert!(x > 1_000_000);
    #[cfg(all())]
    assert!(x < 1_000_000);
    x + 1
}

#[device]
pub fn cfg_match_arms(x: u32) -> u32 {
    match x {
        #[cfg(any())]
        0 => 100,
        #[cfg(all())]
        1 => 10,
        #[cfg_attr(all(), cfg(any()))]
        2 => 200,
        _ => 1,
    }
}

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
pub struct Fields {
    pub a: u32,
    #[cfg(any())]
    pub gone: f64,
    #[cfg(all())]
    pub b: u32,
}

#[device]
pub fn cfg_struct_fields(x: u32) -> u32 {
    let s = Fields {
        a: x,
        #[cfg(any())]
        gone: 1.0,
        #[cfg(all())]
        b: 3,
    };
    s.a * 2 + s.b
}

#[device]
pub fn cfg_items(x: u32) -> u32 {
    #[cfg(any())]
    const K: u32 = 100;
    #[cfg(not(any()))]
    const K: u32 = 5;
    x + K
}

#[device]
pub fn two_params(#[cfg(any())] a: u32, b: u32) -> u32 {
    b * 4
}

#[device]
pub fn cfg_elements(x: u32) -> u32 {
    let a = [
        x,
        #[cfg(any())]
        1000,
        3,
    ];
    let t = (
        x,
        #[cfg(any())]
        7u64,
        9u32,
    );
    let c = two_params(
        #[cfg(any())]
        1000,
        x,
    );
    let m = x.max(
        #[cfg(all())]
        2,
    );
    a[1] + t.1 + c + m + a.len() as u32
}

#[device]
pub fn cfg_debug_assertions(x: u32) -> u32 {
    let mut z = x;
    #[cfg(debug_assertions)]
    {
        z += 1;
    }
    #[cfg(not(debug_assertions))]
    {
        z += 2;
    }
    z
}

#[device]
pub fn cfg_attr_forms(x: u32) -> u32 {
    let mut z = x;
    // `cfg_attr(true, cfg(false))`: gone.
    #[cfg_attr(all(), cfg(any()))]
    {
        z += 100;
    }
    // `cfg_attr(false, cfg(false))`: kept.
    #[cfg_attr(any(), cfg(any()))]
    {
        z += 1;
    }
    // Loop attributes under `cfg_attr`.
    #[cfg_attr(debug_assertions, unroll)]
    #[cfg_attr(not(debug_assertions), unroll(2))]
    for i in 0..4 {
        z += i;
    }
    z
}

#[device]
pub fn cfg_out_host_only_code(x: u32) -> u32 {
    // Configured-out code may use what device code cannot: it is not there.
    #[cfg(any())]
    {
        println!("host only {x}");
        let v: Vec<u32> = Vec::new();
    }
    #[cfg(any())]
    fn helper() {}
    x ^ 5
}

macro_rules! kernels {
    ($($f:ident),* $(,)?) => {
        mod k {
            use ferrocuda::prelude::*;
            $(
                #[kernel]
                pub fn $f(x: &[u32], y: &mut [u32]) {
                    let i = thread_idx().x as usize;
                    if i < y.len() {
                        y[i] = super::$f(x[i]);
                    }
                }
            )*
        }

        #[test]
        fn device_and_host_agree_in_every_cfg_position() {
            let dev = Device::simulator();
            let s = dev.new_stream().unwrap();
            let x = dev.upload(&INPUTS).unwrap();
            let mut failures = Vec::new();
            $(
                let mut y = dev.upload(&[0u32; INPUTS.len()]).unwrap();
                k::$f::launch(&s, LaunchConfig::for_elements(INPUTS.len(), 32), &x, &mut y)
                    .unwrap();
                let device = y.to_vec().unwrap();
                let host: Vec<u32> = INPUTS.iter().map(|&v| $f(v)).collect();
                if device != host {
                    failures.push(format!("{}: device {device:?}, host {host:?}", stringify!($f)));
                }
            )*
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
    };
}

kernels!(
    cfg_stmt,
    cfg_let,
    cfg_control_flow,
    cfg_macro_stmt,
    cfg_match_arms,
    cfg_struct_fields,
    cfg_items,
    cfg_elements,
    cfg_debug_assertions,
    cfg_attr_forms,
    cfg_out_host_only_code,
);

#[kernel]
pub fn configured_params(#[cfg(any())] unused: f64, y: &mut [u32], #[cfg(all())] add: u32) {
    let i = thread_idx().x as usize;
    if i < y.len() {
        y[i] += add;
    }
}

#[test]
fn kernel_parameters_follow_cfg_in_the_ast_and_the_launcher() {
    let def = configured_params::ast();
    let names: Vec<&str> = def.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["y", "add"]);
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut y = dev.upload(&[1u32, 2, 3]).unwrap();
    configured_params::launch(&s, LaunchConfig::for_elements(3, 32), &mut y, 10).unwrap();
    assert_eq!(y.to_vec().unwrap(), [11, 12, 13]);
}

#[test]
fn derived_struct_fields_follow_cfg() {
    let def = <Fields as ferrocuda::__private::DeviceCopy>::struct_def();
    let names: Vec<&str> = def.fields.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(def.size, 8);
}

#[test]
fn unroll_under_cfg_attr_follows_the_profile() {
    use ferrocuda::__private::ast::{ExprKind, Stmt, Unroll};
    let ferrocuda::__private::ast::Callable::Device(def) = cfg_attr_forms::__fc_callable() else {
        panic!("device fn");
    };
    let unroll = def.body.stmts.iter().find_map(|s| match s {
        Stmt::Expr(e) => match &e.kind {
            ExprKind::For { unroll, .. } => Some(*unroll),
            _ => None,
        },
        _ => None,
    });
    let want = if cfg!(debug_assertions) {
        Unroll::Full
    } else {
        Unroll::By(2)
    };
    assert_eq!(unroll, Some(want));
}
