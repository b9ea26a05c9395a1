//! A spinning kernel fails with the simulator's instruction limit instead of hanging the test.
//! Its own test binary: it sets `FERROCUDA_SIM_MAX_INSTRUCTIONS`, which every launch reads.

use ferrocuda::prelude::*;
use kernel_sim::SimErrorKind;

#[kernel]
pub fn spin_until_flag(flag: &[u32], out: &mut [u32]) {
    let mut n = 0u32;
    while flag[0] == 0 {
        n = n.wrapping_add(1);
    }
    out[0] = n;
}

#[test]
fn spinning_kernel_stops_at_the_instruction_limit() {
    // SAFETY: the only test of this binary; nothing else reads the environment concurrently.
    unsafe { std::env::set_var("FERROCUDA_SIM_MAX_INSTRUCTIONS", "200000") };
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let zero = dev.upload(&[0u32]).unwrap();
    let mut out = dev.alloc_zeroed::<u32>(1).unwrap();
    spin_until_flag::launch(&s, LaunchConfig::for_elements(4, 4), &zero, &mut out).unwrap();
    let e = match s.synchronize() {
        Err(Error::Simulator(e)) => e,
        other => panic!("expected the instruction limit, got {other:?}"),
    };
    assert_eq!(e.kind, SimErrorKind::InstructionLimit, "{e}");
    let src = include_str!("sim_limit.rs");
    let line = src
        .lines()
        .position(|l| l.trim() == "while flag[0] == 0 {")
        .unwrap() as u32
        + 1;
    assert!(e.file.ends_with("sim_limit.rs"), "{e}");
    assert_eq!((e.line, e.col), (line, 5), "{e}");
    assert_eq!((e.block, e.thread), ([0, 0, 0], [0, 0, 0]));

    // A flag that is set lets the same kernel finish.
    let one = dev.upload(&[1u32]).unwrap();
    spin_until_flag::launch(&s, LaunchConfig::for_elements(4, 4), &one, &mut out).unwrap();
    s.synchronize().unwrap();
    unsafe { std::env::remove_var("FERROCUDA_SIM_MAX_INSTRUCTIONS") };
}
