// A no_std program (printf from the C library, so lli can run it): integer loops, a
// xorshift generator, insertion sort, gcd, an integer square root, Option and match.
#![no_std]
#![no_main]
use core::panic::PanicInfo;
extern "C" { fn printf(fmt: *const u8, ...) -> i32; fn abort() -> !; }
#[panic_handler] fn panic(_: &PanicInfo) -> ! { unsafe { abort() } }
fn collatz(mut n: u64) -> u32 { let mut steps = 0; while n != 1 { n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 }; steps += 1; } steps }
fn gcd(mut a: u64, mut b: u64) -> u64 { while b != 0 { let t = a % b; a = b; b = t; } a }
fn isqrt(x: u64) -> u64 { let mut lo = 0u64; let mut hi = x + 1; while hi - lo > 1 { let mid = lo + (hi - lo) / 2; if mid.checked_mul(mid).map_or(false, |m| m <= x) { lo = mid } else { hi = mid } } lo }
struct Rng(u64);
impl Rng { fn next(&mut self) -> u64 { self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17; self.0 } }
fn sort(v: &mut [u32]) { let n = v.len(); for i in 0..n { let mut j = i; while j > 0 && v[j - 1] > v[j] { v.swap(j - 1, j); j -= 1; } } }
fn classify(x: i32) -> &'static [u8] { match x { i32::MIN..=-1 => b"neg\0", 0 => b"zero\0", 1..=9 => b"small\0", _ => b"big\0" } }
#[no_mangle]
pub extern "C" fn main() -> i32 {
    let mut best = (0u64, 0u32);
    let mut i = 1u64;
    while i < 3000 { let s = collatz(i); if s > best.1 { best = (i, s); } i += 1; }
    let mut r = Rng(88172645463325252);
    let mut arr = [0u32; 64];
    for k in 0..64 { arr[k] = (r.next() % 1000) as u32; }
    sort(&mut arr);
    let mut acc: u64 = 0;
    for k in 0..64 { acc = acc.wrapping_mul(31).wrapping_add(arr[k] as u64); }
    let mut g = 0u64; for k in 1..200u64 { g += gcd(k * 12, 360); }
    let opt: Option<u64> = if acc % 2 == 0 { Some(acc) } else { None };
    let val = match opt { Some(v) => v / 3, None => 7 };
    let mut cnt = [0i32; 4];
    for x in -20..40 { let c = classify(x); cnt[(c[0] % 4) as usize] += 1; }
    unsafe { printf(b"%llu %u %llu %llu %llu %llu %d %d %d %d %s\n\0".as_ptr(), best.0, best.1, acc, g, isqrt(acc), val, cnt[0], cnt[1], cnt[2], cnt[3], classify(5).as_ptr()); }
    0
}
