/* bzip2 1.0.8 (the library's sources from the bzip2-sys crate, in this translation unit)
 * compressing and decompressing generated data at several block sizes and work factors: a real
 * program for the differential test. Build: clang -I<bzip2-sys>/bzip2-1.0.8 bzip2_app.c
 * (scripts/apps.py does it). */
#include "blocksort.c"
#include "huffman.c"
#include "crctable.c"
#include "randtable.c"
#include "compress.c"
#include "decompress.c"
#include "bzlib.c"

#include <stdio.h>
#include <string.h>

#define N 150000

static char data[N], packed[N + N / 100 + 700], back[N];

/* Text-like data with repeats, long runs and noise (a fixed linear congruential generator). */
static void fill(unsigned seed) {
  static const char *words[] = {"alpha ", "beta ", "gamma ", "delta ", "\n", "epsilon ", "zeta "};
  unsigned x = seed;
  int i = 0;
  while (i < N) {
    x = x * 1103515245u + 12345u;
    unsigned r = (x >> 16) & 0x7fff;
    if (r % 5 == 0) {
      int run = (int)(r % 25);
      while (run-- > 0 && i < N) data[i++] = (char)(r >> 3);
    } else if (r % 5 == 1 || r % 7 == 2) {
      data[i++] = (char)r;
    } else {
      const char *w = words[r % 7];
      while (*w && i < N) data[i++] = *w++;
    }
  }
}

static unsigned checksum(const char *p, unsigned n) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h;
}

int main(void) {
  int failures = 0;
  for (unsigned seed = 1; seed <= 3; seed++) {
    fill(seed);
    printf("seed %u: input %08x\n", seed, checksum(data, N));
    for (int block = 1; block <= 9; block += 4) {
      for (int work = 0; work <= 250; work += 125) {
        unsigned size = sizeof packed, got = N;
        int rc = BZ2_bzBuffToBuffCompress(packed, &size, data, N, block, 0, work);
        int rd = rc == BZ_OK ? BZ2_bzBuffToBuffDecompress(back, &got, packed, size, seed == 2, 0) : rc;
        int same = rd == BZ_OK && got == N && memcmp(back, data, N) == 0;
        failures += !same;
        printf("block %d work %3d: rc %d/%d, %u bytes, packed %08x, %s\n", block, work, rc, rd, size,
               checksum(packed, size), same ? "same" : "DIFFERENT");
      }
    }
  }
  unsigned size = 10, got = N;
  printf("too small: %d\n", BZ2_bzBuffToBuffCompress(packed, &size, data, N, 9, 0, 30));
  printf("corrupt: %d\n", BZ2_bzBuffToBuffDecompress(back, &got, data, 1000, 0, 0));
  printf("version %s\n", BZ2_bzlibVersion());
  return failures;
}
