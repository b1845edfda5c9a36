//! A fixed threshold for glibc's `malloc` to serve large blocks with their own `mmap`, for a
//! program (the `mem2reg` command) whose peak memory is a few huge buffers.
//!
//! glibc starts at 128 KiB and, each time a block it mapped is freed, raises the threshold to
//! that block's size (up to 32 MiB). After one huge function has freed a buffer of 20 MiB,
//! later buffers of up to 20 MiB come from the heap instead, and a freed one stays in the
//! process unless it happens to lie at the heap's top. On gen_scale.py nest 16000 (one
//! function, 1.6 million new phis, 118 MiB of output) that kept about 60 MiB of freed pass
//! buffers in the process while the function was printed. Peak RSS (`/usr/bin/time`, default
//! threads, the same build with and without this call, three alternated runs each): nest
//! 16000 405 MB -> 340 MB, nest 4000 133 MB -> 104 MB; page faults 7-10% more there (big
//! buffers are now mapped afresh each time). sqlite3 -O0 -g: 59-61 MB and 0.33-0.39 s
//! either way: its buffers are reused from function to function, so few are mapped at all.
//!
//! Invariant: this only tunes where the allocator gets memory from; it changes no block
//! already handed out, and every block stays valid until freed.

/// Blocks of at least this many bytes get their own mapping, returned to the system when
/// freed (a fixed value also turns off glibc's moving threshold).
pub const MMAP_THRESHOLD: usize = 1 << 20;

/// Fixes glibc's mmap threshold at [`MMAP_THRESHOLD`] for the whole process. Call it first
/// thing in `main`, before any thread starts: it is a setting of the process, not for a
/// library embedded in someone else's. Does nothing off glibc.
pub fn fix_mmap_threshold() {
    sys::fix(MMAP_THRESHOLD);
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod sys {
    /// `M_MMAP_THRESHOLD` of glibc's `<malloc.h>`.
    const M_MMAP_THRESHOLD: core::ffi::c_int = -3;

    extern "C" {
        fn mallopt(param: core::ffi::c_int, value: core::ffi::c_int) -> core::ffi::c_int;
    }

    pub fn fix(bytes: usize) {
        let value = core::ffi::c_int::try_from(bytes).unwrap_or(core::ffi::c_int::MAX);
        // SAFETY: `mallopt` takes two integers by value and touches no memory of ours; glibc
        // serialises it against other allocator calls with its arena lock, and
        // M_MMAP_THRESHOLD only decides how later requests are served (values above glibc's
        // maximum are refused with a return of 0, leaving the setting as it was, so the
        // result needs no handling).
        unsafe {
            mallopt(M_MMAP_THRESHOLD, value);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod sys {
    pub fn fix(_: usize) {}
}
