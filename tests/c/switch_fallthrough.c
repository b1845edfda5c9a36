/* switch with fallthrough, many cases, default in the middle, Duff's device, nested switch. */
#include <stdio.h>

static int fall(int x) {
  int r = 0;
  switch (x) {
  case 0: r += 1; /* fallthrough */
  case 1: r += 10;
  case 2: r += 100; break;
  case 3: r = -1;
  default: r *= 2;
  case 4: r += 1000; break;
  case 5: return 55;
  }
  return r;
}

static unsigned many(unsigned x) {
  unsigned a = x, b = 1;
  switch (x % 40) {
  case 0: a += 3; break;   case 1: b = a; break;     case 2: a ^= 5;
  case 3: b += 2; break;   case 4: a = b = 9; break; case 5: a *= 3; break;
  case 6: b <<= 2;         case 7: a -= 1; break;    case 8: b = 0; break;
  case 9: a = 11; break;   case 10: b = 12;          case 11: a += b; break;
  case 12: b ^= a; break;  case 13: a |= 64; break;  case 14: b &= 3; break;
  case 15: a = ~a;         case 16: b += 16; break;  case 17: a += 17; break;
  case 18: b += 18; break; case 19: { unsigned t = a; a = b; b = t; } break;
  case 20: a >>= 1; break; case 21: b *= 21; break;  case 22: a += 22;
  case 23: b += 23;        case 24: a += 24; break;  case 25: b = a + 25; break;
  case 26: a = 26; break;  case 27: b = 27; break;   case 28: a %= 7; break;
  case 29: b /= 2; break;  case 30: a += b; b += a; break;
  case 31: case 32: case 33: a = 3133; break;
  case 34: b = 34; /* fallthrough */
  case 35: a = b * 2; break;
  case 36: case 37: b = 3637;
  case 38: a += 38; break;
  default: a = 0; b = 0; break;
  }
  return a * 7 + b;
}

static void duff(char *to, const char *from, int count) {
  int n = (count + 7) / 8;
  switch (count % 8) {
  case 0: do { *to++ = *from++;
  case 7:      *to++ = *from++;
  case 6:      *to++ = *from++;
  case 5:      *to++ = *from++;
  case 4:      *to++ = *from++;
  case 3:      *to++ = *from++;
  case 2:      *to++ = *from++;
  case 1:      *to++ = *from++;
          } while (--n > 0);
  }
}

static int nested(int a, int b) {
  int r = 0;
  switch (a) {
  case 1:
    switch (b) { case 1: r = 11; break; case 2: r = 12; /* fall */ default: r += 100; }
    break;
  case 2:
    for (int i = 0; i < b; i++) {
      switch (i & 3) { case 0: r += 1; continue; case 1: r += 2; break; default: r += 4; }
      r *= 2;
    }
    break;
  default: r = -a;
  }
  return r;
}

static const char *sparse(long v) {
  switch (v) {
  case -1000000: return "minus million";
  case -1: return "minus one";
  case 0: return "zero";
  case 1L << 40: return "2^40";
  case 999: return "999";
  default: return "other";
  }
}

int main(void) {
  for (int x = -1; x < 8; x++) printf("fall(%d) = %d\n", x, fall(x));
  unsigned h = 0;
  for (unsigned x = 0; x < 200; x++) h = h * 31 + many(x);
  printf("many hash = %u\n", h);
  char src[40], dst[40];
  for (int i = 0; i < 40; i++) { src[i] = (char)('a' + i % 26); dst[i] = '.'; }
  for (int c = 1; c < 20; c += 6) {
    duff(dst, src, c);
    dst[c] = 0;
    printf("duff(%d) = %s\n", c, dst);
  }
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) printf("nested(%d,%d) = %d\n", a, b, nested(a, b));
  long vs[] = {-1000000, -1, 0, 1L << 40, 999, 5};
  for (int i = 0; i < 6; i++) printf("sparse(%ld) = %s\n", vs[i], sparse(vs[i]));
  return 0;
}
