/* goto: loops built from labels, jumps out of nested loops, jumps into a loop body
 * (irreducible control flow), a state machine, and cleanup chains. */
#include <stdio.h>

static int goto_loop(int n) {
  int i = 0, s = 0;
top:
  if (i >= n) goto done;
  s += i * i;
  i++;
  goto top;
done:
  return s;
}

/* Two entries into the cycle {A, B}: irreducible. */
static unsigned irreducible(unsigned n, int enter_b) {
  unsigned x = 1, y = 2, k = 0;
  if (enter_b) goto B;
A:
  x = x * 3 + y;
  if (++k >= n) goto out;
B:
  y = y + x % 7;
  { unsigned t = x; x = y; y = t; }
  if (++k < n) goto A;
out:
  return x * 1000 + y % 1000;
}

static int escape(int target) {
  int found = -1;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++)
      for (int k = 0; k < 10; k++)
        if (i * 100 + j * 10 + k == target) { found = i + j + k; goto out; }
out:
  return found;
}

/* a little tokenizer state machine */
static int count_words(const char *s) {
  int words = 0;
  const char *p = s;
space:
  if (!*p) goto end;
  if (*p == ' ') { p++; goto space; }
  words++;
word:
  p++;
  if (!*p) goto end;
  if (*p == ' ') goto space;
  goto word;
end:
  return words;
}

static int cleanup(int fail_at) {
  int steps = 0;
  if (fail_at == 1) goto fail1;
  steps += 1;
  if (fail_at == 2) goto fail2;
  steps += 10;
  if (fail_at == 3) goto fail3;
  steps += 100;
  return steps;
fail3:
  steps -= 1000;
fail2:
  steps -= 10000;
fail1:
  return steps - 100000;
}

int main(void) {
  printf("goto_loop = %d %d\n", goto_loop(0), goto_loop(10));
  for (unsigned n = 1; n < 6; n++) printf("irreducible(%u) = %u %u\n", n, irreducible(n, 0), irreducible(n, 1));
  printf("escape = %d %d\n", escape(345), escape(1000));
  printf("words = %d %d %d\n", count_words(""), count_words("  hello  world "), count_words("a b c d"));
  for (int f = 0; f < 4; f++) printf("cleanup(%d) = %d\n", f, cleanup(f));
  return 0;
}
