/* _Complex locals: aggregates of two floats/doubles kept in allocas by clang. */
#include <complex.h>
#include <stdio.h>

static double complex cpow_int(double complex z, int n) {
  double complex r = 1.0;
  for (int i = 0; i < n; i++) r *= z;
  return r;
}

static int mandel(double complex c) {
  double complex z = 0;
  int i = 0;
  for (; i < 50; i++) {
    z = z * z + c;
    if (creal(z) * creal(z) + cimag(z) * cimag(z) > 4.0) break;
  }
  return i;
}

int main(void) {
  double complex z = 1.0 + 1.0 * I;
  double complex p = cpow_int(z, 8);
  printf("(1+i)^8 = %.3f %+.3fi\n", creal(p), cimag(p));
  float complex f = 0.5f - 0.25f * I;
  for (int i = 0; i < 4; i++) f = f * f + 0.1f;
  printf("f = %.5f %+.5fi\n", (double)crealf(f), (double)cimagf(f));
  for (int y = -2; y <= 2; y++) {
    for (int x = -4; x <= 2; x++) putchar(mandel(x * 0.5 + y * 0.5 * I) > 20 ? '#' : '.');
    putchar('\n');
  }
  double complex a = 3 + 4 * I, b = a;
  for (int i = 0; i < 3; i++) { double complex t = a; a = b * I; b = t; }
  printf("a = %.1f %+.1fi b = %.1f %+.1fi\n", creal(a), cimag(a), creal(b), cimag(b));
  return 0;
}
