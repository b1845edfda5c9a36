//! Fuzz target `parse`: arbitrary bytes into the reader. The reader must never panic; when it
//! reads the input, the printed module must read again, print the same text again, and
//! printing one module twice must give identical text (no hash-map order in the output).

#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use mem2reg::text::{parser, print_module};
use mem2reg::Threads;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = parser::parse_with(Arc::from(data), Threads::ONE) else {
        return;
    };
    let once = print_module(&m, Threads::ONE);
    assert_eq!(once, print_module(&m, Threads::ONE), "printing twice differs");
    let again = match parser::parse_with(Arc::from(once.clone()), Threads::ONE) {
        Ok(m) => m,
        Err(e) => panic!(
            "printed module does not read: {}\n{}",
            e.render("printed.ll"),
            String::from_utf8_lossy(&once)
        ),
    };
    let twice = print_module(&again, Threads::ONE);
    assert!(
        once == twice,
        "printing the re-read module differs:\n--- first\n{}\n--- second\n{}",
        String::from_utf8_lossy(&once),
        String::from_utf8_lossy(&twice)
    );
});
