// A no_std program (printf from the C library, so lli can run it): f64 loops, bools, chars,
// u128, an enum state machine, early returns and labeled breaks.
#![no_std]
#![no_main]
use core::panic::PanicInfo;
extern "C" {
    fn printf(fmt: *const u8, ...) -> i32;
    fn abort() -> !;
}
#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    unsafe { abort() }
}

#[derive(Clone, Copy, PartialEq)]
enum State { Start, Digits(u32), Done(u32), Error }

fn step(s: State, c: u8) -> State {
    match (s, c) {
        (State::Start, b'0'..=b'9') => State::Digits((c - b'0') as u32),
        (State::Digits(n), b'0'..=b'9') => State::Digits(n * 10 + (c - b'0') as u32),
        (State::Digits(n), b';') => State::Done(n),
        (State::Done(n), _) => State::Done(n),
        _ => State::Error,
    }
}

fn parse(text: &[u8]) -> i64 {
    let mut s = State::Start;
    for &c in text {
        s = step(s, c);
        if s == State::Error {
            return -1;
        }
    }
    match s { State::Done(n) => n as i64, State::Digits(n) => n as i64 + 1_000_000, _ => -2 }
}

fn newton_sqrt(x: f64) -> f64 {
    let mut g = x / 2.0;
    let mut i = 0;
    while i < 40 {
        let next = 0.5 * (g + x / g);
        if (next - g).abs() < 1e-12 { break; }
        g = next;
        i += 1;
    }
    g
}

fn primes_below(n: u32) -> u32 {
    let mut count = 0;
    'outer: for k in 2..n {
        let mut d = 2;
        while d * d <= k {
            if k % d == 0 { continue 'outer; }
            d += 1;
        }
        count += 1;
    }
    count
}

fn fib128(n: u32) -> u128 {
    let (mut a, mut b) = (0u128, 1u128);
    for _ in 0..n { let t = a + b; a = b; b = t; }
    a
}

fn vowels(text: &[u8]) -> (u32, bool) {
    let mut n = 0;
    let mut saw_z = false;
    for &c in text {
        let ch = c as char;
        let is_vowel = matches!(ch.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u');
        if is_vowel { n += 1; }
        saw_z |= ch == 'z';
    }
    (n, saw_z)
}

#[no_mangle]
pub extern "C" fn main() -> i32 {
    let a = parse(b"12345;");
    let b = parse(b"987");
    let c = parse(b"12x;");
    let mut sum = 0.0f64;
    let mut k = 1.0f64;
    while k < 100.0 { sum += newton_sqrt(k); k += 1.5; }
    let f = fib128(150);
    let (nv, z) = vowels(b"A quick brown fox jumps over the lazy dog");
    unsafe {
        printf(b"%lld %lld %lld %.6f %u %llu %llu %u %d\n\0".as_ptr(), a, b, c, sum,
               primes_below(2000), (f >> 64) as u64, f as u64, nv, z as i32);
    }
    0
}
