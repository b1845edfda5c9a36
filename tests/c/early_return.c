/* Early returns from many depths: the return value's alloca gets a phi per exit. */
#include <stdio.h>
#include <string.h>

static int classify(int x) {
  if (x < 0) return -1;
  if (x == 0) return 0;
  if (x < 10) return 1;
  for (int d = 2; d < x; d++)
    if (x % d == 0) {
      if (d == 2) return 2;
      return 3;
    }
  return 4;
}

static int search(const int *a, int n, int key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) return mid;
    if (a[mid] < key) lo = mid + 1; else hi = mid - 1;
  }
  return -(lo + 1);
}

static const char *grade(int score) {
  if (score > 100 || score < 0) return "invalid";
  if (score >= 90) return "A";
  if (score >= 80) return "B";
  if (score >= 70) return "C";
  return "F";
}

static int validate(const char *s) {
  int digits = 0, letters = 0;
  size_t n = strlen(s);
  if (n == 0) return -1;
  if (n > 20) return -2;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c >= '0' && c <= '9') { digits++; continue; }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) { letters++; continue; }
    return -3 - (int)i;
  }
  if (!digits) return -100;
  return digits * 100 + letters;
}

static void noreturn_value(int x, int *out) {
  *out = 0;
  if (x & 1) return;
  *out = 1;
  if (x & 2) return;
  *out = 2;
}

int main(void) {
  int xs[] = {-5, 0, 7, 12, 15, 49, 97};
  for (int i = 0; i < 7; i++) printf("classify(%d) = %d\n", xs[i], classify(xs[i]));
  int a[] = {1, 3, 5, 7, 9, 11, 13};
  for (int k = 0; k < 15; k += 3) printf("search(%d) = %d\n", k, search(a, 7, k));
  int sc[] = {-1, 55, 70, 85, 99, 101};
  for (int i = 0; i < 6; i++) printf("grade(%d) = %s\n", sc[i], grade(sc[i]));
  const char *ss[] = {"", "abc123", "only", "bad!x", "0123456789012345678901"};
  for (int i = 0; i < 5; i++) printf("validate(%s) = %d\n", ss[i], validate(ss[i]));
  for (int x = 0; x < 4; x++) { int o; noreturn_value(x, &o); printf("nrv(%d) = %d\n", x, o); }
  return 0;
}
