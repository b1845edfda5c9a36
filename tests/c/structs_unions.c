/* Structs by value (passed, returned, copied), unions, bitfields, nested aggregates. */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct rect { struct point lo, hi; };
struct big { long a[6]; double d; char tag; };
struct flags {
  unsigned ready : 1;
  unsigned mode : 3;
  signed delta : 5;
  unsigned count : 12;
  unsigned : 0;
  unsigned wide : 20;
};
union word { unsigned u; float f; unsigned char b[4]; };
union num { long l; double d; struct point p; };

static struct point add(struct point a, struct point b) { struct point r = {a.x + b.x, a.y + b.y}; return r; }
static struct rect grow(struct rect r, int k) {
  r.lo.x -= k; r.lo.y -= k; r.hi.x += k; r.hi.y += k;
  return r;
}
static int area(const struct rect *r) { return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y); }

static struct big make_big(int seed) {
  struct big b;
  memset(&b, 0, sizeof b);
  for (int i = 0; i < 6; i++) b.a[i] = seed * (i + 1);
  b.d = seed / 4.0;
  b.tag = (char)('A' + seed % 26);
  return b;
}

static long sum_big(struct big b) { long s = 0; for (int i = 0; i < 6; i++) s += b.a[i]; return s + (long)b.d + b.tag; }

int main(void) {
  struct point p = {1, 2}, q = {10, 20};
  for (int i = 0; i < 3; i++) { p = add(p, q); struct point t = p; p = q; q = t; }
  printf("points %d,%d %d,%d\n", p.x, p.y, q.x, q.y);
  struct rect r = {{0, 0}, {3, 4}};
  r = grow(r, 2);
  printf("rect area %d\n", area(&r));
  struct big b = make_big(7), c;
  c = b;
  c.a[0] = 100;
  printf("big %ld %ld %c %.2f\n", sum_big(b), sum_big(c), c.tag, c.d);

  struct flags f = {0};
  f.ready = 1; f.mode = 5; f.delta = -7; f.count = 4000; f.wide = 1000000;
  for (int i = 0; i < 5; i++) { f.mode = (f.mode + 3) & 7; f.delta = (signed)(f.delta + 3); f.count += 20; }
  printf("flags %u %u %d %u %u size=%zu\n", f.ready, f.mode, (int)f.delta, f.count, f.wide, sizeof f);

  union word w;
  w.f = 1.0f;
  printf("word %08x bytes %u %u %u %u\n", w.u, w.b[0], w.b[1], w.b[2], w.b[3]);
  w.u = 0x40490fdbu;
  printf("float %.5f\n", w.f);
  union num n;
  n.d = 2.0;
  printf("num %lx\n", (unsigned long)n.l);
  n.p.x = 5; n.p.y = 6;
  printf("num.p %d %d\n", n.p.x, n.p.y);

  struct point arr[4];
  for (int i = 0; i < 4; i++) { arr[i].x = i; arr[i].y = i * i; }
  struct point s = {0, 0};
  for (int i = 0; i < 4; i++) s = add(s, arr[i]);
  printf("sum %d %d\n", s.x, s.y);
  return 0;
}
