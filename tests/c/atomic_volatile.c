/* _Atomic and volatile locals: their loads and stores must stay as they are (volatile accesses
 * and atomic accesses are not promoted by LLVM's mem2reg). */
#include <stdatomic.h>
#include <stdio.h>

static int volatile_loop(int n) {
  volatile int v = 0;
  int plain = 0;
  for (int i = 0; i < n; i++) { v = v + i; plain += v; }
  return plain * 1000 + v;
}

static long atomic_counter(int n) {
  _Atomic long c = 0;
  for (int i = 0; i < n; i++) atomic_fetch_add(&c, i);
  long old = atomic_exchange(&c, 5);
  long expected = 5;
  int ok = atomic_compare_exchange_strong(&c, &expected, 77);
  return old * 1000 + (long)ok * 100 + atomic_load(&c);
}

static int atomic_plain_ops(void) {
  _Atomic int a = 3;
  a += 4;       /* seq_cst read-modify-write */
  a = a * 2;    /* atomic load, atomic store */
  int x = a;
  atomic_store_explicit(&a, x + 1, memory_order_relaxed);
  return atomic_load_explicit(&a, memory_order_acquire);
}

static unsigned volatile_swap(unsigned n) {
  volatile unsigned a = 1, b = 2;
  for (unsigned i = 0; i < n; i++) { unsigned t = a; a = b; b = t + a; }
  return a * 100 + b;
}

int main(void) {
  printf("volatile_loop = %d\n", volatile_loop(10));
  printf("atomic_counter = %ld\n", atomic_counter(10));
  printf("atomic_plain_ops = %d\n", atomic_plain_ops());
  printf("volatile_swap = %u\n", volatile_swap(6));
  atomic_flag fl = ATOMIC_FLAG_INIT;
  int first = atomic_flag_test_and_set(&fl), second = atomic_flag_test_and_set(&fl);
  printf("flag %d %d\n", first, second);
  return 0;
}
