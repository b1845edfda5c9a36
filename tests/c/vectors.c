/* GCC vector extension types as locals: arithmetic, element access, shuffles via subscripts,
 * vectors carried around loops (vector phis). */
#include <stdio.h>

typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef unsigned char v16u8 __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));

int main(void) {
  v4si a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
  for (int i = 0; i < 5; i++) { v4si t = a; a = b + a; b = t * 2; }
  printf("a %d %d %d %d\n", a[0], a[1], a[2], a[3]);
  printf("b %d %d %d %d\n", b[0], b[1], b[2], b[3]);
  v4si cmp = a > b;
  printf("cmp %d %d %d %d\n", cmp[0], cmp[1], cmp[2], cmp[3]);

  v4sf f = {0.5f, 1.5f, 2.5f, 3.5f};
  v4sf acc = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++) { acc += f * f; f = f - 0.25f; }
  printf("acc %.3f %.3f %.3f %.3f\n", (double)acc[0], (double)acc[1], (double)acc[2], (double)acc[3]);

  v16u8 bytes;
  for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(i * 17);
  v16u8 sum = bytes + bytes;
  unsigned total = 0;
  for (int i = 0; i < 16; i++) total += sum[i];
  printf("bytes total %u\n", total);

  v2df d = {1.0, -1.0};
  for (int i = 0; i < 10; i++) { d = d * 1.5 + (v2df){0.25, 0.5}; d[1] = -d[1]; }
  printf("d %.6f %.6f\n", d[0], d[1]);

  v4si rot = {1, 2, 3, 4};
  for (int i = 0; i < 3; i++) { int t = rot[0]; rot[0] = rot[1]; rot[1] = rot[2]; rot[2] = rot[3]; rot[3] = t; }
  printf("rot %d %d %d %d\n", rot[0], rot[1], rot[2], rot[3]);
  return 0;
}
