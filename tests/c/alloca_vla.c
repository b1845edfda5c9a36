/* VLAs inside loops (stacksave/stackrestore around each iteration), __builtin_alloca, and
 * promotable scalars live across them. */
#include <stdio.h>
#include <string.h>

static int vla_in_loop(int n) {
  int total = 0;
  for (int k = 1; k <= n; k++) {
    int buf[k];
    for (int i = 0; i < k; i++) buf[i] = i * k;
    int s = 0;
    for (int i = 0; i < k; i++) s += buf[i];
    total += s;
  }
  return total;
}

static int with_alloca(int n) {
  char *p = __builtin_alloca((size_t)n + 1);
  memset(p, 'a', (size_t)n);
  p[n] = 0;
  int vowels = 0;
  for (int i = 0; i < n; i++) { p[i] = (char)(p[i] + i % 5); vowels += p[i] == 'a' || p[i] == 'e'; }
  return vowels * 1000 + (int)strlen(p);
}

static double matrix_vla(int n) {
  double m[n][n];
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) m[i][j] = (i == j) ? 2.0 : 0.5;
  double det_like = 1.0;
  for (int i = 0; i < n; i++) det_like *= m[i][i] - m[i][(i + 1) % n] * 0.5;
  return det_like;
}

int main(void) {
  printf("vla_in_loop = %d\n", vla_in_loop(12));
  printf("with_alloca = %d %d\n", with_alloca(1), with_alloca(23));
  for (int n = 1; n < 5; n++) printf("matrix_vla(%d) = %.6f\n", n, matrix_vla(n));
  return 0;
}
