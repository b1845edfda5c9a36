/* Rotations across computed gotos (GNU labels as values): the jumps are indirectbr edges,
 * which cannot be split, so phi elimination falls back to copies before the indirectbr into
 * the targets' incoming variables. */
#include <stdio.h>

static unsigned interp(const unsigned char *code, int n) {
  static void *ops[] = {&&op_swap, &&op_rot, &&op_inc, &&op_end};
  unsigned a = 1, b = 2, c = 3;
  int pc = 0;
  goto *ops[code[pc] & 3];
op_swap: { unsigned t = a; a = b; b = t; }
  if (++pc >= n) goto done;
  goto *ops[code[pc] & 3];
op_rot: { unsigned t = a; a = b; b = c; c = t; }
  if (++pc >= n) goto done;
  goto *ops[code[pc] & 3];
op_inc: a = a * 3 + c;
  if (++pc >= n) goto done;
  goto *ops[code[pc] & 3];
op_end:
done:
  return a * 10000u + b * 100u + c;
}

int main(void) {
  unsigned char code[64];
  unsigned h = 0;
  for (int s = 0; s < 20; s++) {
    for (int i = 0; i < 64; i++) code[i] = (unsigned char)((i * 7 + s * 13 + (i >> 2)) % 3);
    code[63] = 3;
    h = h * 33u + interp(code, 64 - s);
  }
  printf("%u\n", h);
  return (int)(h & 127u);
}
