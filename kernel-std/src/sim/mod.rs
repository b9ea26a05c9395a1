//! The simulator: runs optimized IR on the CPU, block by block, detecting races and misuse.
