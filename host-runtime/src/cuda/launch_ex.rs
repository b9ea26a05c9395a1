//! Launches with attributes (`cuLaunchKernelEx`): a run-time cluster shape, programmatic
//! dependent launch, an L2 access policy window and cooperative launch, and the cluster occupancy queries, which take the same `CUlaunchConfig`.
//!
//! The attributes live on the stack (at most five), so the path allocates nothing; the function's
//! non-portable cluster opt-in is raised once and remembered, as the dynamic shared memory one is.

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use cudarc::driver::sys::{
    CUaccessPolicyWindow, CUaccessProperty, CUfunction_attribute, CUlaunchAttribute,
    CUlaunchAttributeID, CUlaunchAttributeValue, CUlaunchConfig, CUstream,
};

use super::module::CudaFunction;
use super::result;
use crate::access_policy::{AccessPolicyWindow, AccessProperty};
use crate::launch_cluster::effective_cluster;
use crate::launch_config::LaunchConfig;
use crate::Result;

/// The attributes of one launch, with the count in use.
pub(super) struct Attrs {
    list: [CUlaunchAttribute; 5],
    n: u32,
}

impl Attrs {
    /// The attributes `cfg` asks for. A compile-time cluster shape (`.reqnctapercluster`) needs
    /// none: the driver takes it from the function, and a repeated one must match it anyway.
    pub(super) fn of(cfg: &LaunchConfig) -> Attrs {
        // SAFETY: an all-zero attribute is a valid (ignored) value of these plain C structs.
        let blank: CUlaunchAttribute = unsafe { std::mem::zeroed() };
        let mut a = Attrs {
            list: [blank; 5],
            n: 0,
        };
        if let Some(c) = cfg.attrs.cluster {
            // SAFETY: as above; `clusterDim` is the member this id reads.
            let mut value: CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
            value.clusterDim.x = c.x;
            value.clusterDim.y = c.y;
            value.clusterDim.z = c.z;
            a.push(
                CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                value,
            );
        }
        if cfg.attrs.programmatic_serialization {
            // SAFETY: as above.
            let mut value: CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
            value.programmaticStreamSerializationAllowed = 1;
            a.push(
                CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
                value,
            );
        }
        if let Some(w) = &cfg.attrs.access_policy {
            // SAFETY: as above.
            let mut value: CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
            value.accessPolicyWindow = policy_window(w);
            a.push(
                CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW,
                value,
            );
        }
        if let Some(p) = cfg.attrs.priority {
            // SAFETY: as above.
            let mut value: CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
            value.priority = p;
            a.push(CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PRIORITY, value);
        }
        if cfg.attrs.cooperative {
            // SAFETY: as above.
            let mut value: CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
            value.cooperative = 1;
            a.push(CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_COOPERATIVE, value);
        }
        a
    }

    fn push(&mut self, id: CUlaunchAttributeID, value: CUlaunchAttributeValue) {
        let slot = &mut self.list[self.n as usize];
        slot.id = id;
        slot.value = value;
        self.n += 1;
    }

    /// The attributes in use, for a graph kernel node (`cuGraphKernelNodeSetAttribute` each).
    pub(super) fn entries(&self) -> &[CUlaunchAttribute] {
        &self.list[..self.n as usize]
    }

    /// Whether the launch needs `cuLaunchKernelEx` at all.
    pub(super) fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The driver's configuration for `cfg` on stream `s` with these attributes (borrowed: the
    /// configuration must not outlive `self`).
    pub(super) fn config(&mut self, cfg: &LaunchConfig, s: CUstream) -> CUlaunchConfig {
        CUlaunchConfig {
            gridDimX: cfg.grid.x,
            gridDimY: cfg.grid.y,
            gridDimZ: cfg.grid.z,
            blockDimX: cfg.block.x,
            blockDimY: cfg.block.y,
            blockDimZ: cfg.block.z,
            sharedMemBytes: cfg.shared_mem_bytes,
            hStream: s,
            attrs: self.list.as_mut_ptr(),
            numAttrs: self.n,
        }
    }
}

/// The driver's form of a window.
pub(super) fn policy_window(w: &AccessPolicyWindow) -> CUaccessPolicyWindow {
    let prop = |p: AccessProperty| match p {
        AccessProperty::Normal => CUaccessProperty::CU_ACCESS_PROPERTY_NORMAL,
        AccessProperty::Streaming => CUaccessProperty::CU_ACCESS_PROPERTY_STREAMING,
        AccessProperty::Persisting => CUaccessProperty::CU_ACCESS_PROPERTY_PERSISTING,
    };
    CUaccessPolicyWindow {
        base_ptr: w.base as *mut c_void,
        num_bytes: w.num_bytes,
        hitRatio: w.hit_ratio,
        hitProp: prop(w.hit_prop),
        missProp: prop(w.miss_prop),
    }
}

impl CudaFunction {
    /// Raises `CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED` once, when a launch opted in
    /// to a cluster of more than 8 blocks.
    pub(super) fn allow_cluster_size(&self, cfg: &LaunchConfig) -> Result<()> {
        let big = effective_cluster(cfg, self.limits.required_cluster)
            .is_some_and(|c| c.iter().map(|&v| u64::from(v)).product::<u64>() > 8);
        if !big || self.non_portable_cluster.load(Ordering::Relaxed) {
            return Ok(());
        }
        let a = CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED;
        // SAFETY: a live function of the current context.
        unsafe { result::func_set_attribute(self.raw, a, 1)? };
        self.non_portable_cluster.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// `cuLaunchKernelEx` with `attrs` on stream `s`.
    ///
    /// # Safety
    /// As for `LoadedKernel::launch`: `args` match the kernel's parameters.
    pub(super) unsafe fn launch_ex(
        &self,
        cfg: &LaunchConfig,
        attrs: &mut Attrs,
        s: CUstream,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        let config = attrs.config(cfg, s);
        // SAFETY: the caller's contract; `config` points into `attrs`, alive for the call.
        unsafe { result::launch_kernel_ex(self.raw, &config, args) }
    }

    /// Prepares the occupancy queries: the function's context, its opt-ins for `cfg`.
    fn cluster_query(&self, cfg: &LaunchConfig) -> Result<Attrs> {
        self.module.core.enter(self.generation)?;
        if cfg.shared_mem_bytes > self.dyn_shared_limit.load(Ordering::Relaxed) {
            self.raise_dynamic_shared(cfg.shared_mem_bytes)?;
        }
        self.allow_cluster_size(cfg)?;
        Ok(Attrs::of(cfg))
    }

    /// `cuOccupancyMaxActiveClusters`: how many clusters of `cfg`'s shape fit on the device at
    /// once (0: none can run, so such a launch would fail).
    pub(crate) fn max_active_clusters(&self, cfg: &LaunchConfig) -> Result<u32> {
        let mut attrs = self.cluster_query(cfg)?;
        let config = attrs.config(cfg, std::ptr::null_mut());
        // SAFETY: a live function; `config` points into `attrs`.
        unsafe { result::occupancy_max_active_clusters(self.raw, &config) }
    }

    /// `cuOccupancyMaxPotentialClusterSize`: the largest cluster `cfg`'s grid, block and shared
    /// memory allow for this function (16 only after the non-portable opt-in).
    pub(crate) fn max_potential_cluster_size(&self, cfg: &LaunchConfig) -> Result<u32> {
        let mut attrs = self.cluster_query(cfg)?;
        let config = attrs.config(cfg, std::ptr::null_mut());
        // SAFETY: as above.
        unsafe { result::occupancy_max_potential_cluster_size(self.raw, &config) }
    }
}

impl CudaFunction {
    /// The launch checks a query's configuration must pass (a cluster query on an sm_80 device
    /// is the same mistake as such a launch).
    pub(crate) fn validate_for_query(&self, cfg: &LaunchConfig) -> Result<()> {
        Ok(crate::launch::validate(
            cfg,
            &self.module.core.limits,
            &self.limits,
        )?)
    }
}
