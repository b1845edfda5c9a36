// std::swap, std::tie and structured bindings rotating values in loops: after inlining-free
// -O0 code these are calls, but the locals still become phis at the loop headers.
#include <cstdio>
#include <tuple>
#include <utility>

static std::pair<int, int> step(std::pair<int, int> p) { return {p.second, p.first + p.second}; }

int main() {
  int a = 1, b = 2, c = 3;
  for (int i = 0; i < 5; i++) { std::swap(a, b); std::tie(b, c) = std::make_tuple(c, b); }
  std::printf("tie %d %d %d\n", a, b, c);
  std::pair<int, int> p{0, 1};
  for (int i = 0; i < 15; i++) p = step(p);
  auto [x, y] = p;
  std::printf("fib pair %d %d\n", x, y);
  double u = 1.5, v = -2.5;
  for (int i = 0; i < 7; i++) { std::tie(u, v) = std::make_pair(v * 0.5, u + 1.0); }
  std::printf("uv %.4f %.4f\n", u, v);
  unsigned r0 = 1, r1 = 2, r2 = 3, r3 = 4;
  for (unsigned i = 0; i < 10; i++) {
    if (i & 1) std::tie(r0, r1, r2, r3) = std::make_tuple(r1, r2, r3, r0);
    else std::swap(r0, r3);
  }
  std::printf("r %u %u %u %u\n", r0, r1, r2, r3);
  return 0;
}
