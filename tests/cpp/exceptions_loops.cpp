// Exceptions thrown from inside loops with loop-carried values read in the handler and after
// it; cleanup landing pads in loops; an exception crossing a loop with a swap.
#include <cstdio>
#include <stdexcept>

struct Tracker {
  static int alive;
  Tracker() { alive++; }
  ~Tracker() { alive--; }
};
int Tracker::alive = 0;

static int maybe_throw(int i) {
  if (i % 4 == 3) throw std::runtime_error("x");
  return i * 2;
}

static int loop_with_handler(int n) {
  int sum = 0, errors = 0, a = 1, b = 2;
  for (int i = 0; i < n; i++) {
    Tracker t;
    try {
      sum += maybe_throw(i);
      int tmp = a; a = b; b = tmp;
    } catch (const std::exception &) {
      errors++;
      a += i;
    }
  }
  return sum * 10000 + errors * 100 + a * 10 + b;
}

static int escape_loop(int n) {
  int i = 0, acc = 0;
  try {
    for (; i < n; i++) {
      Tracker t;
      acc += i;
      if (acc > 20) throw i;
    }
  } catch (int at) {
    return -(at * 1000 + acc);
  }
  return acc;
}

int main() {
  for (int n = 0; n < 10; n += 3) std::printf("loop_with_handler(%d) = %d\n", n, loop_with_handler(n));
  std::printf("escape_loop = %d %d\n", escape_loop(5), escape_loop(50));
  std::printf("alive = %d\n", Tracker::alive);
  return 0;
}
