/* Recursion: plain, mutual, with address-taken locals, deep, and with many live locals
 * across the recursive call. */
#include <stdio.h>

static unsigned long long fact(unsigned n) { return n <= 1 ? 1 : n * fact(n - 1); }

static unsigned ack(unsigned m, unsigned n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int moves;
static void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  moves++;
  hanoi(n - 1, via, to, from);
}

/* local whose address is passed down: stays in memory */
static void fill(int depth, int *acc) {
  int local = depth * 3;
  if (depth > 0) fill(depth - 1, &local);
  *acc += local;
}

static int perms(int *a, int k, int n) {
  if (k == n) {
    int v = 0;
    for (int i = 0; i < n; i++) v = v * 10 + a[i];
    return v % 7 == 0;
  }
  int count = 0;
  for (int i = k; i < n; i++) {
    int t = a[k]; a[k] = a[i]; a[i] = t;
    count += perms(a, k + 1, n);
    t = a[k]; a[k] = a[i]; a[i] = t;
  }
  return count;
}

static unsigned many_live(unsigned n, unsigned a, unsigned b, unsigned c) {
  unsigned x = a + n, y = b * 3, z = c ^ n;
  if (n == 0) return x + y + z;
  unsigned r = many_live(n - 1, y, z, x);
  return r * 7 + x - y + z;
}

int main(void) {
  for (unsigned i = 0; i <= 20; i += 5) printf("fact(%u) = %llu\n", i, fact(i));
  printf("ack(2,3) = %u, ack(3,3) = %u\n", ack(2, 3), ack(3, 3));
  printf("even(10) = %d, odd(7) = %d, even(7) = %d\n", is_even(10), is_odd(7), is_even(7));
  hanoi(10, 1, 3, 2);
  printf("hanoi(10) moves = %d\n", moves);
  int acc = 0;
  fill(10, &acc);
  printf("fill = %d\n", acc);
  int a[] = {1, 2, 3, 4, 5, 6};
  printf("perms divisible by 7 = %d\n", perms(a, 0, 6));
  printf("many_live = %u\n", many_live(12, 1, 2, 3));
  return 0;
}
