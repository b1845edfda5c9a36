#!/usr/bin/env bash
# Regenerates the pictures in docs/ (shown in README.md) from examples/*.ll with the dot-cfg
# printer pass and Graphviz (Debian: apt-get install graphviz):
#   max-O0.svg          clang's -O0 CFG of tinyoptimizer's blog's `max`      (--passes=dot-cfg)
#   max-mem2reg.svg     the same after mem2reg; the phi row is yellow (--passes=mem2reg,dot-cfg)
#   fib-mem2reg.svg     tinyoptimizer's blog's `fib` (examples/fib.ll) after mem2reg: phis in a loop header
#   swap-mem2reg.svg    examples/swap.ll after mem2reg: two phis swapping in a loop header
#   escape-mem2reg.svg  examples/escape.ll after mem2reg: %i promoted, %total and %flag stay
#
#     docs/render.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --quiet
TOOL=$PWD/target/release/mem2reg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# render PIPELINE INPUT FUNCTION OUTPUT: dot-cfg writes .FUNCTION.dot to the current directory.
render() {
  (cd "$work" && "$TOOL" -passes="$1" -disable-output "$OLDPWD/$2" 2>/dev/null)
  dot -Tsvg "$work/.$3.dot" -o "docs/$4"
  rm -f "$work/.$3.dot"
}
render dot-cfg examples/max.ll max max-O0.svg
render mem2reg,dot-cfg examples/max.ll max max-mem2reg.svg
render mem2reg,dot-cfg examples/fib.ll fib fib-mem2reg.svg
render mem2reg,dot-cfg examples/swap.ll swap_loop swap-mem2reg.svg
render mem2reg,dot-cfg examples/escape.ll sum_to escape-mem2reg.svg
