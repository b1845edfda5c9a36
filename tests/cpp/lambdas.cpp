// Lambdas: captures by value and by reference, mutable lambdas, generic lambdas,
// std::function (with recursion through it), immediately invoked lambdas, closures in loops.
#include <cstdio>
#include <functional>
#include <vector>

int main() {
  int base = 10;
  auto add = [base](int x) { return x + base; };
  base = 100;  // the copy inside add keeps 10
  std::printf("add %d\n", add(5));

  int counter = 0;
  auto inc = [&counter](int by) { counter += by; };
  for (int i = 0; i < 5; i++) inc(i);
  std::printf("counter %d\n", counter);

  auto gen = [n = 0]() mutable { return n++; };
  int g1 = gen(), g2 = gen(), g3 = gen();
  std::printf("gen %d %d %d\n", g1, g2, g3);

  auto twice = [](auto f, auto v) { return f(f(v)); };
  std::printf("twice %d %.2f\n", twice([](int v) { return v * 3; }, 2), twice([](double v) { return v / 2; }, 9.0));

  std::function<long(int)> fib = [&fib](int n) -> long { return n < 2 ? n : fib(n - 1) + fib(n - 2); };
  std::printf("fib %ld\n", fib(20));

  std::vector<std::function<int()>> fs;
  for (int i = 0; i < 4; i++) fs.push_back([i, &base] { return i * base; });
  int total = 0;
  for (auto &f : fs) total += f();
  std::printf("closures %d\n", total);

  const int sq = [](int v) { return v * v; }(12);
  std::printf("iife %d\n", sq);

  int a = 1, b = 2;
  auto swapper = [&] { int t = a; a = b; b = t; };
  for (int i = 0; i < 3; i++) swapper();
  std::printf("swapped %d %d\n", a, b);

  auto compose = [](auto f, auto g) { return [=](int x) { return f(g(x)); }; };
  auto h = compose([](int x) { return x + 1; }, [](int x) { return x * 10; });
  std::printf("compose %d\n", h(4));
  return 0;
}
