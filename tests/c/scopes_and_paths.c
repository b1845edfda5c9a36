/* Variables assigned on some paths only and read only where they are defined (no UB), block
 * scoped variables inside loops, shadowing, and variables whose every use is dead. */
#include <stdio.h>

static int partial(int flag) {
  int x;          /* defined only when flag, read only when flag */
  int r = 0;
  if (flag) x = 42;
  for (int i = 0; i < 3; i++) r += i;
  if (flag) r += x;
  return r;
}

static int shadow(int n) {
  int v = 1;
  for (int i = 0; i < n; i++) {
    int v2 = v * 2;
    {
      int v = v2 + i;  /* shadows the outer v */
      v2 = v;
    }
    v = v2;
  }
  return v;
}

static int loop_local(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    int t;             /* fresh each iteration, set before use */
    if (i % 2) t = i * 3; else t = -i;
    s += t;
  }
  return s;
}

static int dead_vars(int n) {
  int unused = n * 2;  /* stored, never loaded */
  int written_twice = 1;
  written_twice = 2;
  (void)unused;
  return n + written_twice;
}

static int read_before_write_guarded(int n) {
  int last;
  int have = 0;
  for (int i = 0; i < n; i++) {
    if (have && last > 10) return last;
    last = i * 4;
    have = 1;
  }
  return have ? last : -1;
}

int main(void) {
  printf("partial %d %d\n", partial(0), partial(1));
  printf("shadow %d\n", shadow(5));
  printf("loop_local %d\n", loop_local(9));
  printf("dead_vars %d\n", dead_vars(4));
  printf("rbw %d %d %d\n", read_before_write_guarded(0), read_before_write_guarded(3), read_before_write_guarded(10));
  return 0;
}
