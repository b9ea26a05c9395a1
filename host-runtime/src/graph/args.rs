//! What kernel nodes take for slice parameters, and the handle that lets several nodes of a
//! graph use one buffer they write.
//!
//! A launch borrows its buffers for the call; a node borrows them for the graph's lifetime
//! `'g`. Shared borrows may repeat (`&x` in many nodes), but a buffer written by several nodes
//! cannot be `&mut`-borrowed for `'g` twice, so it is lent to the graph once, as a
//! [`GraphMut`], and each node takes that handle: `&mut h` where the node writes, `&h` where it
//! reads. One node cannot take the handle both ways (the borrow checker refuses `&h` beside
//! `&mut h`), and nodes that use the same memory unordered (one writing) are refused when the
//! second is added ([`crate::GraphError::UnorderedConflict`]), as the use tracking orders streams.
//! Owned buffers (`'static` types) never satisfy these traits by themselves, so nothing a graph
//! uses can be borrowed for less than the graph lives.

use std::marker::PhantomData;

use kernel_std::api::DeviceType;

use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::{
    DeviceBuffer, DeviceView, DeviceViewMut, ManagedBuffer, PitchedBuffer, Result, Stream,
};

/// A buffer (or view) lent to graphs for `'g`: exclusively, and usable by many nodes.
pub struct GraphMut<'g, S: ?Sized> {
    inner: *mut S,
    _borrow: PhantomData<&'g mut S>,
}

// SAFETY: as `&'g mut S`.
unsafe impl<S: ?Sized + Send> Send for GraphMut<'_, S> {}
unsafe impl<S: ?Sized + Sync> Sync for GraphMut<'_, S> {}

impl<'g, S: ?Sized> GraphMut<'g, S> {
    /// Lends `inner` to graphs for `'g`.
    pub fn new(inner: &'g mut S) -> Self {
        GraphMut {
            inner,
            _borrow: PhantomData,
        }
    }

    /// The lent value.
    pub fn get(&self) -> &S {
        // SAFETY: the handle holds the exclusive borrow; this shares it for `&self`.
        unsafe { &*self.inner }
    }

    /// The lent value, exclusively for `&mut self`.
    pub fn get_mut(&mut self) -> &mut S {
        // SAFETY: as above, exclusively.
        unsafe { &mut *self.inner }
    }
}

/// A kernel node's `&[T]` argument, borrowed for the graph's lifetime `'g`: `&buf` of a
/// buffer that outlives the graph, a view, or `&handle` of a [`GraphMut`].
///
/// # Safety
/// As for [`KernelSlice`]: `graph_arg` returns memory of `stream`'s device that stays allocated
/// for `'g`, recording the read on `stream`.
pub unsafe trait GraphArg<'g, T> {
    /// The checked `{ ptr, len }` pair; records the read on the (recording) stream.
    fn graph_arg(&self, stream: &Stream) -> Result<SliceArg>;
}

/// A kernel node's `&mut [T]` argument: `&mut buf` of a buffer borrowed exclusively for `'g`
/// (one node writes it), `&mut handle` of a [`GraphMut`] (several nodes use it), or a mutable
/// view borrowed for `'g`.
///
/// # Safety
/// As for [`KernelSliceMut`], for `'g`.
pub unsafe trait GraphArgMut<'g, T> {
    /// The checked pair; records the write on the (recording) stream.
    fn graph_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg>;
}

macro_rules! shared_for_g {
    ($($ty:ident),*) => {$(
        // SAFETY: the reference lives for 'g; `launch_arg` checks and records.
        unsafe impl<'g, T: DeviceType> GraphArg<'g, T> for &'g $ty<T> {
            fn graph_arg(&self, stream: &Stream) -> Result<SliceArg> {
                (**self).launch_arg(stream)
            }
        }
    )*};
}

shared_for_g!(DeviceBuffer, ManagedBuffer, PitchedBuffer);

// SAFETY: the view's borrow lives for 'g.
unsafe impl<'v: 'g, 'g, T: DeviceType> GraphArg<'g, T> for DeviceView<'v, T> {
    fn graph_arg(&self, stream: &Stream) -> Result<SliceArg> {
        self.launch_arg(stream)
    }
}

// SAFETY: the handle's borrow lives for 'g; the use is recorded as a read.
unsafe impl<'g, T, S: KernelSliceMut<T> + ?Sized> GraphArg<'g, T> for &GraphMut<'g, S> {
    fn graph_arg(&self, stream: &Stream) -> Result<SliceArg> {
        stream.record_as_reads(true);
        // SAFETY: the handle is the only path to `S` (it holds the exclusive borrow), and no
        // `&mut` of it is alive while `&self` is.
        let r = unsafe { (*self.inner).launch_arg_mut(stream) };
        stream.record_as_reads(false);
        r
    }
}

// SAFETY: as above, exclusively.
unsafe impl<'g, T, S: KernelSliceMut<T> + ?Sized> GraphArgMut<'g, T> for &mut GraphMut<'g, S> {
    fn graph_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        self.get_mut().launch_arg_mut(stream)
    }
}

// SAFETY: the view's borrow lives for 'g.
unsafe impl<'v: 'g, 'g, T: DeviceType> GraphArgMut<'g, T> for DeviceViewMut<'v, T> {
    fn graph_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        self.launch_arg_mut(stream)
    }
}

macro_rules! exclusive_for_g {
    ($($ty:ident),*) => {$(
        // SAFETY: the exclusive reference lives for 'g; `launch_arg_mut` checks and records.
        unsafe impl<'g, T: DeviceType> GraphArgMut<'g, T> for &'g mut $ty<T> {
            fn graph_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
                (**self).launch_arg_mut(stream)
            }
        }
    )*};
}

exclusive_for_g!(DeviceBuffer, ManagedBuffer, PitchedBuffer);

/// A copy or memset node's destination buffer, borrowed exclusively for `'g`: `&mut buf` or
/// `&mut handle`.
pub trait GraphDst<'g, T: DeviceType> {
    /// The buffer.
    fn dst(&mut self) -> &DeviceBuffer<T>;
}

impl<'g, T: DeviceType> GraphDst<'g, T> for &'g mut DeviceBuffer<T> {
    fn dst(&mut self) -> &DeviceBuffer<T> {
        self
    }
}

impl<'g, T: DeviceType> GraphDst<'g, T> for &mut GraphMut<'g, DeviceBuffer<T>> {
    fn dst(&mut self) -> &DeviceBuffer<T> {
        self.get()
    }
}

/// A copy node's source buffer, borrowed for `'g`: `&buf` or `&handle`.
pub trait GraphSrc<'g, T: DeviceType> {
    /// The buffer.
    fn src(&self) -> &DeviceBuffer<T>;
}

impl<'g, T: DeviceType> GraphSrc<'g, T> for &'g DeviceBuffer<T> {
    fn src(&self) -> &DeviceBuffer<T> {
        self
    }
}

impl<'g, T: DeviceType> GraphSrc<'g, T> for &GraphMut<'g, DeviceBuffer<T>> {
    fn src(&self) -> &DeviceBuffer<T> {
        self.get()
    }
}
