/* float, double and long double locals in loops; conversions; NaN and infinity compares;
 * printed with fixed precision so the output is exact. */
#include <math.h>
#include <stdio.h>

static double newton_sqrt(double x) {
  double g = x > 1 ? x / 2 : 1;
  for (int i = 0; i < 30; i++) g = 0.5 * (g + x / g);
  return g;
}

static float harmonic_f(int n) {
  float s = 0.0f;
  for (int i = 1; i <= n; i++) s += 1.0f / (float)i;
  return s;
}

static long double series_ld(int n) {
  long double s = 0.0L, term = 1.0L;
  for (int i = 0; i < n; i++) { s += term; term /= 2.0L; }
  return s;
}

static int classify(double v) {
  if (v != v) return 0;         /* NaN */
  if (v == INFINITY) return 1;
  if (v == -INFINITY) return 2;
  if (v == 0.0) return signbit(v) ? 3 : 4;
  return 5;
}

int main(void) {
  printf("sqrt %.10f %.10f\n", newton_sqrt(2.0), newton_sqrt(1e6));
  printf("harmonic %.5f\n", (double)harmonic_f(100));
  printf("series %.15Lf\n", series_ld(40));
  double vals[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 3.5};
  for (int i = 0; i < 6; i++) printf("classify[%d] = %d\n", i, classify(vals[i]));
  float f = 16777216.0f;
  f += 1.0f;
  printf("f %.1f\n", (double)f);
  double d = 0.1 + 0.2;
  printf("d %.17g eq %d\n", d, d == 0.3);
  long double ld = 1.0L / 3.0L;
  double back = (double)ld;
  printf("ld %.18Lf back %.17g\n", ld, back);
  int i = (int)-3.99, j = (int)3.99;
  unsigned u = (unsigned)4e9;
  printf("conv %d %d %u %lld\n", i, j, u, (long long)-2.5e10);
  float a = 1.5f, b = -2.25f, c = 0.0f;
  for (int k = 0; k < 6; k++) { float t = a; a = b * 0.5f; b = t + c; c = t; }
  printf("rot %.6f %.6f %.6f\n", (double)a, (double)b, (double)c);
  printf("fmod %.4f floor %.1f ceil %.1f\n", fmod(10.5, 3.0), floor(-1.5), ceil(-1.5));
  return 0;
}
