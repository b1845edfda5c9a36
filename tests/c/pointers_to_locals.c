/* Locals whose address escapes (must stay in memory) next to locals that promote; pointer
 * arithmetic on locals; pointers to pointers; const pointers into structs. */
#include <stdio.h>

static void bump(int *p) { (*p)++; }
static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
static int *pick(int *a, int *b, int which) { return which ? a : b; }

static int escaped_in_loop(int n) {
  int counter = 0, plain = 0;
  for (int i = 0; i < n; i++) {
    bump(&counter);
    plain += 2;
  }
  return counter * 100 + plain;
}

static int through_pp(void) {
  int x = 1, y = 2;
  int *px = &x, *py = &y;
  int **pp = &px;
  **pp += 10;
  pp = &py;
  **pp += 20;
  swap(px, py);
  return x * 100 + y;
}

static int conditional_alias(int flag) {
  int a = 5, b = 7;
  int *p = pick(&a, &b, flag);
  *p *= 3;
  return a * 100 + b;
}

/* store only: the address is taken, then only local loads and stores follow */
static int local_ptr_only(int v) {
  int x = v;
  int *p = &x;
  *p = *p + 1;
  int y = *p * 2;
  return y + x;
}

struct pair { int a, b; };
static int field_ptrs(void) {
  struct pair s = {1, 2};
  int *pa = &s.a, *pb = &s.b;
  for (int i = 0; i < 4; i++) swap(pa, pb);
  *pa += 100;
  return s.a * 1000 + s.b;
}

int main(void) {
  printf("escaped_in_loop = %d\n", escaped_in_loop(7));
  printf("through_pp = %d\n", through_pp());
  printf("conditional_alias = %d %d\n", conditional_alias(0), conditional_alias(1));
  printf("local_ptr_only = %d\n", local_ptr_only(4));
  printf("field_ptrs = %d\n", field_ptrs());
  int arr[5] = {1, 2, 3, 4, 5};
  int *e = arr + 5, s = 0;
  for (int *p = arr; p != e; p++) s += *p * (int)(e - p);
  printf("ptr arith = %d\n", s);
  return 0;
}
