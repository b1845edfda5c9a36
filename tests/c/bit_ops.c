/* Bit manipulation with char, short, int, long and unsigned types: sign and zero extension of
 * narrow locals, rotations, popcount loops, unsigned wrap-around. */
#include <stdint.h>
#include <stdio.h>

static uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> ((32 - r) & 31)); }
static int popcount(uint64_t v) { int c = 0; while (v) { v &= v - 1; c++; } return c; }
static uint32_t reverse_bits(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) { r = (r << 1) | (v & 1); v >>= 1; }
  return r;
}

static uint64_t xorshift(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13; x ^= x >> 7; x ^= x << 17;
  return *s = x;
}

int main(void) {
  signed char sc = -100;
  unsigned char uc = 200;
  short ss = -30000;
  unsigned short us = 60000;
  for (int i = 0; i < 3; i++) { sc = (signed char)(sc - 20); uc = (unsigned char)(uc + 30); ss = (short)(ss - 3000); us = (unsigned short)(us + 3000); }
  printf("narrow %d %u %d %u\n", sc, uc, ss, us);
  printf("rotl %08x %08x\n", rotl32(0x80000001u, 1), rotl32(0x12345678u, 12));
  printf("popcount %d %d\n", popcount(0), popcount(0xf0f0f0f0f0f0f0f0ull));
  printf("reverse %08x\n", reverse_bits(0x1u));
  uint64_t s = 88172645463325252ull;
  uint64_t acc = 0;
  for (int i = 0; i < 100; i++) acc += xorshift(&s) >> 32;
  printf("xorshift %llu\n", (unsigned long long)acc);
  unsigned u = 0;
  u -= 1;
  printf("wrap %u %u\n", u, u + 2);
  int32_t neg = -17;
  printf("shifts %d %u %d\n", neg >> 2, (uint32_t)neg >> 28, (int)((uint32_t)neg << 3));
  uint8_t bytes[4] = {0x12, 0x34, 0x56, 0x78};
  uint32_t word = 0;
  for (int i = 0; i < 4; i++) word = (word << 8) | bytes[i];
  printf("word %08x\n", word);
  long l = 1;
  for (int i = 0; i < 62; i++) l <<= 1;
  printf("long %ld\n", l);
  return 0;
}
