//! Where mem2reg's real on-the-fly SSA builder plugs in: [`measure_ours`] will replay the script
//! into it (a second implementation of [`crate::frontend::FrontEnd`]) the way
//! [`crate::cranelift_side::CraneliftTimer`] does for cranelift. Until then it reports nothing,
//! and the `peer` binary prints `-` in the "ours" column. The recording stub
//! ([`crate::recording_stub`]) is *not* ours and is never timed here.

use crate::measure::{Policy, Sample};
use crate::script::Script;

/// Times mem2reg's builder on `script`; `None` while that builder does not exist yet.
pub fn measure_ours(_script: &Script, _policy: &Policy) -> Option<Sample> {
    None
}
