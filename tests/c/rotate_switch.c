/* Rotations and swaps chosen by a switch inside a loop: after mem2reg the loop header's phis
 * get one entry per switch case that jumps back (critical edges out of a switch, some cases
 * sharing a destination), and the values stay live after the loop (the lost-copy problem). */
#include <stdio.h>

static unsigned dispatch(unsigned n, unsigned seed) {
  unsigned a = 1, b = 2, c = 3, d = 4;
  unsigned s = seed;
  for (unsigned i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    unsigned t;
    switch ((s >> 16) % 7) {
    case 0: t = a; a = b; b = t; break;                   /* swap a b */
    case 1: t = a; a = b; b = c; c = t; break;            /* rotate a b c */
    case 2:
    case 3: t = d; d = c; c = b; b = a; a = t; break;     /* rotate right, two cases */
    case 4: a = b; b = c; c = d; break;                   /* chain, no cycle */
    case 5: t = a; a = c; c = t; t = b; b = d; d = t; break; /* two swaps */
    default: a += i; continue;
    }
    if (a > 1000000u) break;
  }
  return a * 1000u + b * 100u + c * 10u + d;
}

static int state_machine(int n) {
  int x = 0, y = 1, z = 2, st = 0;
  while (n-- > 0) {
    switch (st) {
    case 0: { int t = x; x = y; y = t; st = 1; break; }
    case 1: { int t = x; x = y; y = z; z = t; st = (x & 1) ? 2 : 0; break; }
    case 2: { int t = z; z = y; y = x; x = t + 1; st = 0; break; }
    }
  }
  return x * 10000 + y * 100 + z;
}

int main(void) {
  unsigned h = 0;
  for (unsigned k = 0; k < 50; k++) h = h * 31u + dispatch(k, k * 7u + 1u);
  for (int k = 0; k < 40; k++) h = h * 17u + (unsigned)state_machine(k);
  printf("%u\n", h);
  return (int)(h & 127u);
}
