//! Shadow state of a block's shared memory, one cell per byte, for the race and uninitialised-read
//! detectors.
//!
//! Accesses are grouped into barrier epochs: a cell stamped with an older epoch has no pending
//! accesses, so a barrier costs one counter increment instead of a sweep. Within an epoch two
//! accesses by different threads conflict unless both are atomics or neither writes, except that
//! lanes of one warp are ordered by a warp collective both of them passed after the first access.
//!
//! Every access is recorded before it is judged, so that a read of a byte no thread wrote yet still
//! conflicts with a later write by another thread in the same epoch: the scheduler holds such a
//! read back (see `sched`) and reports the race if that write comes, the uninitialised read if not.
//!
//! A plain read conflicting with another thread's atomic is only a [`Note`]: it is the first read
//! of a compare-and-swap loop when the reading thread then accesses the word atomically itself
//! (the scheduler judges that), and each cell remembers whether its plain readers did so, so that an
//! atomic arriving after such reads is not a race either.

/// No thread.
pub(crate) const NONE: u32 = u32::MAX;
/// Several threads (readers or atomic users).
pub(crate) const MANY: u32 = u32::MAX - 1;

#[derive(Clone, Copy, Default)]
struct Cell {
    epoch: u32,
    /// Block serial of the last write; a mismatch means "never written in this block".
    init: u32,
    writer: u32,
    wgen: u32,
    reader: u32,
    rgen: u32,
    rwarp: u32,
    atomic: u32,
    /// Plain readers in this epoch that have not accessed the byte atomically since their read
    /// (`NONE`, one thread, or `MANY`).
    unvalidated: u32,
    /// The last thread whose atomic access validated its own plain read of the byte (the other
    /// half of its compare-and-swap is judged with that read).
    validator: u32,
}

/// A detected problem; `other` is the linear id of the conflicting thread (or `MANY`).
pub(crate) enum Hazard {
    Race {
        offset: usize,
        other: u32,
        other_access: &'static str,
    },
    Uninit {
        offset: usize,
    },
}

/// A conflict that is legal in a compare-and-swap loop; `other` as in [`Hazard`].
pub(crate) enum Note {
    /// A plain read of a byte another thread accessed atomically in this epoch: a warning if the
    /// reader then accesses the byte atomically, else a race.
    ReadOfAtomic { offset: usize, other: u32 },
    /// An atomic access of a byte other threads read plainly in this epoch, each of them having
    /// accessed it atomically after its read.
    AtomicAfterGuesses { offset: usize, other: u32 },
}

pub(crate) struct Shadow {
    cells: Vec<Cell>,
    /// The current epoch of each block's shared memory (one per block of the cluster): a block
    /// barrier starts a new one for its own block's memory, a cluster barrier for every block's.
    epochs: Vec<u32>,
    /// Bytes of one block's shared memory (the cells of block `r` follow those of `r - 1`).
    region: usize,
    /// The last epoch handed out (epochs are never reused, so a stale cell never matches).
    epoch: u32,
    serial: u32,
    /// Per warp: how many collectives it completed; per thread: the count after its last one.
    warp_gen: Vec<u32>,
    last_sync: Vec<u32>,
}

impl Shadow {
    pub fn new() -> Self {
        Shadow {
            cells: Vec::new(),
            epochs: vec![0],
            region: usize::MAX,
            epoch: 0,
            serial: 0,
            warp_gen: Vec::new(),
            last_sync: Vec::new(),
        }
    }

    /// Forgets everything of the previous cluster (fresh shared memory is uninitialised): `blocks`
    /// blocks of `bytes / blocks` bytes of shared memory each, `threads` threads in all (each
    /// block's a whole number of warps when there are several).
    pub fn start_cluster(&mut self, bytes: usize, threads: usize, blocks: usize) {
        if self.cells.len() < bytes {
            self.cells.resize(bytes, Cell::default());
        }
        self.serial += 1;
        self.epoch += 1;
        self.epochs.clear();
        self.epochs.resize(blocks.max(1), self.epoch);
        self.region = if blocks > 1 {
            (bytes / blocks).max(1)
        } else {
            usize::MAX
        };
        self.warp_gen.clear();
        self.warp_gen.resize(threads.div_ceil(32), 0);
        self.last_sync.clear();
        self.last_sync.resize(threads, 0);
    }

    /// A barrier of the whole cluster (of the block, without clusters).
    pub fn barrier(&mut self) {
        self.epoch += 1;
        let e = self.epoch;
        self.epochs.iter_mut().for_each(|x| *x = e);
    }

    /// A barrier of block `rank` alone: orders the accesses to its own shared memory (remote
    /// accesses by other blocks to it included, so a race across blocks may go unseen; none is
    /// reported that is not one).
    pub fn block_barrier(&mut self, rank: usize) {
        self.epoch += 1;
        self.epochs[rank] = self.epoch;
    }

    /// Lanes `lanes` (linear ids) of warp `warp` completed a collective together.
    pub fn warp_sync(&mut self, warp: usize, lanes: &[u32]) {
        self.warp_gen[warp] += 1;
        for &t in lanes {
            self.last_sync[t as usize] = self.warp_gen[warp];
        }
    }

    #[inline]
    fn ordered(&self, prev: u32, prev_gen: u32, t: u32) -> bool {
        prev == t || (prev / 32 == t / 32 && self.last_sync[t as usize] > prev_gen)
    }

    #[inline]
    fn fresh(&mut self, off: usize) -> &mut Cell {
        let epoch = match self.epochs.len() {
            1 => self.epochs[0],
            _ => self.epochs[off / self.region],
        };
        let c = &mut self.cells[off];
        if c.epoch != epoch {
            *c = Cell {
                epoch,
                init: c.init,
                writer: NONE,
                wgen: 0,
                reader: NONE,
                rgen: 0,
                rwarp: NONE,
                atomic: NONE,
                unvalidated: NONE,
                validator: NONE,
            };
        }
        c
    }

    fn readers_ordered(&self, c: &Cell, t: u32) -> bool {
        match c.reader {
            NONE => true,
            MANY => c.rwarp == t / 32 && self.last_sync[t as usize] > c.rgen,
            r => self.ordered(r, c.rgen, t),
        }
    }

    /// A plain read by thread `t`. A read of a byte not written in this block is recorded like any
    /// other, then reported as `Hazard::Uninit`.
    pub fn read(&mut self, start: usize, len: usize, t: u32) -> Result<Option<Note>, Hazard> {
        let gen = self.warp_gen[t as usize / 32];
        let mut note = None;
        let mut uninit = None;
        for off in start..start + len {
            let c = *self.fresh(off);
            if c.writer != NONE && !self.ordered(c.writer, c.wgen, t) {
                return Err(race(off, c.writer, "a write"));
            }
            if c.atomic != NONE && c.atomic != t && note.is_none() {
                note = Some(Note::ReadOfAtomic {
                    offset: off,
                    other: c.atomic,
                });
            }
            if c.init != self.serial && uninit.is_none() {
                uninit = Some(off);
            }
            let c = &mut self.cells[off];
            match c.reader {
                NONE => {
                    c.reader = t;
                    c.rwarp = t / 32;
                    c.rgen = gen;
                }
                r => {
                    if r != t {
                        c.reader = MANY;
                        if c.rwarp != t / 32 {
                            c.rwarp = MANY;
                        }
                    }
                    c.rgen = c.rgen.max(gen);
                }
            }
            c.unvalidated = merge(c.unvalidated, t);
        }
        match uninit {
            Some(offset) => Err(Hazard::Uninit { offset }),
            None => Ok(note),
        }
    }

    pub fn write(&mut self, start: usize, len: usize, t: u32) -> Result<(), Hazard> {
        let gen = self.warp_gen[t as usize / 32];
        let serial = self.serial;
        for off in start..start + len {
            let c = *self.fresh(off);
            if c.writer != NONE && !self.ordered(c.writer, c.wgen, t) {
                return Err(race(off, c.writer, "a write"));
            }
            if !self.readers_ordered(&c, t) {
                return Err(race(off, c.reader, "a read"));
            }
            if c.atomic != NONE && c.atomic != t {
                return Err(race(off, c.atomic, "an atomic access"));
            }
            let c = &mut self.cells[off];
            c.writer = t;
            c.wgen = gen;
            c.init = serial;
        }
        Ok(())
    }

    /// An atomic read-modify-write (or atomic load/store): races only with plain writes, and with
    /// plain reads of threads that did not access the byte atomically after reading it. When it
    /// reads, a byte not written in this block is recorded, then reported as `Hazard::Uninit`.
    pub fn atomic(
        &mut self,
        start: usize,
        len: usize,
        t: u32,
        reads: bool,
    ) -> Result<Option<Note>, Hazard> {
        let serial = self.serial;
        let mut note = None;
        let mut uninit = None;
        for off in start..start + len {
            if reads && self.cells[off].init != serial && uninit.is_none() {
                uninit = Some(off);
            }
            let mut c = *self.fresh(off);
            if c.writer != NONE && !self.ordered(c.writer, c.wgen, t) {
                return Err(race(off, c.writer, "a write"));
            }
            // This access validates the thread's own earlier plain read (a CAS loop's guess), whose
            // conflicts the scheduler reports at that read.
            let own_guess = c.unvalidated == t || c.validator == t;
            if c.unvalidated == t {
                c.unvalidated = NONE;
            }
            if !self.readers_ordered(&c, t) {
                if c.unvalidated != NONE {
                    return Err(race(off, c.unvalidated, "a read"));
                }
                if !own_guess && note.is_none() {
                    note = Some(Note::AtomicAfterGuesses {
                        offset: off,
                        other: c.reader,
                    });
                }
            }
            let c = &mut self.cells[off];
            if c.unvalidated == t {
                c.unvalidated = NONE;
                c.validator = t;
            }
            c.atomic = match c.atomic {
                NONE => t,
                a if a == t => t,
                _ => MANY,
            };
            c.init = serial;
        }
        match uninit {
            Some(offset) => Err(Hazard::Uninit { offset }),
            None => Ok(note),
        }
    }
}

/// Adds thread `t` to a one-thread-or-`MANY` set.
fn merge(set: u32, t: u32) -> u32 {
    match set {
        NONE => t,
        s if s == t => t,
        _ => MANY,
    }
}

fn race(offset: usize, other: u32, other_access: &'static str) -> Hazard {
    Hazard::Race {
        offset,
        other,
        other_access,
    }
}
