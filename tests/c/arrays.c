/* Local arrays: 1-D, 2-D, VLAs, arrays of structs, in-place sorting, prefix sums. */
#include <stdio.h>

static void insertion_sort(int *a, int n) {
  for (int i = 1; i < n; i++) {
    int v = a[i], j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

static int vla_sum(int n, int m) {
  int grid[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) grid[i][j] = (i + 1) * (j + 2);
  int s = 0;
  for (int i = 0; i < n; i++) s += grid[i][m - 1 - i % m];
  return s;
}

struct item { char name[8]; int qty; };

int main(void) {
  int a[12];
  unsigned seed = 17;
  for (int i = 0; i < 12; i++) { seed = seed * 1664525u + 1013904223u; a[i] = (int)(seed >> 24); }
  insertion_sort(a, 12);
  for (int i = 0; i < 12; i++) printf("%d ", a[i]);
  printf("\n");

  long prefix[11] = {0};
  for (int i = 1; i <= 10; i++) prefix[i] = prefix[i - 1] + (long)i * i;
  printf("prefix %ld %ld\n", prefix[5], prefix[10]);

  int m[4][5];
  for (int i = 0; i < 4; i++) for (int j = 0; j < 5; j++) m[i][j] = i * 5 + j;
  int t[5][4];
  for (int i = 0; i < 4; i++) for (int j = 0; j < 5; j++) t[j][i] = m[i][j];
  printf("transpose %d %d %d\n", t[0][3], t[4][0], t[2][2]);

  for (int n = 1; n < 5; n++) printf("vla_sum(%d) = %d\n", n, vla_sum(n, n + 1));

  struct item items[3] = {{"apple", 3}, {"pear", 5}, {"fig", 2}};
  int total = 0;
  for (int i = 0; i < 3; i++) { items[i].qty *= 2; total += items[i].qty; }
  printf("items %s %d total %d\n", items[1].name, items[1].qty, total);

  char s[16] = "rotate me";
  for (int r = 0; r < 3; r++) {
    char first = s[0];
    int i = 0;
    for (; s[i + 1]; i++) s[i] = s[i + 1];
    s[i] = first;
  }
  printf("rotated '%s'\n", s);

  int small[1] = {5};
  small[0] += 2;
  printf("small %d\n", small[0]);
  return 0;
}
