#!/usr/bin/env bash
# Regenerates every examples/NAME.ll from examples/NAME.c with clang-19, as clang -O0 writes it
# for opt: no optnone (so passes run), value names kept (%a.addr, %result), no ident string.
# Nothing else is stripped: the .ll files are clang's output as is.
#
#     examples/regen.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for c in *.c; do
  clang-19 -O0 -Xclang -disable-O0-optnone -fno-discard-value-names -fno-ident \
    -S -emit-llvm "$c" -o "${c%.c}.ll"
done
