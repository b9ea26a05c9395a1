//! Optimization passes over the IR, run in a fixed order by [`optimize`].

use crate::compile::CompileOptions;
use crate::ir::Kernel;

pub fn optimize(_kernel: &mut Kernel, _opts: &CompileOptions) {}
