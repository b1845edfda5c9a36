//! Transparent huge pages for a large table that is touched at random (Linux `madvise`).
//!
//! The reader's name table (`llvm-reader`'s `NameMap`) is one such table: a body
//! of millions of names has a slot table of tens of megabytes, and each new name lands on a
//! slot at random. With 4 KiB pages nearly every such touch also misses the TLB, and the
//! reader's prefetch of the slot then waits for a page walk. Debian leaves huge pages to
//! `madvise` (`/sys/kernel/mm/transparent_hugepage/enabled` = `madvise`), so a table gets them
//! only when asked. Measured on gen_scale.py chain (`/tmp/stage.py`-style: `--time-passes
//! --threads 1`, median of 5 alternating runs, the same build with and without the advice):
//! N = 16000 (3.2 million names, a 64 MiB table) read bodies 2.036 -> 1.806 s, whole run
//! 3.13 -> 2.95 s; N = 4000: read 0.456 -> 0.439 s. Advising every large allocation instead
//! (a global allocator) was tried and was slower: short-lived and sparsely used buffers then
//! cost a zeroed 2 MiB page each time they are touched.
//!
//! Invariant: this only gives advice about whole pages inside a buffer the caller owns; it
//! never changes what memory holds or who may access it.

/// Buffers smaller than this are left alone (a table this small stays in the TLB's reach).
const MIN_BYTES: usize = 8 << 20;

/// Asks for huge pages under `v`'s buffer (its whole capacity). Best called on a fresh,
/// not yet touched buffer (`vec![0; n]` of a large `n` comes from fresh zeroed pages), so
/// that the pages are huge when first touched. Does nothing below `MIN_BYTES` (8 MiB) or off Linux.
pub fn advise<T>(v: &mut Vec<T>) {
    let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
    if bytes >= MIN_BYTES {
        sys::advise(v.as_mut_ptr().cast(), bytes);
    }
}

/// The largest page-aligned range `[start, end)` inside `[addr, addr + size)` (empty, with
/// `end <= start`, if there is none).
fn inner_pages(addr: usize, size: usize, page: usize) -> (usize, usize) {
    let start = addr.saturating_add(page - 1) & !(page - 1);
    let end = addr.saturating_add(size) & !(page - 1);
    (start, end)
}

#[cfg(target_os = "linux")]
mod sys {
    /// `MADV_HUGEPAGE` of `<linux/mman.h>` (the same on every Linux architecture).
    const MADV_HUGEPAGE: core::ffi::c_int = 14;
    const PAGE: usize = 4096;

    extern "C" {
        fn madvise(
            addr: *mut core::ffi::c_void,
            len: usize,
            advice: core::ffi::c_int,
        ) -> core::ffi::c_int;
    }

    pub fn advise(p: *mut u8, size: usize) {
        let (start, end) = super::inner_pages(p as usize, size, PAGE);
        if end > start {
            // SAFETY: the range is whole pages inside one live buffer the caller owns
            // (`inner_pages` rounds inwards), and MADV_HUGEPAGE is advice: it changes neither
            // the contents nor the accessibility of any memory, only the size of the pages
            // the kernel may back the range with. On failure (EINVAL where the kernel has no
            // transparent huge pages) nothing changed, so the result is ignored.
            unsafe {
                madvise(start as *mut core::ffi::c_void, end - start, MADV_HUGEPAGE);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    pub fn advise(_: *mut u8, _: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_pages_round_inwards() {
        assert_eq!(inner_pages(4096, 8192, 4096), (4096, 12288));
        assert_eq!(inner_pages(4097, 8192, 4096), (8192, 12288));
        let (s, e) = inner_pages(4097, 4000, 4096);
        assert!(e <= s);
        let (s, e) = inner_pages(usize::MAX - 10, 100, 4096);
        assert!(e <= s);
    }

    #[test]
    fn advised_buffers_keep_their_contents() {
        let mut v = vec![0u64; MIN_BYTES / 8 + 1000];
        advise(&mut v);
        assert!(v.iter().all(|&x| x == 0));
        for (i, x) in v.iter_mut().enumerate().step_by(4099) {
            *x = i as u64;
        }
        let mut small = vec![7u8; 100];
        advise(&mut small);
        assert_eq!(small, [7; 100]);
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &x)| x == if i % 4099 == 0 { i as u64 } else { 0 }));
    }
}
