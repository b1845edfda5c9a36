/* Variadic functions: va_arg of int, long, double, pointers, va_copy, nested va_list use. */
#include <stdarg.h>
#include <stdio.h>

static long sum_ints(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static double mean(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  return n ? s / n : 0.0;
}

/* a tiny formatter: i = int, l = long, d = double, s = string, c = char */
static int fmt(char *out, const char *spec, ...) {
  va_list ap, again;
  va_start(ap, spec);
  va_copy(again, ap);
  int len = 0;
  for (const char *p = spec; *p; p++) {
    switch (*p) {
    case 'i': len += sprintf(out + len, "[i%d]", va_arg(ap, int)); break;
    case 'l': len += sprintf(out + len, "[l%ld]", va_arg(ap, long)); break;
    case 'd': len += sprintf(out + len, "[d%.3f]", va_arg(ap, double)); break;
    case 's': len += sprintf(out + len, "[s%s]", va_arg(ap, const char *)); break;
    case 'c': len += sprintf(out + len, "[c%c]", (char)va_arg(ap, int)); break;
    }
  }
  va_end(ap);
  /* the copy still starts at the first argument */
  if (spec[0] == 'i') len += sprintf(out + len, " first=%d", va_arg(again, int));
  va_end(again);
  return len;
}

static int vsum(int n, va_list ap) {
  int s = 0;
  while (n--) s += va_arg(ap, int);
  return s;
}

static int outer(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int r = vsum(n, ap);
  va_end(ap);
  return r;
}

/* many arguments: past the registers, onto the stack */
static double many(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double acc = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2) acc += va_arg(ap, double) * i;
    else acc -= va_arg(ap, int);
  }
  va_end(ap);
  return acc;
}

int main(void) {
  printf("sum_ints = %ld %ld\n", sum_ints(0), sum_ints(5, 1, 2, 3, 4, 5));
  printf("mean = %.4f\n", mean(4, 1.5, 2.5, 3.25, 4.0));
  char buf[256];
  int n = fmt(buf, "ildsc", 42, 1L << 40, 3.14159, "hi", 'z');
  printf("fmt(%d) = %s\n", n, buf);
  printf("outer = %d\n", outer(6, 1, 2, 3, 4, 5, 6));
  printf("many = %.3f\n", many(14, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5));
  return 0;
}
