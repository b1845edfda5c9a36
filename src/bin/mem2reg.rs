//! The `mem2reg` command line (placeholder until the pipeline lands).
fn main() {}
