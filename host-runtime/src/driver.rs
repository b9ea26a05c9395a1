//! The driver's library and result codes, for programs that call the driver themselves: whether
//! `libcuda` is there, its version, and how a `CUresult` reads. The checked calls themselves live
//! in the CUDA backend's result layer.

pub use crate::cuda::error_codes::{error_meaning, error_name, table_entry, ERROR_TABLE};
pub use crate::cuda::library::driver_present;
pub use crate::cuda::result::{check, driver_error, driver_version, init};
pub use cudarc::driver::sys;
