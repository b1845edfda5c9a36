/* Function pointers: tables, callbacks (qsort, custom fold), pointers stored in locals that
 * are reassigned in loops (phis of pointer type), returning function pointers. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int max(int a, int b) { return a > b ? a : b; }

static int fold(const int *a, int n, int init, binop f) {
  int acc = init;
  for (int i = 0; i < n; i++) acc = f(acc, a[i]);
  return acc;
}

static binop choose(char c) {
  switch (c) {
  case '+': return add;
  case '-': return sub;
  case '*': return mul;
  default: return max;
  }
}

static int cmp_desc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x < y) - (x > y);
}

int main(void) {
  int a[] = {3, 1, 4, 1, 5, 9, 2, 6};
  binop table[] = {add, sub, mul, max};
  const char *names[] = {"add", "sub", "mul", "max"};
  for (int i = 0; i < 4; i++) printf("fold %s = %d\n", names[i], fold(a, 8, i == 2 ? 1 : 0, table[i]));
  binop f = add, g = mul;
  int v = 1;
  for (int i = 0; i < 6; i++) { v = f(v, i + 1); binop t = f; f = g; g = t; }
  printf("alternating = %d\n", v);
  const char *ops = "+-*m";
  int acc = 10;
  for (const char *p = ops; *p; p++) acc = choose(*p)(acc, 3);
  printf("chosen = %d\n", acc);
  qsort(a, 8, sizeof a[0], cmp_desc);
  for (int i = 0; i < 8; i++) printf("%d ", a[i]);
  printf("\n");
  void (*pf)(void) = 0;
  printf("null fp %d\n", pf == 0);
  return 0;
}
