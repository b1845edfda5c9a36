// The `max` function of seed 03 (tinyoptimizer's mem2reg article). Regenerate max.ll with
// examples/regen.sh.
int max(int a, int b) {
    int result = a;
    if (b > a) {
        result = b;
    }
    return result;
}
