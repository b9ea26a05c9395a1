//! Items that only macro-generated code names (through `__private`). Each turns a mistake that
//! rustc would otherwise report in terms of the generated code (a module that is not found, a
//! trait the user never heard of) into a message at the user's line that says what to do.
//!
//! The functions are generic over their result so that the failing bound is only checked where
//! the generated code uses them, and it then points at the user's tokens.

use kernel_ir::ast::{ConstValue, IntoConstValue};

/// Implemented by nothing: a call in device code whose callee has no companion module (a plain
/// fn, a std function) resolves to [`not_a_device_fn`] and fails here.
#[diagnostic::on_unimplemented(
    message = "only `#[device]` functions and ferrocuda intrinsics can be called in device code",
    label = "not a `#[device]` function",
    note = "mark the function `#[device]` (its body must then be device code too); host functions \
            such as those of `std` cannot run on the GPU"
)]
pub trait DeviceFn<R> {}

/// What a callee without a companion module is, for [`DeviceFn`]'s message.
pub struct HostFn;

/// The callable of a name that is not a `#[device]` fn: a compile error wherever it is used.
pub fn not_a_device_fn<R>() -> R
where
    HostFn: DeviceFn<R>,
{
    unreachable!("no type implements DeviceFn")
}

/// Implemented by nothing: the builder of a `#[kernel]` / `#[device]` fn declared inside a
/// function body is not visible to its companion module, which then finds this instead.
#[diagnostic::on_unimplemented(
    message = "`#[kernel]` and `#[device]` functions must be declared at module level, not inside \
               a function body",
    label = "declared inside a function body",
    note = "move the function (and what it uses) out of the enclosing function, e.g. into a module"
)]
pub trait ModuleLevel<R> {}

/// What a kernel inside a function body is, for [`ModuleLevel`]'s message.
pub struct InsideFnBody;

/// Stands in for the builder of a kernel declared inside a function body.
pub fn declare_at_module_level<R>() -> R
where
    InsideFnBody: ModuleLevel<R>,
{
    unreachable!("no type implements ModuleLevel")
}

/// A host value that device code may read as a constant (module `const`s, `f32::MAX`...).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used as a value in device code",
    label = "not a number, `bool` or array of them",
    note = "device code reads host constants of integer, float and `bool` types and arrays of \
            them; enums, `Option`, strings and structs do not exist on the device (use integer \
            constants such as `const RED: u32 = 0;`)"
)]
pub trait DeviceConst {
    fn device_const(self) -> ConstValue;
}

#[diagnostic::do_not_recommend]
impl<T: IntoConstValue> DeviceConst for T {
    fn device_const(self) -> ConstValue {
        self.into_const_value()
    }
}

/// The value of a host constant named in device code.
pub fn const_value<T: DeviceConst>(v: T) -> ConstValue {
    v.device_const()
}
