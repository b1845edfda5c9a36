// Operator overloading, references, move semantics, copy elision, const methods,
// and a small class with an invariant checked in a loop.
#include <cstdio>
#include <cstring>
#include <utility>

struct Vec2 {
  double x, y;
  Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
  Vec2 operator*(double k) const { return {x * k, y * k}; }
  Vec2 &operator+=(const Vec2 &o) { x += o.x; y += o.y; return *this; }
  bool operator==(const Vec2 &o) const { return x == o.x && y == o.y; }
};

static int copies, moves;
struct Buffer {
  char *data;
  size_t n;
  explicit Buffer(const char *s) : data(new char[std::strlen(s) + 1]), n(std::strlen(s)) { std::memcpy(data, s, n + 1); }
  Buffer(const Buffer &o) : data(new char[o.n + 1]), n(o.n) { std::memcpy(data, o.data, n + 1); copies++; }
  Buffer(Buffer &&o) noexcept : data(o.data), n(o.n) { o.data = nullptr; o.n = 0; moves++; }
  Buffer &operator=(Buffer o) { std::swap(data, o.data); std::swap(n, o.n); return *this; }
  ~Buffer() { delete[] data; }
};

static Buffer make(const char *s) { return Buffer(s); }
static void bump(int &r) { r += 5; }

int main() {
  Vec2 p{1, 2}, v{0.5, -0.25};
  for (int i = 0; i < 8; i++) { p += v * i; Vec2 t = p; p = v; v = t; }
  std::printf("p %.4f %.4f v %.4f %.4f eq %d\n", p.x, p.y, v.x, v.y, p == v);
  Buffer a = make("hello");
  Buffer b("world");
  Buffer c = a;
  b = std::move(a);
  c = b;
  std::printf("b=%s c=%s a.n=%zu copies=%d moves=%d\n", b.data, c.data, a.n, copies, moves);
  int x = 1;
  int &rx = x;
  for (int i = 0; i < 3; i++) bump(rx);
  const int &cr = x;
  std::printf("x %d cr %d\n", x, cr);
  return 0;
}
