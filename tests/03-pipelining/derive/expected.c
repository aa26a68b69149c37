/*
 * expected.c -- the derivations of chapter 3's public tests' expected values
 * (tests/03-pipelining/test_pipelining.c), printed as tests/03-pipelining/expected.h.
 *
 * The instructor's copy only: each value is a closed form of the book or a paper with
 * its published inputs, or, for the cuts of Exercise 3.10, an exhaustive count over
 * every cut (small models) or a dynamic programme over every cut (the 126-layer model),
 * written here independently of solutions/ and exercises/. Uses only the C library and
 * ../../derive/derive.h.
 *
 *   cc -std=c11 -Wall -Wextra -Werror -ffp-contract=off tests/03-pipelining/derive/expected.c \
 *      -o $TMPDIR/derive -lm && $TMPDIR/derive > tests/03-pipelining/expected.h
 * (or `make expected CH=03`).
 */
#include "../../derive/derive.h"

/* ---- 3.10 balance: cuts of layers of unequal cost ----------------------------------- */

#define MAX_LAYERS 200
#define MAX_STAGES 20

/* The slowest stage of the cut whose stage s begins at first[s]. */
static long long slowest_of(const long long *ns, int layers, int stages, const int *first)
{
    long long worst = 0;
    for (int s = 0; s < stages; s++) {
        int end = s + 1 < stages ? first[s + 1] : layers;
        long long t = 0;
        for (int i = first[s]; i < end; i++) t += ns[i];
        if (t > worst) worst = t;
    }
    return worst;
}

/* Every cut, by the contract's definition: the least slowest stage, and among the cuts
 * that reach it the one whose stage 0, then 1, ... holds the most layers (the largest
 * first[1], then first[2], ...). Enumerates the cuts in lexicographic order of first[]. */
static long long exhaustive(const long long *ns, int layers, int stages, int *best)
{
    int first[MAX_STAGES];
    long long least = -1;
    for (int s = 0; s < stages; s++) first[s] = s;
    for (;;) {
        long long t = slowest_of(ns, layers, stages, first);
        int better = least < 0 || t < least;
        if (!better && t == least)
            for (int s = 1; s < stages; s++)
                if (first[s] != best[s]) {
                    better = first[s] > best[s];
                    break;
                }
        if (better) {
            least = t;
            memcpy(best, first, sizeof first);
        }
        int s = stages - 1; /* next combination of first[1..stages-1] in 1..layers-1 */
        while (s >= 1 && first[s] == layers - (stages - s)) s--;
        if (s < 1) break;
        first[s]++;
        for (int r = s + 1; r < stages; r++) first[r] = first[r - 1] + 1;
    }
    return least;
}

/* The same by a dynamic programme over every cut: can[k][j] says the layers j.. split into
 * exactly k runs of at most `limit` each; the least limit for which can[stages][0] holds is
 * found by bisection, since a larger limit never cuts fewer ways. Then the ties: stage s takes
 * the longest run that leaves a suffix can[] still cuts. O(stages layers^2) per limit. */
static int can[MAX_STAGES + 1][MAX_LAYERS + 1];

static void feasible(const long long *ns, int layers, int stages, long long limit)
{
    memset(can, 0, sizeof can);
    can[0][layers] = 1;
    for (int k = 1; k <= stages; k++)
        for (int j = 0; j < layers; j++) {
            long long t = 0;
            for (int e = j + 1; e <= layers && !can[k][j]; e++) {
                t += ns[e - 1];
                if (t > limit) break;
                can[k][j] = can[k - 1][e];
            }
        }
}

static long long programme(const long long *ns, int layers, int stages, int *best)
{
    long long lo = 1, hi = 0; /* can[stages][0] holds at hi, the whole model on a stage */
    for (int i = 0; i < layers; i++) hi += ns[i];
    while (lo < hi) { /* a larger limit never cuts fewer ways */
        long long mid = lo + (hi - lo) / 2;
        feasible(ns, layers, stages, mid);
        if (can[stages][0])
            hi = mid;
        else
            lo = mid + 1;
    }
    long long least = lo;
    feasible(ns, layers, stages, least);
    int j = 0;
    for (int s = 0; s < stages; s++) {
        best[s] = j;
        int take = 0;
        long long t = 0;
        for (int e = j + 1; e <= layers; e++) {
            t += ns[e - 1];
            if (t > least) break;
            if (can[stages - s - 1][e]) take = e;
        }
        j = take;
    }
    return least;
}

static void derive_cut(const char *name, const long long *ns, int layers, int stages,
                       int use_exhaustive, const char *source)
{
    int best[MAX_STAGES], check[MAX_STAGES];
    long long least = programme(ns, layers, stages, best);
    if (use_exhaustive) { /* two derivations must agree */
        long long other = exhaustive(ns, layers, stages, check);
        if (other != least || memcmp(best, check, sizeof(int) * (size_t)stages) != 0) {
            fprintf(stderr, "derive: %s: the exhaustive count and the programme differ\n",
                    name);
            derive_failed = 1;
        }
    }
    if (slowest_of(ns, layers, stages, best) != least) {
        fprintf(stderr, "derive: %s: the cut does not reach its slowest stage\n", name);
        derive_failed = 1;
    }
    char key[64], text[512];
    snprintf(key, sizeof key, "E_BALANCE_%s_SLOWEST_NS", name);
    derive_int(key, least, source);
    for (int s = 1; s < stages; s++) {
        snprintf(key, sizeof key, "E_BALANCE_%s_FIRST_LAYER_%d", name, s);
        snprintf(text, sizeof text, "stage %d's first layer of the same cut", s);
        derive_int(key, best[s], text);
    }
}

static void derive_balance(void)
{
    long long ns[MAX_LAYERS];

    /* 10 equal layers of 2 ms on 4 stages */
    for (int i = 0; i < 10; i++) ns[i] = 2000000;
    derive_cut("EQUAL", ns, 10, 4, 1,
               "10 layers of 2 ms on 4 stages: every cut counted (§3.7.1 (Layers of unequal "
               "cost), the contract's ties)");

    /* DeepSeek-V3: 61 layers, the first 3 dense (first_k_dense_replace = 3,
     * config_671B.json), the other 58 MoE; a profile of 300 us per dense layer and
     * 400 us per MoE layer, on 4 stages */
    for (int i = 0; i < 61; i++) ns[i] = i < 3 ? 300000 : 400000;
    derive_cut("DENSE_MOE", ns, 61, 4, 1,
               "DeepSeek-V3's 3 dense and 58 MoE layers at 300 and 400 us on 4 stages: "
               "every cut counted (§3.7.1 (Layers of unequal cost))");

    /* 8 layers of 1 ms and an output layer (the unembedding) of 5 ms, on 4 stages */
    for (int i = 0; i < 8; i++) ns[i] = 1000000;
    ns[8] = 5000000;
    derive_cut("HEAD", ns, 9, 4, 1,
               "8 layers of 1 ms and an output layer of 5 ms on 4 stages: every cut counted "
               "(§3.7.1 (Layers of unequal cost))");

    /* Llama 3.1 405B's depth, 126 layers (Llama 3 report, table 3), with the
     * test's profile 1 ms + 1 us x ((37 i) mod 101) for layer i, on 16 stages: C(125, 15)
     * cuts, so a dynamic programme over them */
    for (int i = 0; i < 126; i++) ns[i] = 1000000 + 1000LL * ((37 * i) % 101);
    derive_cut("PROFILE", ns, 126, 16, 0,
               "126 layers of the test's profile on 16 stages: the least slowest stage over "
               "every cut, by a dynamic programme (§3.7.1 (Layers of unequal cost))");
}

int main(void)
{
    derive_begin("03-pipelining");
    derive_balance();
    return derive_end();
}
