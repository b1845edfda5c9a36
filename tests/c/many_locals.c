/* One function with many scalar locals of mixed types and a long body: stresses renaming and
 * the phi count at joins (a small "VM dispatch loop"). */
#include <stdio.h>

int main(void) {
  unsigned r0 = 1, r1 = 2, r2 = 3, r3 = 4, r4 = 5, r5 = 6, r6 = 7, r7 = 8;
  long acc = 0;
  double fa = 1.0;
  short sh = 3;
  unsigned char ch = 9;
  const unsigned char code[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5};
  for (int round = 0; round < 25; round++) {
    for (unsigned pc = 0; pc < sizeof code; pc++) {
      switch (code[pc] % 12) {
      case 0: r0 = r1 + r2; break;
      case 1: r1 = r2 ^ r3; break;
      case 2: { unsigned t = r2; r2 = r3; r3 = t; } break;
      case 3: r3 = r4 * 3 + r0; break;
      case 4: r4 = r5 - r6; break;
      case 5: { unsigned t = r5; r5 = r6; r6 = r7; r7 = t; } break;
      case 6: r6 += r0 & 15; break;
      case 7: r7 = (r7 << 1) | (r7 >> 31); break;
      case 8: acc += (long)(r0 % 1000); fa = fa * 1.0001 + 0.5; break;
      case 9: sh = (short)(sh * 3 + 1); break;
      case 10: ch = (unsigned char)(ch + r1); break;
      default: acc -= ch + sh; break;
      }
    }
  }
  printf("%u %u %u %u %u %u %u %u\n", r0, r1, r2, r3, r4, r5, r6, r7);
  printf("acc %ld fa %.6f sh %d ch %u\n", acc, fa, sh, ch);
  return 0;
}
