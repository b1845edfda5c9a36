// Templates: function and class templates, variadic templates, specialization, constexpr,
// CRTP, and template recursion.
#include <cstdio>

template <typename T> T max_of(T a, T b) { return a > b ? a : b; }

template <typename T, int N> struct Ring {
  T data[N] = {};
  int head = 0;
  void push(T v) { data[head] = v; head = (head + 1) % N; }
  T sum() const { T s = T(); for (int i = 0; i < N; i++) s += data[i]; return s; }
};

template <typename T> T sum_all() { return T(); }
template <typename T, typename... Rest> T sum_all(T first, Rest... rest) { return first + sum_all<T>(rest...); }

template <typename T> struct Describe { static const char *name() { return "other"; } };
template <> struct Describe<int> { static const char *name() { return "int"; } };
template <> struct Describe<double> { static const char *name() { return "double"; } };

template <unsigned N> struct Fact { static constexpr unsigned long long value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static constexpr unsigned long long value = 1; };

constexpr int cube(int x) { return x * x * x; }

template <typename Derived> struct Shape {
  double area() const { return static_cast<const Derived *>(this)->area_impl(); }
};
struct Square : Shape<Square> { double s; explicit Square(double v) : s(v) {} double area_impl() const { return s * s; } };
struct Tri : Shape<Tri> { double b, h; Tri(double x, double y) : b(x), h(y) {} double area_impl() const { return b * h / 2; } };

template <typename S> double total_area(const S &a, const S &b) { return a.area() + b.area(); }

template <typename T> void rotate3(T &a, T &b, T &c) { T t = a; a = b; b = c; c = t; }

int main() {
  std::printf("max %d %.2f %c\n", max_of(3, 7), max_of(2.5, -1.0), max_of('a', 'z'));
  Ring<int, 4> r;
  for (int i = 1; i <= 10; i++) r.push(i * i);
  std::printf("ring sum %d\n", r.sum());
  Ring<double, 3> rd;
  for (int i = 0; i < 5; i++) rd.push(i * 0.5);
  std::printf("ring double %.2f\n", rd.sum());
  std::printf("sum_all %d %.3f\n", sum_all(1, 2, 3, 4, 5), sum_all(0.5, 0.25, 0.125));
  std::printf("names %s %s %s\n", Describe<int>::name(), Describe<double>::name(), Describe<char>::name());
  std::printf("fact %llu cube %d\n", Fact<20>::value, cube(7));
  std::printf("areas %.2f %.2f\n", total_area(Square(2), Square(3)), total_area(Tri(2, 3), Tri(4, 5)));
  int a = 1, b = 2, c = 3;
  double x = 1.5, y = 2.5, z = 3.5;
  for (int i = 0; i < 4; i++) { rotate3(a, b, c); rotate3(x, y, z); }
  std::printf("rot %d %d %d %.1f %.1f %.1f\n", a, b, c, x, y, z);
  return 0;
}
