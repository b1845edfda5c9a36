// A loop that swaps two variables: after mem2reg its header holds two phis that read each
// other (the "swap problem"), which phi-elim must sequentialize with a temporary.
// Regenerate swap.ll with examples/regen.sh.
int swap_loop(int a, int b, int n) {
    for (int i = 0; i < n; i++) {
        int t = a;
        a = b;
        b = t;
    }
    return a - b;
}
