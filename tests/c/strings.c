/* string.h functions on local buffers, hand-written string loops, snprintf. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

static void reverse(char *s) {
  size_t n = strlen(s);
  for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) { char t = s[i]; s[i] = s[j]; s[j] = t; }
}

static unsigned hash(const char *s) {
  unsigned h = 2166136261u;
  while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
  return h;
}

static int is_palindrome(const char *s) {
  const char *e = s + strlen(s);
  while (s < e) {
    if (!isalnum((unsigned char)*s)) { s++; continue; }
    if (!isalnum((unsigned char)e[-1])) { e--; continue; }
    if (tolower((unsigned char)*s) != tolower((unsigned char)e[-1])) return 0;
    s++; e--;
  }
  return 1;
}

int main(void) {
  char buf[64];
  strcpy(buf, "Hello");
  strcat(buf, ", world");
  printf("%s len=%zu\n", buf, strlen(buf));
  reverse(buf);
  printf("reversed: %s\n", buf);
  printf("cmp %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strncmp("abcx", "abcy", 3));
  printf("chr %s rchr %s str %s\n", strchr("banana", 'n'), strrchr("banana", 'a'), strstr("haystack", "st"));
  char mem[16];
  memset(mem, 'x', sizeof mem);
  memcpy(mem + 2, "copy", 4);
  memmove(mem + 4, mem + 2, 6);
  mem[15] = 0;
  printf("mem %s\n", mem);
  printf("hash %08x %08x\n", hash(""), hash("mem2reg"));
  const char *ps[] = {"A man, a plan, a canal: Panama", "not one", "", "Was it a car or a cat I saw?"};
  for (int i = 0; i < 4; i++) printf("palindrome[%d] = %d\n", i, is_palindrome(ps[i]));
  char out[32];
  int n = snprintf(out, sizeof out, "%05d|%-4s|%x|%c", 42, "ab", 255, 'q');
  printf("snprintf %d '%s'\n", n, out);
  char words[] = "split these words up";
  int count = 0;
  for (char *tok = strtok(words, " "); tok; tok = strtok(NULL, " ")) { count++; printf("tok %s\n", tok); }
  printf("count %d\n", count);
  return 0;
}
