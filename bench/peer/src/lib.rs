//! peer-bench: measures cranelift-frontend's on-the-fly SSA construction (the peer) against
//! mem2reg's own builder ("ours", plugged in later) on the same front-end workloads.
//!
//! A workload is a [`script::Script`]: a list of front-end [`script::Op`]s (create/switch/seal
//! block, declare/def/use variable, a few instructions and terminators), made untimed by a
//! generator per shape ([`shapes`]) and replayed, timed, into any implementation of
//! [`frontend::FrontEnd`]. [`cranelift_side`] is the cranelift implementation;
//! [`recording_stub`] is a test double that only records (it is not ours and is never reported).
//! The `peer` binary prints one line per case and the growth per 4x N per shape.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod cranelift_side;
pub mod frontend;
pub mod measure;
pub mod ours;
pub mod recording_stub;
pub mod report;
pub mod script;
pub mod shapes;
pub mod validate;
