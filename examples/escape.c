// Two slots that stay in memory: `total`'s address escapes to a call, and `flag` is
// volatile. `i` is promoted. `--explain` tells which use blocks each one.
// Regenerate escape.ll with examples/regen.sh.
void observe(int *p);

int sum_to(int n) {
    int total = 0;
    volatile int flag = 1;
    for (int i = 0; i < n; i++)
        total += i;
    observe(&total);
    return total + flag;
}
