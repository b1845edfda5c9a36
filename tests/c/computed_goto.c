/* GNU computed goto (&&label, goto *p): a threaded bytecode interpreter whose registers are
 * locals live across every indirectbr edge. */
#include <stdio.h>

enum { PUSH, ADD, SUB, MUL, DUP, SWAP, JNZ, DEC, PRINT, HALT };

static long run(const int *code) {
  static void *const table[] = {&&op_push, &&op_add, &&op_sub, &&op_mul, &&op_dup,
                                &&op_swap, &&op_jnz, &&op_dec, &&op_print, &&op_halt};
  long stack[64];
  int sp = 0, pc = 0;
  long acc = 0, steps = 0;
#define NEXT do { steps++; goto *table[code[pc++]]; } while (0)
  NEXT;
op_push: stack[sp++] = code[pc++]; NEXT;
op_add: sp--; stack[sp - 1] += stack[sp]; NEXT;
op_sub: sp--; stack[sp - 1] -= stack[sp]; NEXT;
op_mul: sp--; stack[sp - 1] *= stack[sp]; NEXT;
op_dup: stack[sp] = stack[sp - 1]; sp++; NEXT;
op_swap: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } NEXT;
op_jnz: { int target = code[pc++]; if (stack[sp - 1] != 0) pc = target; } NEXT;
op_dec: stack[sp - 1] -= 1; NEXT;
op_print: printf("  top=%ld\n", stack[sp - 1]); acc += stack[sp - 1]; NEXT;
op_halt:
#undef NEXT
  return acc * 1000 + steps;
}

/* label addresses chosen by data, with locals changed on each path */
static int pick(int n) {
  void *labels[3] = {&&L0, &&L1, &&L2};
  int a = 1, b = 2, i = 0;
again:
  if (i == n) return a * 10 + b;
  goto *labels[i++ % 3];
L0: a += b; goto again;
L1: { int t = a; a = b; b = t; } goto again;
L2: b *= 2; goto again;
}

int main(void) {
  /* straight-line code that uses every stack operation once */
  const int prog[] = {PUSH, 1, PUSH, 5, DUP, PRINT, SWAP, DUP, PUSH, 0, ADD, SWAP,
                      SUB, PUSH, 3, MUL, PRINT, HALT};
  printf("run1 = %ld\n", run(prog));
  const int countdown[] = {PUSH, 4, PRINT, DEC, JNZ, 2, PRINT, HALT};
  printf("run2 = %ld\n", run(countdown));
  for (int n = 0; n < 8; n++) printf("pick(%d) = %d\n", n, pick(n));
  return 0;
}
