/* __int128 locals and arithmetic: multiplication overflow checks, division, shifts, printing. */
#include <stdio.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

static void print_u128(const char *label, u128 v) {
  char buf[48];
  int i = 47;
  buf[i] = 0;
  if (v == 0) buf[--i] = '0';
  while (v) { buf[--i] = (char)('0' + (int)(v % 10)); v /= 10; }
  printf("%s %s\n", label, buf + i);
}

static u128 fact128(unsigned n) {
  u128 r = 1;
  for (unsigned i = 2; i <= n; i++) r *= i;
  return r;
}

static u128 fib128(unsigned n) {
  u128 a = 0, b = 1;
  for (unsigned i = 0; i < n; i++) { u128 t = a + b; a = b; b = t; }
  return a;
}

static i128 mix(i128 x) {
  i128 y = -x;
  for (int i = 0; i < 5; i++) { i128 t = x; x = y / 3; y = t * 2 - 1; }
  return x + y;
}

int main(void) {
  print_u128("30! =", fact128(30));
  print_u128("fib(150) =", fib128(150));
  u128 big = ~(u128)0;
  print_u128("max =", big);
  print_u128("max>>64 =", big >> 64);
  i128 m = mix((i128)123456789012345LL * 1000);
  printf("mix sign %d low %llu\n", m < 0 ? -1 : 1, (unsigned long long)(m < 0 ? -m : m));
  u128 a = (u128)0xdeadbeefcafebabeULL << 40, b = 0x123456789ULL;
  print_u128("div =", a / b);
  print_u128("mod =", a % b);
  return 0;
}
