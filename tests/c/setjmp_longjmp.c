/* setjmp/longjmp, UB-free: every local changed between setjmp and longjmp and read after the
 * return from longjmp is volatile (C11 7.13.2.1p3); other locals are not changed in between. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static int depth_reached;

static void dive(int depth, int limit) {
  depth_reached = depth;
  if (depth == limit) longjmp(env, depth * 10);
  dive(depth + 1, limit);
}

static int try_dive(int limit) {
  volatile int attempts = 0;
  int fixed = 1000;           /* not changed after setjmp: fine without volatile */
  int r = setjmp(env);
  attempts++;
  if (r == 0) {
    dive(0, limit);
    return -1;                /* not reached */
  }
  return fixed + r + attempts * 100000;
}

static jmp_buf retry_env;
static int retry(int fail_times) {
  volatile int tries = 0;
  volatile int acc = 0;
  if (setjmp(retry_env) != 0) acc += 7;
  tries++;
  if (tries <= fail_times) longjmp(retry_env, 1);
  return tries * 100 + acc;
}

int main(void) {
  for (int lim = 0; lim < 4; lim++) printf("try_dive(%d) = %d depth %d\n", lim, try_dive(lim), depth_reached);
  for (int f = 0; f < 4; f++) printf("retry(%d) = %d\n", f, retry(f));
  return 0;
}
