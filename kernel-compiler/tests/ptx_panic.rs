//! Bounds checks and explicit panics go through cold blocks to one shared panic sequence that
//! implements `panic_record`'s protocol and ends the thread with `exit`, never `trap`.

mod ptx_support;
use kernel_ir::ir::*;
use kernel_ir::panic_record as pr;
use ptx_support::*;

fn panicking_kernel() -> Kernel {
    let mut b = KB::new("panics");
    let (buf, len) = b.slice_param("buf", false, Ty::F32);
    let tid = b.tid_x();
    let i = b.cast(v(tid), Ty::U64);
    let s0 = b.site(PanicKind::Bounds);
    b.push(Inst::BoundsCheck {
        idx: v(i),
        len: v(len),
        site: s0,
    });
    let s1 = b.site(PanicKind::Bounds);
    b.push(Inst::BoundsCheck {
        idx: v(tid),
        len: c(Ty::U32, 100),
        site: s1,
    });
    let a = b.elem_addr(buf, v(i), Ty::F32);
    let x = b.load_global(Ty::F32, a, false);
    let neg = b.bin(BinOp::Lt, v(x), c(Ty::F32, 0f32.to_bits() as u64));
    let s2 = b.site(PanicKind::Explicit("negative".into()));
    b.if_(
        v(neg),
        |b| {
            b.push(Inst::Panic {
                site: s2,
                a: v(x),
                b: c(Ty::I8, 0xff),
            })
        },
        |_| {},
    );
    b.store_global(a, v(x));
    b.finish()
}

#[test]
fn panic_protocol() {
    let p = check(&panicking_kernel());
    let lines = [
        format!(".visible .global .align 4 .u32 {};", pr::MODULE_SYMBOL),
        format!(".param .u64 {}", pr::PANIC_PARAM),
        "setp.ge.u64".into(),
        "setp.ge.u32".into(),
        "bra $Lfc_bounds_".into(),
        format!("[{}];", pr::PANIC_PARAM),
        "atom.global.cas.b32".into(),
        format!("+{}], 0, 1;", pr::SLOT_OFF_CLAIM),
        format!("+{}];", pr::SLOT_OFF_RECORD),
        format!("+{}],", pr::OFF_SITE),
        format!("+{}],", pr::OFF_A),
        format!("+{}],", pr::OFF_B),
        format!("+{}],", pr::OFF_THREAD + 8),
        format!("[{}];", pr::MODULE_SYMBOL),
        format!("+{}],", pr::OFF_MODULE),
        "%ctaid.z".into(),
        "membar.sys;".into(),
        format!("+{}], {};", pr::OFF_STATE, pr::STATE_DONE),
        "exit;".into(),
        "$Lfc_panic:".into(),
        // The explicit panic records the f32's bits and the i8 sign-extended.
        "cvt.s64.s32".into(),
    ];
    for l in &lines {
        assert_line(&p, l);
    }
    assert!(!p.contains("trap"));
    // The slot is mapped host memory: no system-scope atomics there (compute-sanitizer's memcheck
    // stops a kernel at one; the host reads the record only after synchronizing anyway).
    assert!(
        !p.lines().any(|l| l.contains("atom.") && l.contains(".sys")),
        "system-scope atomic in the panic block:\n{p}"
    );
    // One shared panic block.
    assert_eq!(p.matches("$Lfc_panic:").count(), 1);
    // The parameter is the entry's last; the user's come first in order.
    let entry = &p[p.find(".entry").unwrap()..];
    let sig = &entry[..entry.find(')').unwrap()];
    assert!(
        sig.trim_end()
            .ends_with(&format!(".param .u64 {}", pr::PANIC_PARAM)),
        "{sig}"
    );
}

/// The record is host memory mapped into the device: only plain stores may reach it. Atomics at
/// system scope (or any atomic on the record) are what compute-sanitizer's memcheck refuses and
/// what PCIe hosts without native atomics do not make atomic.
#[test]
fn no_atomic_reaches_host_memory() {
    let p = check(&panicking_kernel());
    let atoms: Vec<&str> = p.lines().filter(|l| l.contains("atom.")).collect();
    assert_eq!(atoms.len(), 1, "{atoms:?}");
    assert!(!atoms[0].contains(".sys"), "{}", atoms[0]);
    // The CAS addresses the slot (device memory), not the record loaded from it.
    let slot = p
        .lines()
        .find(|l| l.contains(&format!("[{}]", pr::PANIC_PARAM)))
        .and_then(|l| l.split_whitespace().nth(1))
        .map(|r| r.trim_end_matches(','))
        .unwrap();
    assert!(
        atoms[0].contains(&format!("[{slot}+{}]", pr::SLOT_OFF_CLAIM)),
        "{}",
        atoms[0]
    );
    // No strong store either (ptxas then puts YIELDs into loops).
    assert!(!p.contains("st.volatile") && !p.contains("st.relaxed"));
}

#[test]
fn kernels_without_panics_have_no_panic_block_but_keep_the_abi() {
    let mut b = KB::new("quiet");
    b.tid_x();
    let p = check(&b.finish());
    assert!(!p.contains("$Lfc_panic"));
    assert!(p.contains(pr::MODULE_SYMBOL));
    assert!(p.contains(&format!(".param .u64 {}", pr::PANIC_PARAM)));
}

#[test]
fn unknown_site_is_an_error() {
    let mut b = KB::new("bad_site");
    b.push(Inst::Panic {
        site: SiteId(3),
        a: c(Ty::U32, 0),
        b: c(Ty::U32, 0),
    });
    assert!(kernel_compiler::ptx::emit(&b.finish(), &opts(80)).is_err());
}
