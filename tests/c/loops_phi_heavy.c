/* Many variables live around loops with several exits, do-while loops, continue edges and
 * critical edges: lots of phis, and copies that phi elimination must place on split edges. */
#include <stdio.h>

static unsigned many_vars(unsigned n) {
  unsigned a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
  for (unsigned i = 0; i < n; i++) {
    unsigned na = b + h, nb = c ^ a, nc = d * 3, nd = e + 1;
    unsigned ne = f - g, nf = g + a, ng = h ^ b, nh = a + 7;
    a = na; b = nb; c = nc; d = nd; e = ne; f = nf; g = ng; h = nh;
    if ((a & 15) == 3) continue;
    if (b == 12345) break;
    c += i;
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

/* A loop exit edge from a block with two successors into a block with two predecessors:
 * a critical edge carrying a value that differs from the other incoming edge. */
static int critical(int n) {
  int x = 0, y = 100;
  int i = 0;
  while (1) {
    x += i;
    if (x > n) { y = x; break; }  /* exit 1 */
    i++;
    if (i > 50) break;              /* exit 2: y keeps 100 */
    y -= 1;
  }
  return x * 1000 + y;
}

static unsigned do_while(unsigned n) {
  unsigned s = 0, k = n, p = 1;
  do {
    s += k;
    p = p * 3 % 1000;
    if (k % 5 == 0) { unsigned t = s; s = p; p = t % 1000; }
  } while (k-- > 1);
  return s * 1000 + p;
}

/* a value defined before the loop, used after it, never changed inside: no phi needed */
static int invariant(int n, int base) {
  int keep = base * 2, acc = 0;
  for (int i = 0; i < n; i++) acc += i;
  return keep + acc;
}

/* a loop whose body is only reached through continue-style edges */
static int while_continue(int n) {
  int i = 0, odd = 0, even = 0;
  while (i < n) {
    i++;
    if (i & 1) { odd += i; continue; }
    even += i;
  }
  return odd * 1000 + even;
}

static int multi_latch(int n) {
  int a = 0, b = 1, i = 0;
loop:
  if (i >= n) return a * 100 + b;
  i++;
  if (i % 3 == 0) { a += b; goto loop; }
  if (i % 3 == 1) { int t = a; a = b; b = t; goto loop; }
  b += 2;
  goto loop;
}

int main(void) {
  for (unsigned n = 0; n < 30; n += 7) printf("many_vars(%u) = %u\n", n, many_vars(n));
  for (int n = 0; n < 2000; n += 333) printf("critical(%d) = %d\n", n, critical(n));
  printf("do_while = %u %u\n", do_while(1), do_while(23));
  printf("invariant = %d\n", invariant(10, 21));
  printf("while_continue = %d\n", while_continue(15));
  for (int n = 0; n < 8; n++) printf("multi_latch(%d) = %d\n", n, multi_latch(n));
  return 0;
}
