//! The pass pipeline as data: [`PIPELINE`] lists the passes in the order they run, each with the
//! condition under which it runs, and [`optimize_with`] runs the list, calling a hook after
//! every pass that ran (per-pass timing, `--print-after`, `FERROCUDA_PRINT_AFTER`).

use kernel_ir::ir::Kernel;

use super::*;
use crate::options::CompileOptions;

/// One optimization pass.
pub trait Pass: Sync {
    /// The name `--print-after` and `FERROCUDA_PRINT_AFTER` select it by, and that dumps and
    /// timings show.
    fn name(&self) -> &'static str;
    /// Runs the pass over `k`; returns whether it changed anything.
    fn run(&self, k: &mut Kernel, opts: &CompileOptions) -> bool;
}

/// A [`Pass`] that is a function of the kernel (and the options).
pub struct FnPass {
    name: &'static str,
    run: fn(&mut Kernel, &CompileOptions) -> bool,
}

impl Pass for FnPass {
    fn name(&self) -> &'static str {
        self.name
    }
    fn run(&self, k: &mut Kernel, opts: &CompileOptions) -> bool {
        (self.run)(k, opts)
    }
}

const fn pass(name: &'static str, run: fn(&mut Kernel, &CompileOptions) -> bool) -> FnPass {
    FnPass { name, run }
}

pub static BCE: FnPass = pass("bce", bce);
pub static CONST_FOLD: FnPass = pass("const_fold", |k, _| const_fold(k));
pub static COUNTED_WHILE: FnPass = pass("counted_while", |k, _| counted_while(k));
pub static UNROLL: FnPass = pass("unroll", |k, _| unroll(k));
pub static SROA: FnPass = pass("sroa", |k, _| sroa(k));
pub static CSE: FnPass = pass("cse", |k, _| cse(k));
pub static FMA: FnPass = pass("fma", |k, _| fma(k));
pub static NARROW_INDEX: FnPass = pass("narrow_index", |k, _| narrow_index(k));
pub static STRENGTH: FnPass = pass("strength", |k, _| strength(k));
pub static STRIDE_UNROLL: FnPass = pass("stride_unroll", |k, _| stride_unroll(k));
pub static REPEATS: FnPass = pass("repeats", |k, _| repeats::drop_repeats(k));
pub static SPLIT_WEBS: FnPass = pass("split_webs", |k, _| split_webs(k));
pub static DEFER_CHECKS: FnPass = pass("defer_checks", |k, _| defer_checks(k));
pub static COPIES: FnPass = pass("copies", |k, _| util::propagate_single_copies(k));
pub static SPECULATE: FnPass = pass("speculate", |k, _| speculate(k));
pub static VECTORIZE: FnPass = pass("vectorize", |k, _| vectorize(k));
pub static VECTOR_ACCESS: FnPass = pass("vector_access", |k, _| vector_access(k));
pub static SHIFTS: FnPass = pass("shifts", |k, _| shifts(k));
pub static DCE: FnPass = pass("dce", |k, _| dce(k));
pub static LICM: FnPass = pass("licm", |k, _| licm(k));
pub static COLD_REMAT: FnPass = pass("cold_remat", |k, _| cold_remat(k));
pub static NARROW_COMPARES: FnPass = pass("narrow_compares", |k, _| narrow_compares(k));
pub static VERSION_LOOPS: FnPass = pass("version_loops", |k, _| version_loops(k));
pub static DEFINE_LOADS: FnPass = pass("define_loads", |k, _| define_loads(k));

/// One entry of the pipeline.
pub enum Step {
    /// Runs the pass when the condition holds.
    Run(&'static dyn Pass, When),
    /// Runs the steps in order, round after round, until a round changes nothing (at most
    /// this many rounds).
    Repeat(u32, &'static [Step]),
    /// Runs the steps in order once ([`When::Changed`] looks back within the group).
    Group(&'static [Step]),
}

/// When a step runs.
pub enum When {
    Always,
    /// Only with `CompileOptions::bounds_checks` equal to this.
    Checks(bool),
    /// Only with `CompileOptions::fma_contraction`.
    FmaContraction,
    /// Only when an earlier step of the same group (or of the same round of a repeat) changed
    /// the kernel: the pass already left the kernel at its fixed point before them.
    Changed,
}

use Step::{Group, Repeat, Run};
use When::{Always, Changed, Checks, FmaContraction};

/// Every pass, in order. Each pass preserves the kernel's meaning exactly (stores, their order
/// within each memory space, panics and their detail values), except `fma`, which rounds once
/// where the source rounds twice (nvcc's default `--fmad=true`), and `bce` with checks off,
/// which is what switching checks off means.
pub static PIPELINE: &[Step] = &[
    // Checks off: every bounds check goes first, so that none is folded into an
    // unconditional panic below.
    Run(&BCE, Checks(false)),
    Run(&CONST_FOLD, Always),
    // `while` loops of constant start, bound and step become `for` loops, which `unroll` takes.
    Run(&COUNTED_WHILE, Always),
    // Unrolling an outer loop makes inner loop bounds that depend on its induction variable
    // constants; folding makes array indices built from induction variables constants; `sroa`
    // then turns arrays indexed only by constants into one variable per element. Folding runs
    // only after one of them changed something (it left the kernel at its fixed point).
    Repeat(
        8,
        &[
            Run(&UNROLL, Always),
            Run(&SROA, Always),
            Run(&CONST_FOLD, Changed),
        ],
    ),
    // A value computed again becomes a copy of the first result; folding propagates the copies.
    Group(&[Run(&CSE, Always), Run(&CONST_FOLD, Changed)]),
    Run(&BCE, Always),
    // After `bce`, so that only checks it could not prove are copied around.
    Run(&VERSION_LOOPS, Checks(true)),
    Run(&FMA, FmaContraction),
    Run(&NARROW_INDEX, Always),
    Run(&STRENGTH, Always),
    Run(&STRIDE_UNROLL, Always),
    // Without checks nothing below merges the repeats either; ptxas, which then merges them
    // itself, allocated SGEMM two more registers on sm_90 without them: that build keeps them.
    Run(&REPEATS, Checks(true)),
    Run(&SPLIT_WEBS, Always),
    // Early checks evaluate a run's indices at its head: `cse` makes the run reuse them, and
    // `copies` reads its copies through, so the passes below walk about a quarter less code.
    // Both only have something to do where `defer_checks` changed the kernel.
    Group(&[
        Run(&DEFER_CHECKS, Always),
        Run(&CSE, Changed),
        Run(&COPIES, Changed),
    ]),
    Run(&SPECULATE, Always),
    Run(&VECTORIZE, Always),
    // Whole vector-typed elements (`float4`, `uchar4`...) moved field by field become one
    // access; after `speculate`, whose guarded accesses it merges, and after `vectorize`,
    // which anchors shared addresses and takes the 32-bit shared loads it proves adjacent.
    Run(&VECTOR_ACCESS, Always),
    Run(&SHIFTS, Always),
    Run(&DCE, Always),
    // After `dce`, so that dead reads do not keep a value in its loop.
    Run(&LICM, Always),
    // After `licm` and `speculate`, which would take the copies back out of the cold branch.
    Run(&COLD_REMAT, Always),
    // After `cold_remat`: the cold copies keep the 64-bit form, so ptxas sees them apart.
    Run(&NARROW_COMPARES, Always),
    // Last: works around a ptxas fault that no pass above may bring back (see the pass).
    Run(&DEFINE_LOADS, Always),
];

/// Runs [`PIPELINE`], calling `after(pass, kernel)` after every pass that ran.
pub fn optimize_with(k: &mut Kernel, opts: &CompileOptions, after: &mut dyn FnMut(&str, &Kernel)) {
    run_steps(PIPELINE, k, opts, after);
}

/// Runs `steps` in order once; returns whether any changed the kernel.
fn run_steps(
    steps: &[Step],
    k: &mut Kernel,
    opts: &CompileOptions,
    after: &mut dyn FnMut(&str, &Kernel),
) -> bool {
    let mut changed = false;
    for step in steps {
        changed |= match step {
            Run(pass, when) => {
                let runs = match when {
                    Always => true,
                    Checks(on) => opts.bounds_checks == *on,
                    FmaContraction => opts.fma_contraction,
                    Changed => changed,
                };
                runs && {
                    let c = pass.run(k, opts);
                    after(pass.name(), k);
                    c
                }
            }
            Repeat(max, steps) => {
                let mut any = false;
                for _ in 0..*max {
                    if !run_steps(steps, k, opts, after) {
                        break;
                    }
                    any = true;
                }
                any
            }
            Group(steps) => run_steps(steps, k, opts, after),
        };
    }
    changed
}

/// The name of every pass in the pipeline, each once, in order of first appearance.
pub fn pass_names() -> Vec<&'static str> {
    fn collect(steps: &[Step], out: &mut Vec<&'static str>) {
        for s in steps {
            match s {
                Run(p, _) if !out.contains(&p.name()) => out.push(p.name()),
                Run(..) => {}
                Repeat(_, steps) | Group(steps) => collect(steps, out),
            }
        }
    }
    let mut out = Vec::new();
    collect(PIPELINE, &mut out);
    out
}

/// The pipeline's pass with this name.
pub fn pass_named(name: &str) -> Option<&'static dyn Pass> {
    fn find(steps: &'static [Step], name: &str) -> Option<&'static dyn Pass> {
        steps.iter().find_map(|s| match s {
            Run(p, _) => (p.name() == name).then_some(*p),
            Repeat(_, steps) | Group(steps) => find(steps, name),
        })
    }
    find(PIPELINE, name)
}

/// Which passes to print the IR after (`--print-after`, `FERROCUDA_PRINT_AFTER`): `all`, or a
/// comma-separated list of pass names (`frontend` is the IR before the first pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrintAfter {
    All,
    Passes(Vec<String>),
}

impl PrintAfter {
    /// Parses `all` or `pass[,pass...]`; an unknown name is an error that lists the names.
    pub fn parse(spec: &str) -> Result<PrintAfter, String> {
        if spec.trim() == "all" {
            return Ok(PrintAfter::All);
        }
        let names = pass_names();
        let mut out = Vec::new();
        for n in spec.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if n != "frontend" && !names.contains(&n) {
                return Err(format!(
                    "no pass named `{n}` (passes: frontend, {}; or `all`)",
                    names.join(", ")
                ));
            }
            out.push(n.to_string());
        }
        Ok(PrintAfter::Passes(out))
    }

    pub fn wants(&self, pass: &str) -> bool {
        match self {
            PrintAfter::All => true,
            PrintAfter::Passes(names) => names.iter().any(|n| n == pass),
        }
    }
}
