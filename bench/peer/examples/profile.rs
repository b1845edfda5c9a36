//! Builds one case many times on one side, for a profiler (`valgrind --tool=callgrind`):
//! `profile SIDE SHAPE N REPEAT`, SIDE `ours` or `cranelift`. Prints the total time.

use peer_bench::cranelift_side::CraneliftTimer;
use peer_bench::ours::OursTimer;
use peer_bench::shapes::Shape;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [side, shape, n, repeat] = &args[..] else {
        eprintln!("usage: profile ours|cranelift SHAPE N REPEAT");
        std::process::exit(2);
    };
    let shape = Shape::from_name(shape).expect("a shape");
    let script = shape.script(n.parse().expect("a size"));
    let repeat: usize = repeat.parse().expect("a count");
    let mut total = std::time::Duration::ZERO;
    match side.as_str() {
        "ours" => {
            let mut t = OursTimer::new();
            (0..repeat).for_each(|_| total += t.time_once(&script));
        }
        _ => {
            let mut t = CraneliftTimer::new();
            (0..repeat).for_each(|_| total += t.time_once(&script));
        }
    }
    println!(
        "{side} {} {n}: {:.6} s per build",
        shape.name(),
        total.as_secs_f64() / repeat as f64
    );
}
