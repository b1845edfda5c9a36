/* Short-circuit && and ||, ?: chains, bool (_Bool) locals, comparisons producing i1 values
 * that are stored as i8 and loaded back (zext/trunc around the alloca). */
#include <stdbool.h>
#include <stdio.h>

static int side;
static bool t(int v) { side = side * 10 + v; return true; }
static bool f(int v) { side = side * 10 + v; return false; }

static int chain(int x) {
  return x < 0 ? -1 : x == 0 ? 0 : x < 10 ? 1 : x < 100 ? 2 : 3;
}

static bool in_range(int x, int lo, int hi) { return x >= lo && x <= hi; }

int main(void) {
  side = 0; bool r1 = f(1) && t(2); printf("r1 %d side %d\n", r1, side);
  side = 0; bool r2 = t(1) || f(2); printf("r2 %d side %d\n", r2, side);
  side = 0; bool r3 = (f(1) || t(2)) && (t(3) || f(4)) && !f(5); printf("r3 %d side %d\n", r3, side);
  for (int x = -5; x < 200; x += 37) printf("chain(%d) = %d\n", x, chain(x));
  bool flag = false;
  int toggles = 0;
  for (int i = 0; i < 10; i++) {
    flag = !flag;
    if (flag && i % 3 == 0) toggles++;
    flag = flag != (i % 4 == 0);
  }
  printf("flag %d toggles %d\n", flag, toggles);
  int cnt = 0;
  for (int x = 0; x < 100; x++) cnt += in_range(x, 10, 20) || in_range(x, 50, 55) ? 1 : 0;
  printf("cnt %d\n", cnt);
  int a = 3, b = 8;
  int m = a > b ? a : b, n = a < b ? a : b;
  int *p = a > 5 ? &a : &b;
  *p += 1;
  printf("m %d n %d a %d b %d\n", m, n, a, b);
  unsigned char c = 200;
  bool big = c > 127;
  signed char sc = (signed char)-3;
  printf("big %d sc %d\n", big, sc < 0 ? -sc : sc);
  return 0;
}
