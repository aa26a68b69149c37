/*
 * expected.c -- the derivations of chapter 3's public tests' expected values
 * (tests/03-pipelining/test_pipelining*.c), printed as tests/03-pipelining/expected.h.
 *
 * The instructor's copy only: each value is a closed form of the book or a paper with
 * its published inputs, or, for the cuts of Exercise 3.10, an exhaustive count over
 * every cut (small models) or a dynamic programme over every cut (the 126-layer model),
 * written here apart from the reference solution and the exercise stubs. Uses only the C
 * library and ../../derive/derive.h.
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
               "every cut (§3.7.1 (Layers of unequal cost))");
}

/* ---- 3.4 schedule_order, 3.5 interleaved_order: the orders' counts -------------------- */

static void derive_orders(void)
{
    /* 1F1B, Megatron figure 4 (top): P = 4, M = 8; stage i runs P - i forwards (its
     * warm-up, P - i - 1, and the steady phase's first) before its first backward */
    for (int i = 0; i < 4; i++) {
        char key[64];
        snprintf(key, sizeof key, "E_1F1B_P4_M8_STAGE%d_FORWARDS_FIRST", i);
        derive_int(key, 4 - i,
                   "forwards before the first backward, 1F1B, P = 4, M = 8 (Narayanan et al. "
                   "2021, section 2.2.1 and figure 4; §3.4.2 (A schedule simulator))");
    }
    /* interleaved, Megatron-LM schedules.py: warm-up 2 (p - i - 1) + (v - 1) p, capped at
     * m v; the k-th forward's chunk (k / p) % v, a backward's v - 1 - (k / p) % v */
    int p = 4, v = 2, m = 8;
    int warm0 = 2 * (p - 0 - 1) + (v - 1) * p;
    derive_int("E_INTERLEAVED_P4_M8_V2_STAGE0_FORWARDS_FIRST", warm0 + 1,
               "forwards before the first backward of stage 0, p = 4, m = 8, v = 2 "
               "(Megatron-LM schedules.py, Narayanan et al. 2021 figure 4)");
    derive_int("E_INTERLEAVED_P4_M8_V2_LAST_STAGE_WARMUP", 2 * (p - 3 - 1) + (v - 1) * p,
               "warm-up of the last stage, p = 4, m = 8, v = 2 (Megatron-LM schedules.py)");
    (void)m;
    p = 2, v = 3;
    int warm = 2 * (p - 0 - 1) + (v - 1) * p; /* 6 < m v = 12 */
    derive_int("E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD0_AT", warm + 1,
               "position of stage 0's first backward, p = 2, m = 4, v = 3 (Megatron-LM "
               "schedules.py)");
    derive_int("E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD0_CHUNK", v - 1 - (0 / p) % v,
               "chunk of that backward (Megatron-LM schedules.py)");
    derive_int("E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD2_AT", warm + 2 * 2 + 1,
               "position of stage 0's third backward, p = 2, m = 4, v = 3 (Megatron-LM "
               "schedules.py)");
    derive_int("E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD2_CHUNK", v - 1 - (2 / p) % v,
               "chunk of that backward (Megatron-LM schedules.py)");
}

/* ---- 3.6 simulate: the measured batch against the closed forms --------------------- */

static void derive_simulate(void)
{
    double f = 1, b = 2;
    int p = 4, m = 8;
    derive_real("E_SIM_P4_M8_GPIPE_MAKESPAN_S", (m + p - 1) * (f + b),
                "GPipe batch, p = 4, m = 8, t_F = 1, t_B = 2 (Huang et al. 2019, section 2.3)");
    derive_real("E_SIM_P4_M8_BUSY_S", m * (f + b), "work per stage, the same batch");
    derive_real("E_SIM_P4_M8_GPIPE_IDLE_S", (p - 1) * (f + b),
                "idle time per stage (Huang et al. 2019, section 2.3)");
    derive_real("E_SIM_P4_M8_BUBBLE_FRACTION", (p - 1.0) / (m + p - 1),
                "bubble of GPipe and 1F1B, p = 4, m = 8 (Huang et al. 2019; Narayanan et al. "
                "2021, section 2.2.1)");
    derive_real("E_SIM_P4_M8_BUBBLE_OVER_IDEAL", (p - 1.0) / m,
                "bubble over the ideal time, p = 4, m = 8 (Narayanan et al. 2021, eq. 1)");
    int v = 2;
    derive_real("E_SIM_P4_M8_V2_MAKESPAN_S", (m + (p - 1.0) / v) * (f + b),
                "interleaved batch, p = 4, m = 8, v = 2 (Narayanan et al. 2021, section "
                "2.2.2)");
    derive_real("E_SIM_P4_M8_V2_BUBBLE_FRACTION", (p - 1.0) / (v * m + p - 1),
                "its idle share (Narayanan et al. 2021, section 2.2.2)");
    derive_real("E_SIM_P4_M8_V2_BUBBLE_OVER_IDEAL", (p - 1.0) / (v * m),
                "its bubble over the ideal time (Narayanan et al. 2021, section 2.2.2)");
    derive_real("E_SIM_P4_M8_GPIPE_PEAK", m,
                "GPipe's peak micro-batches in flight (Narayanan et al. 2021, section 2.2.1)");
    derive_real("E_SIM_P4_M8_1F1B_PEAK", p,
                "1F1B's peak (Narayanan et al. 2021, section 2.2.1)");
    derive_real("E_SIM_P4_M8_V2_PEAK", (2.0 * (p - 1) + (v - 1) * p + 1) / v,
                "interleaved peak (Megatron-LM schedules.py)");
    derive_real("E_SIM_P8_M2_1F1B_PEAK", 2, "1F1B's peak, 2 micro-batches on 8 stages "
                "(Narayanan et al. 2021, section 2.2.1)");
}

/* ---- 3.7 decode_loop ------------------------------------------------------------------ */

static void derive_decode(void)
{
    /* lecture 72:48-76:39: a 20 ms step over 4 racks, hops of 2 ms (the book's figure) */
    double step = 20e-3, hop = 2e-3;
    int p = 4;
    derive_real("E_DECODE_P4_TOKEN_S", step + p * hop,
                "time between tokens, 20 ms over 4 racks, 2 ms hops (§3.5 (Decode is a loop))");
    derive_real("E_DECODE_P4_HOPS_S", p * hop, "what the hops add (§3.5 (Decode is a loop))");
    derive_int("E_DECODE_P4_MICROBATCHES", (int)ceil((step + p * hop) / (step / p) - 1e-9),
               "micro-batches in flight, the same loop (§3.5 (Decode is a loop))");
    derive_real("E_DECODE_P4_TOKENS_PER_S", 2048 / (step / p),
                "tokens per second, the same loop, micro-batches of 2,048 (§3.5 (Decode is a loop))");
    derive_int("E_DECODE_P4_STAGE_2MS_MICROBATCHES", (int)ceil(4 * (2e-3 + hop) / 2e-3 - 1e-9),
               "micro-batches, 4 stages of 2 ms, hops of 2 ms (§3.5 (Decode is a loop))");
    derive_real("E_DECODE_P2_TOKEN_S", 2 * (10e-3 + hop),
                "2 stages of 10 ms, hops of 2 ms (§3.5 (Decode is a loop))");
    derive_int("E_DECODE_P2_MICROBATCHES", (int)ceil(2 * (10e-3 + hop) / 10e-3 - 1e-9),
               "micro-batches, the same loop (§3.5 (Decode is a loop))");
}

/* ---- 3.8 capacity, 3.9 split: the lecture's model (lecture 64:06-72:48) --------------- */

static void derive_capacity(void)
{
    double w = 1e12, kv_token = 2048, ctx = 200e3, seqs = 2000;
    int chips = 64;
    double kv = seqs * ctx * kv_token / chips; /* per GPU with M = P */
    for (int p = 1; p <= 8; p *= 2) {
        char key[64];
        snprintf(key, sizeof key, "E_CAP_WEIGHTS_PER_GPU_P%d", p);
        derive_real(key, w / (chips * (double)p),
                    "weights per GPU, 1 TB on 64 GPUs a stage (§3.6 (The capacity equation))");
    }
    derive_real("E_CAP_KV_PER_GPU", kv, "KV per GPU of the lecture's model with P micro-batches "
                "on P stages (§3.6 (The capacity equation), lecture 70:40-72:48)");
    derive_real("E_CAP_KV_PER_GPU_ONE_MICROBATCH_P4", kv / 4,
                "KV per GPU with one micro-batch on 4 stages (§3.6 (The capacity equation))");
    derive_int("E_CAP_STAGES_20GB", (int)ceil(w / (chips * (20e9 - kv))),
               "fewest stages on 20 GB GPUs (§3.6 (The capacity equation))");
    derive_real("E_CAP_HBM_FIVE_STAGES_EXACTLY", kv + w / chips / 5,
                "the HBM that 5 stages fill exactly (§3.6 (The capacity equation))");
    derive_real("E_CAP_HBM_THOUSAND_STAGES_EXACTLY", kv + w / chips / 1000,
                "the HBM that 1,000 stages fill exactly (§3.6 (The capacity equation))");
    derive_int("E_CAP_STAGES_72_CHIPS",
               (int)ceil(w / 72 / (14.85e9 - seqs * ctx * kv_token / 72) - 1e-9), "fewest stages on 72 GPUs of 14.85 GB (§3.6 (The capacity "
               "equation))");
    derive_int("E_CAP_STAGES_8_BYTES_LEFT", (long long)(w / (chips * 8.0)), "fewest stages with 8 bytes of HBM left "
               "over (§3.6 (The capacity equation))");
    derive_int("E_CAP_STAGES_WEIGHTS_ALONE_5GB", (int)ceil(w / (chips * 5e9)),
               "fewest stages on 5 GB GPUs without KV cache (§3.6 (The capacity equation))");

    /* split: the same model, a 20 ms step on one rack */
    double kv_mb = seqs * ctx * kv_token; /* one micro-batch's cache, all layers */
    derive_real("E_SPLIT_ONE_RACK_BYTES_PER_GPU", (w + kv_mb) / chips,
                "the model on one rack of 64 GPUs, one micro-batch (§3.7 (The best split of a "
                "model over racks))");
    derive_real("E_SPLIT_NO_HOPS_BYTES_PER_GPU", w / (chips * 3.0) + kv_mb / chips,
                "bytes per GPU, 60 layers on 20 GB GPUs without hops (§3.7 (The best split of "
                "a model over racks))");
    derive_int("E_SPLIT_NO_HOPS_STAGES", (int)ceil(w / (chips * (20e9 - kv))), "fewest stages, 60 layers on 20 GB GPUs without hops "
               "(§3.7 (The best split of a model over racks))");
    /* DeepSeek-V3's 61 layers on 2 stages of 8 GPUs of 80 GB, hops of 0.1 ms */
    double share = 31.0 / 61;
    double trip = 20e-3 + 2 * 0.1e-3;
    int mb = (int)ceil(trip / (share * 20e-3) - 1e-9);
    derive_int("E_SPLIT_61_STAGES", (1e12 + 1e8) / 8 > 80e9 ? 2 : 1, "61 layers, 1 TB on 8 GPUs of 80 GB (§3.7 (The best "
               "split of a model over racks))");
    derive_int("E_SPLIT_61_FULLEST", (61 + 1) / 2, "layers of the fullest stage, the same split");
    derive_int("E_SPLIT_61_MICROBATCHES", mb, "micro-batches in flight, the same split "
               "(§3.7 (The best split of a model over racks))");
    derive_real("E_SPLIT_61_TOKEN_S", trip, "time between tokens, the same split");
    derive_real("E_SPLIT_61_BYTES_PER_GPU", share * (1e12 + mb * 100 * 1000 * 1000.0) / 8,
                "bytes per GPU, the same split (§3.7 (The best split of a model over racks))");
    derive_int("E_SPLIT_61_MIN15_STAGES", 21.0 / 61 * 1e12 / 8 > 40e9 ? 4 : 3, "61 layers, 1 TB on 8 GPUs of 40 GB, at least 15 "
               "layers a stage (§3.7 (The best split of a model over racks))");
    derive_int("E_SPLIT_61_MIN15_FULLEST", (61 + 3) / 4, "layers of the fullest stage, the same split");
    derive_real("E_SPLIT_61_MIN15_BYTES_PER_GPU", 16.0 / 61 * 1e12 / 8,
                "bytes per GPU, the same split");
}

/* ---- 3.11 max_microbatch: the lecture's model again, a 20 ms step on one rack ---------- */

/* Micro-batches that keep P stages busy round the loop of §3.5 (Decode is a loop), in
 * whole microseconds so that the count is exact: a trip of t_step + P t_hop over a stage
 * of t_step / P is P + P^2 t_hop / t_step stage-times, rounded up; one stage, no hop. */
static long long loop_microbatches(long long p, long long step_us, long long hop_us)
{
    if (p == 1) return 1;
    long long extra = p * p * hop_us; /* P^2 t_hop, over t_step */
    return p + (extra + step_us - 1) / step_us;
}

/* The most whole sequences a micro-batch holds: every GPU holds 1/(nP) of the weights
 * and 1/(nP) of the cache of every sequence of the M micro-batches in flight (§3.6 (The
 * capacity equation) with B = M B_micro): B_micro = floor((C n P - W) / (M L b)), in
 * integers (every input is a whole number of bytes and tokens). */
static long long most_seqs(long long hbm, long long p, long long m)
{
    long long w = 1000000000000LL, n = 64, seq = 200000LL * 2048; /* bytes a sequence */
    long long num = hbm * n * p - w;
    return num < 0 ? -1 : num / (m * seq);
}

static void derive_max_microbatch(void)
{
    long long hbm = 20000000000LL, step_us = 20000, hop_us = 2000;
    derive_int("E_MAXMB_P4_SEQS", most_seqs(hbm, 4, 4),
               "most sequences a micro-batch, 4 stages of 64 GPUs of 20 GB, no hops "
               "(§3.6 (The capacity equation), §3.5 (Decode is a loop))");
    long long m4 = loop_microbatches(4, step_us, hop_us);
    derive_int("E_MAXMB_P4_HOPS_MICROBATCHES", m4,
               "micro-batches in flight, 4 stages, 2 ms hops (§3.5 (Decode is a loop))");
    derive_int("E_MAXMB_P4_HOPS_SEQS", most_seqs(hbm, 4, m4),
               "most sequences a micro-batch, the same, 2 ms hops (§3.6 (The capacity equation), §3.5 (Decode is a loop))");
    derive_int("E_MAXMB_P1_SEQS", most_seqs(hbm, 1, 1),
               "most sequences a micro-batch on one rack of 64 GPUs of 20 GB (§3.6 (The capacity equation))");
    derive_int("E_MAXMB_P2_SEQS", most_seqs(hbm, 2, 2), "the same on 2 stages, no hops");
    derive_int("E_MAXMB_P8_SEQS", most_seqs(hbm, 8, 8), "the same on 8 stages, no hops");
    long long m6 = loop_microbatches(6, step_us, hop_us);
    derive_int("E_MAXMB_P6_HOPS_MICROBATCHES", m6, "micro-batches, 6 stages, 2 ms hops (§3.5 (Decode is a loop))");
    /* the HBM that M micro-batches of B sequences fill exactly: (W + M B L b) / (n P) */
    derive_real("E_MAXMB_HBM_P6_1001_EXACTLY",
                (1e12 + (double)m6 * 1001 * 200000 * 2048) / (64 * 6),
                "HBM that 1,001 sequences a micro-batch fill exactly on 6 stages, 2 ms hops");
    derive_real("E_MAXMB_HBM_P4_2000_EXACTLY",
                (1e12 + (double)m4 * 2000 * 200000 * 2048) / (64 * 4),
                "HBM that 2,000 sequences a micro-batch fill exactly on 4 stages, 2 ms hops");
    derive_real("E_MAXMB_HBM_P4_WEIGHTS_ONLY", 1e12 / (64 * 4),
                "HBM that the weights' share fills exactly on 4 stages (§3.6 (The capacity equation))");
    derive_real("E_MAXMB_HBM_P4_ONE_SEQ_EXACTLY", (1e12 + 4.0 * 200000 * 2048) / (64 * 4),
                "HBM that one sequence a micro-batch fills exactly on 4 stages, no hops");
}

int main(void)
{
    derive_begin("03-pipelining");
    derive_orders();
    derive_simulate();
    derive_decode();
    derive_capacity();
    derive_balance();
    derive_max_microbatch();
    return derive_end();
}
