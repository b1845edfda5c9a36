/* Nested loops with break/continue, loop-carried variables at several depths, multiple exits. */
#include <stdio.h>

static unsigned matmul_trace(int n) {
  unsigned a[8][8], b[8][8], c[8][8];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) { a[i][j] = (unsigned)(i + j); b[i][j] = (unsigned)(i * j + 1); }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      unsigned s = 0;
      for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  unsigned tr = 0;
  for (int i = 0; i < n; i++) tr += c[i][i];
  return tr;
}

static int primes_below(int n) {
  int count = 0;
  for (int i = 2; i < n; i++) {
    int prime = 1;
    for (int d = 2; d * d <= i; d++) {
      if (i % d == 0) { prime = 0; break; }
    }
    if (!prime) continue;
    count++;
  }
  return count;
}

static int find_pair(int target, int *pi, int *pj) {
  for (int i = 0; i < 50; i++) {
    for (int j = i; j < 50; j++) {
      if (i * j == target) { *pi = i; *pj = j; return 1; }
      if (i * j > target) break;
    }
  }
  return 0;
}

static unsigned deep(int n) {
  unsigned acc = 1, x = 3;
  for (int i = 0; i < n; i++) {
    unsigned y = x;
    for (int j = 0; j < 3; j++) {
      for (int k = 0; k < 2; k++) {
        if ((i + j + k) % 4 == 0) continue;
        y = y * 31 + (unsigned)k;
        for (int l = 0; l < 2; l++) { acc ^= y + (unsigned)l; if (acc & 1) break; }
      }
      x += y & 7;
    }
  }
  return acc + x;
}

static int collatz_max(int limit) {
  int best = 0, best_n = 0;
  for (int n = 1; n < limit; n++) {
    long long v = n; int steps = 0;
    while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; steps++; }
    if (steps > best) { best = steps; best_n = n; }
  }
  return best_n * 1000 + best;
}

int main(void) {
  for (int n = 1; n <= 8; n++) printf("matmul_trace(%d) = %u\n", n, matmul_trace(n));
  printf("primes_below(1000) = %d\n", primes_below(1000));
  int i = -1, j = -1;
  int ok = find_pair(221, &i, &j);
  printf("find_pair(221) = %d %d %d\n", ok, i, j);
  ok = find_pair(2209, &i, &j);
  printf("find_pair(2209) = %d\n", ok);
  printf("deep = %u %u\n", deep(5), deep(17));
  printf("collatz_max(3000) = %d\n", collatz_max(3000));
  return 0;
}
