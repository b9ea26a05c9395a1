//! Kernel nodes: what the generated `kernel::node` and `kernel::set_node_params` call.
//!
//! They run the launch path's own steps: the generated code checks and packs each argument with
//! the same `launch_arg` calls a launch makes, on a stream in recording mode (the graph's own),
//! so the same device and context checks apply and the uses land in the graph; then the
//! instantiation is looked up (compiled on a miss) as for a launch, the argument count and the
//! configuration are validated against the device's and the function's limits, and only then
//! does the backend see the node.

use std::ffi::c_void;
use std::sync::Arc;

use super::{Graph, GraphError, GraphExec, GraphNode, NodeKind};
use crate::backend::NodeOp;
use crate::kernel_handle::entry;
use crate::launch::LaunchError;
use crate::launch_api::{GenericsFn, InstanceKey};
use crate::{KernelHandle, LaunchConfig, Result, Stream};

/// The stream a generated `node` passes to `launch_arg`: the graph's own, recording afresh.
pub fn graph_node_stream(graph: &Graph<'_>) -> Stream {
    graph.home.start_recording();
    graph.home.clone()
}

/// The stream a generated `set_node_params` passes to `launch_arg`.
pub fn exec_node_stream(exec: &GraphExec<'_>) -> Stream {
    let home = &exec.keep.homes[0];
    home.start_recording();
    home.clone()
}

fn function_id(k: &Arc<dyn crate::backend::LoadedKernel>) -> usize {
    Arc::as_ptr(k) as *const () as usize
}

/// Adds a kernel node running one instantiation of `kernel` with `cfg` after `deps`. `args`
/// holds one pointer per user parameter, packed by the generated code from the typed signature
/// (with [`graph_node_stream`] as the stream).
pub fn add_kernel_node(
    graph: &mut Graph<'_>,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    cfg: LaunchConfig,
    deps: &[GraphNode],
    args: &mut [*mut c_void],
) -> Result<GraphNode> {
    let uses = graph.home.take_recorded();
    let b = cfg.block;
    let e = entry(&graph.device, kernel, key, generics, Some([b.x, b.y, b.z]))?;
    if args.len() != e.param_count {
        return Err(LaunchError::ArgCount {
            expected: e.param_count,
            got: args.len(),
        }
        .into());
    }
    e.kernel.validate(&cfg)?;
    if cfg.attrs.cooperative {
        return Err(crate::launch::LaunchError::CooperativeInGraph.into());
    }
    refuse_attrs(&cfg)?;
    let kind = NodeKind::Kernel {
        function: function_id(&e.kernel),
        attrs: cfg.attrs,
    };
    let slot = graph.home.ops().panic_slot();
    let op = NodeOp::Kernel {
        kernel: &e.kernel,
        cfg: &cfg,
        args,
        slot,
    };
    // SAFETY: the argument count matches and the generated code built each pointer from the
    // typed signature; the memory is borrowed for the graph's lifetime.
    unsafe { graph.push(op, kind, deps, uses) }
}

/// New arguments and configuration for kernel node `node` of `exec` (a node of the graph it was
/// instantiated from, running the same kernel: [`GraphError::NotThisKernel`] otherwise). The
/// next launch uses them.
#[allow(clippy::too_many_arguments)]
pub fn set_kernel_node_params(
    exec: &mut GraphExec<'_>,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    cfg: LaunchConfig,
    node: GraphNode,
    args: &mut [*mut c_void],
) -> Result<()> {
    let uses = exec.keep.homes[0].take_recorded();
    if node.graph != exec.graph || node.index >= exec.kinds.len() {
        return Err(GraphError::ForeignNode { node: node.index }.into());
    }
    let b = cfg.block;
    let e = entry(&exec.device, kernel, key, generics, Some([b.x, b.y, b.z]))?;
    if args.len() != e.param_count {
        return Err(LaunchError::ArgCount {
            expected: e.param_count,
            got: args.len(),
        }
        .into());
    }
    e.kernel.validate(&cfg)?;
    if cfg.attrs.cooperative {
        return Err(crate::launch::LaunchError::CooperativeInGraph.into());
    }
    refuse_attrs(&cfg)?;
    let function = function_id(&e.kernel);
    match exec.kinds[node.index] {
        NodeKind::Kernel { function: f, attrs } if f == function => {
            if attrs != cfg.attrs {
                return Err(crate::Error::Unsupported(
                    "new launch attributes through set_node_params (a kernel node keeps the ones \
                     it was added with; build the graph again and `update` the exec)",
                ));
            }
        }
        _ => return Err(GraphError::NotThisKernel { node: node.index }.into()),
    }
    let slot = exec.keep.homes[0].ops().panic_slot();
    // SAFETY: as for `add_kernel_node`; the memory is borrowed for the exec's lifetime.
    unsafe { exec.ops.set_kernel_params(node.index, &cfg, args, slot)? };
    exec.uses.set(Some(node.index), uses);
    Ok(())
}

/// A kernel node carries a cluster shape, an access policy window and a priority
/// (`cuGraphKernelNodeSetAttribute`); programmatic dependent launch would be an edge property
/// (programmatic edges), not yet built: refused rather than dropped. (Cooperative launches are
/// refused with their own error before this.)
fn refuse_attrs(cfg: &LaunchConfig) -> Result<()> {
    if cfg.attrs.programmatic_serialization {
        return Err(crate::Error::Unsupported(
            "programmatic_stream_serialization on graph kernel nodes (programmatic edges)",
        ));
    }
    Ok(())
}
