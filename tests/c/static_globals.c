/* Static locals and globals beside promotable locals: only the locals may become registers. */
#include <stdio.h>

int global_counter;
static int table[8] = {1, 1, 2, 3, 5, 8, 13, 21};

static int next_id(void) {
  static int id = 100;
  return id++;
}

static int memo_fib(int n) {
  static long memo[64];
  if (n < 2) return n;
  if (memo[n]) return (int)memo[n];
  int r = memo_fib(n - 1) + memo_fib(n - 2);
  memo[n] = r;
  return r;
}

static void tick(int n) {
  int local = global_counter;
  for (int i = 0; i < n; i++) { local += table[i % 8]; global_counter++; }
  global_counter += local;
}

int main(void) {
  int a = next_id(), b = next_id(), c = next_id();
  printf("ids %d %d %d\n", a, b, c);
  printf("memo_fib(40) = %d\n", memo_fib(40));
  tick(5);
  tick(3);
  printf("global_counter %d\n", global_counter);
  int sum = 0;
  for (int i = 0; i < 8; i++) { table[i] *= 2; sum += table[i]; }
  printf("table sum %d\n", sum);
  return 0;
}
