/*
 * expected.c -- the expected values of chapter 6's public tests where deriving them
 * is the exercise (two and three stars), with their sources: the instructor's copy.
 * It prints tests/06-revnets/expected.h (`make expected CH=06`); the public tests
 * compare with the E_ names. Uses only the C library and derive.h, never the code
 * the tests check.
 */
#include "../../derive/derive.h"

/* ---- 6.6 rounds_to_avalanche: the test families' exact avalanche --------------- */

/* The window family (member r XORs x << k for k = 0..r): linear, so a flip of bit j
 * toggles the output bits j + k below 64, min(r + 1, 64 - j) of them, whatever x is.
 * Its exact avalanche is their sum over j, over 64 * 64. */
static double window_avalanche(int r)
{
    long flips = 0;
    for (int j = 0; j < 64; j++)
        flips += (r + 1 < 64 - j) ? r + 1 : 64 - j;
    return flips / 4096.0;
}

/* The fewest r >= 1 whose avalanche is within tol of 1/2 (0: none up to max). The
 * window family's avalanche only grows with r, so the first r is the answer. */
static long window_rounds(double tol, int max)
{
    for (int r = 1; r <= max; r++)
        if (fabs(window_avalanche(r) - 0.5) <= tol)
            return r;
    return 0;
}

/* The ramp family: member r is the XOR of c rotations, c = 1 + floor(31 r / span)
 * below span (32 from span on), exact avalanche c / 64. Within tol = 1/16 of 1/2
 * means c >= 28, i.e. floor(31 r / span) >= 27, i.e. r >= ceil(27 span / 31). */
static long long ramp_rounds_tol_1_16(long long span)
{
    return (27 * span + 30) / 31;
}

/* ---- 6.10 stored_backprop: one block of one number a stream, by hand ------------ */

/* Gomez et al. 2017 eq. 2 with f = 0.9, g = -0.6 at (x1, x2) = (0.3, -0.8), loss
 * (y1^2 + y2^2) / 2, differentiated by the chain rule. */
static void chain_rule_by_hand(void)
{
    const double f = 0.9, g = -0.6, x1 = 0.3, x2 = -0.8;
    double a = tanh(f * x2), y1 = x1 + a, c = tanh(g * y1), y2 = x2 + c;
    double dy1 = y1 + y2 * (1 - c * c) * g;
    const char *src = "one RevNet block, one number a stream (Gomez et al. 2017, eq. 2), "
                      "the chain rule by hand";
    derive_real("E_CHAIN_LOSS", (y1 * y1 + y2 * y2) / 2, src);
    derive_real("E_CHAIN_GRAD_X1", dy1, src);
    derive_real("E_CHAIN_GRAD_X2", y2 + dy1 * (1 - a * a) * f, src);
    derive_real("E_CHAIN_GRAD_WF", dy1 * (1 - a * a) * x2, src);
    derive_real("E_CHAIN_GRAD_WG", y2 * (1 - c * c) * y1, src);
}

/* ---- 6.12 activation_memory: Korthikanti et al. 2022, arXiv:2205.05198 ---------- */

/* GPT-3 175B (Table 3): s = 2048, b = 1, h = 12288, a = 96, L = 96, t = 8.
 * MT-NLG 530B (Table 3): h = 20480, a = 128. Bytes per layer, eq. 1 to 6. */
#define GPT3_SBH (2048.0 * 12288)
#define MTNLG_SBH (2048.0 * 20480)
#define GPT3_ATT (5.0 * 96 * 2048 / 12288)   /* 5as/h, section 5: 80 */
#define MTNLG_ATT (5.0 * 128 * 2048 / 20480) /* 64 */

static void activation_memory(void)
{
    derive_real("E_ACT_GPT3", GPT3_SBH * (34 + GPT3_ATT),
                "GPT-3, one undivided layer (Korthikanti et al. 2022, eq. 1, section 5)");
    derive_real("E_ACT_GPT3_TP8", GPT3_SBH * (10 + 24.0 / 8 + GPT3_ATT / 8),
                "GPT-3, tensor parallelism t = 8 (Korthikanti et al. 2022, eq. 2)");
    derive_real("E_ACT_GPT3_TP8_SP", GPT3_SBH / 8 * (34 + GPT3_ATT),
                "GPT-3, tensor and sequence parallelism t = 8 (Korthikanti et al. 2022, eq. 4)");
    derive_real("E_ACT_GPT3_TP8_SP_MODEL", 96 * (GPT3_SBH / 8 * (34 + GPT3_ATT)),
                "GPT-3's 96 layers on the first pipeline stage, t = 8 with sequence "
                "parallelism (Korthikanti et al. 2022, eq. 5)");
    derive_real("E_ACT_MTNLG_TP8", MTNLG_SBH * (10 + 24.0 / 8 + MTNLG_ATT / 8),
                "MT-NLG, t = 8 (Korthikanti et al. 2022, eq. 2, Table 3)");
    derive_real("E_ACT_MTNLG_TP8_SELECTIVE", MTNLG_SBH * (10 + 24.0 / 8),
                "MT-NLG, t = 8, selective recomputation (Korthikanti et al. 2022, Table 2)");
    derive_real("E_ACT_MTNLG_TP8_SP_SELECTIVE", MTNLG_SBH * 34.0 / 8,
                "MT-NLG, t = 8, sequence parallelism and selective recomputation "
                "(Korthikanti et al. 2022, eq. 6)");
    derive_real("E_ACT_GPT3_FULL", 2 * GPT3_SBH,
                "GPT-3, full recomputation without sequence parallelism (Korthikanti et "
                "al. 2022, section 5 and Table 2)");
    derive_real("E_ACT_GPT3_FULL_MODEL", 2 * GPT3_SBH * 96,
                "GPT-3's 96 layers under full recomputation (Korthikanti et al. 2022, Table 2)");
    derive_real("E_ACT_GPT3_FULL_TP8_SP", 2 * GPT3_SBH / 8,
                "GPT-3, full recomputation with sequence parallelism t = 8 (Korthikanti et "
                "al. 2022, Table 2; Megatron-LM, megatron/model/transformer.py)");
    derive_real("E_RECOMPUTE_FULL", 1.0 / 3,
                "full recomputation (Korthikanti et al. 2022, Appendix A)");
    derive_real("E_RECOMPUTE_SELECTIVE_GPT3", 2048.0 / (18 * 12288.0 + 3 * 2048.0),
                "GPT-3, selective recomputation (Korthikanti et al. 2022, Appendix A)");
    derive_real("E_ATTENTION_CORE_SHARE_GPT3", GPT3_ATT / (34 + GPT3_ATT),
                "GPT-3's attention core in an undivided layer (Korthikanti et al. 2022, eq. 1)");
    derive_real("E_SP_SELECTIVE_SAVING_GPT3", (10 + 3.0 + 10) / (34.0 / 8),
                "GPT-3, t = 8: eq. 2 over eq. 6 (Korthikanti et al. 2022, section 6.1)");
    derive_real("E_MODEL_STATE_GPT3_T8_P8", 175e9 * 16 / 64,
                "GPT-3 175e9 parameters, mixed-precision Adam (ZeRO, section 3.1) on t = 8, "
                "p = 8 (Korthikanti et al. 2022, Table 3)");
    derive_real("E_MODEL_STATE_1B", 16e9,
                "1e9 parameters, mixed-precision Adam on one GPU (ZeRO, section 3.1)");
}

/* ---- 6.13 checkpoint_plan: section 6.8's model, worked by hand ------------------ */

/* A plan's five numbers under E_PLAN_<name>_... . The peak of section 6.8's model:
 * the checkpoints, plus the larger of the stored layers and one segment recomputed. */
static void plan(const char *name, int stored, int segment, int segments, double layer_bytes,
                 double input_bytes, int layers, const char *source)
{
    char buf[80];
    double peak = segments * input_bytes + layer_bytes * (stored > segment ? stored : segment);
    snprintf(buf, sizeof buf, "E_PLAN_%s_STORED", name);
    derive_int(buf, stored, source);
    snprintf(buf, sizeof buf, "E_PLAN_%s_SEGMENT", name);
    derive_int(buf, segment, source);
    snprintf(buf, sizeof buf, "E_PLAN_%s_SEGMENTS", name);
    derive_int(buf, segments, source);
    snprintf(buf, sizeof buf, "E_PLAN_%s_PEAK", name);
    derive_real(buf, peak, source);
    snprintf(buf, sizeof buf, "E_PLAN_%s_EXTRA", name);
    derive_real(buf, (double)(layers - stored) / (3.0 * layers), source);
}

static void checkpoint_plans(void)
{
    plan("ALL_FIT", 8, 0, 0, 4, 1, 8, "8 layers of 4 B, checkpoints of 1 B, budget 32 B: section 6.8's model by hand");
    plan("ONE_SHORT", 7, 1, 1, 4, 1, 8, "8 layers of 4 B, checkpoints of 1 B, budget 31 B: section 6.8's model by hand");
    plan("LEAST_PEAK", 2, 2, 1, 2, 1, 4, "4 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand");
    plan("TIE", 3, 2, 2, 2, 1, 7, "7 layers of 2 B, checkpoints of 1 B, budget 8 B: section 6.8's model by hand");
    plan("ROUND_UP", 2, 2, 2, 2, 1, 5, "5 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand");
    plan("FREES", 1, 1, 1, 2, 1, 2, "2 layers of 2 B, checkpoints of 1 B, budget 3 B: section 6.8's model by hand");
    plan("LEAST", 1, 1, 3, 4, 1, 4, "4 layers of 4 B, checkpoints of 1 B, budget 7 B: section 6.8's model by hand");
    plan("GPT3", 1, 1, 95, GPT3_SBH / 8 * (34 + GPT3_ATT), 2 * GPT3_SBH / 8, 96,
         "GPT-3's first stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, "
         "eq. 4 and section 5), budget 96 checkpoints and one layer: section 6.8's model");
    /* A long chain of identical steps (a scan or recurrence over time checkpointed as
     * Griewank's binomial checkpointing does): L = n^2 steps, a checkpoint as large as
     * a step's activations (M_ckpt = M_layer = M) and a budget of (2n - 1) M. With s
     * stored and segments of g, m = max(s, g) >= g and m >= s, section 6.8's peak is
     *     peak / M = ceil((n^2 - s) / g) + m >= (n^2 - s) / m + m,
     * and peak <= (2n - 1) M asks (n^2 - s) + m^2 <= (2n - 1) m, that is
     *     (m - n)^2 + (m - s) <= 0.
     * Both terms are >= 0 (m >= s), so m = n and s = m = n: every plan that fits stores
     * exactly n (storing all n^2 needs n^2 M, more than (2n - 1) M for n >= 2). At
     * s = n with g <= n the peak is ceil((n^2 - n) / g) M + n M <= (2n - 1) M only when
     * (n^2 - n) / g <= n - 1, g >= n: so g = n, the only fitting length (hence the least
     * peak), in n - 1 segments, peak (n - 1 + n) M = (2n - 1) M, the budget met exactly;
     * n^2 - n steps recomputed, (n^2 - n) / (3 n^2) of a step. M = 4096 B keeps every
     * byte count a whole number the double holds exactly. */
    plan("CHAIN_1000", 1000, 1000, 999, 4096, 4096, 1000 * 1000,
         "10^6 identical steps of 4096 B, checkpoints of 4096 B, budget 1999 x 4096 B: "
         "section 6.8's model, the closed form n = 1000 derived above");
    derive_real("E_PLAN_FLOPS_SELECTIVE",
                2.0 / 24 + 6.0 / 8 * (4.0 * 2048 * 2048 * 12288) /
                               (3 * (24.0 * 2048 * 12288 * 12288 + 4.0 * 2048 * 2048 * 12288)),
                "8 layers, 6 stored under selective recomputation at s = 2048, h = 12288: "
                "section 6.8, FLOPs of Korthikanti et al. 2022, Appendix A");
    derive_real("E_PLAN_FLOPS_FULL", (2.0 + 6.0) / (3 * 8),
                "8 layers, 2 recomputed in segments and 6 stored under full recomputation: "
                "each of the 8 runs its forward once more, a forward being a third of a "
                "step (Korthikanti et al. 2022, Appendix A; section 6.6)");
}

/* ---- 6.14 longest_sequence: solve section 6.7's bytes for S ---------------------- */

/* The largest whole S with n (a S^2 + b S) <= budget, a, b >= 0 whole numbers of
 * bytes: the positive root of the quadratic, then settled exactly in integers. */
static long long longest(long long a, long long b, long long n, long long budget)
{
    double c = (double)budget / (double)n;
    double root = a > 0 ? (-(double)b + sqrt((double)b * b + 4.0 * a * c)) / (2.0 * a)
                        : c / (double)b;
    long long s = (long long)floor(root);
    while (n * (a * (s + 1) * (s + 1) + b * (s + 1)) <= budget)
        s++;
    while (s > 0 && n * (a * s * s + b * s) > budget)
        s--;
    return s;
}

static void longest_sequences(void)
{
    /* GPT-3 on t = 8, p = 8 A100s: 80e9 B of HBM less 175e9 x 16 / 64 of model state */
    const long long budget = 80000000000LL - 43750000000LL;
    /* one layer's bytes at S, B_micro = 1, d_model = 12288, n_h = 96, t = 8: the
     * attention scores 5 n_h S^2 / t = 60 S^2; linear terms (10 + 24/8) d_model =
     * 159744 S, or 34 d_model / 8 = 52224 S with sequence parallelism */
    derive_real("E_LONGEST_BUDGET_GPT3", (double)budget,
                "an A100's 80 GB less GPT-3's model state on t = 8, p = 8 (ZeRO section 3.1, "
                "Korthikanti et al. 2022 Table 3)");
    derive_int("E_LONGEST_GPT3_TP8", longest(60, 159744, 96, budget),
               "GPT-3's first stage, t = 8, every layer stored (Korthikanti et al. 2022, eq. 2 "
               "and 5), solved for S");
    derive_int("E_LONGEST_GPT3_TP8_SP_SELECTIVE", longest(0, 52224, 96, budget),
               "GPT-3's first stage, t = 8, sequence parallelism and selective recomputation "
               "(Korthikanti et al. 2022, eq. 6), solved for S");
    derive_int("E_LONGEST_GPT3_TP8_SP_REVERSIBLE", longest(60, 52224, 1, budget),
               "reversible GPT-3 layers, t = 8 with sequence parallelism: one layer's bytes "
               "(Korthikanti et al. 2022, eq. 4), solved for S");
    derive_int("E_LONGEST_GPT3_TP8_SP_SELECTIVE_REVERSIBLE", longest(0, 52224, 1, budget),
               "reversible GPT-3 layers, t = 8, sequence parallelism, selective "
               "recomputation: one layer's bytes (Korthikanti et al. 2022, eq. 6), solved for S");
    derive_real("E_LONGEST_GPT3_TP8_LAYER_2048", 60.0 * 2048 * 2048 + 159744.0 * 2048,
                "one GPT-3 layer at S = 2048 on t = 8 (Korthikanti et al. 2022, eq. 2): a "
                "budget met exactly at a whole S");
    /* a tiny layer under full recomputation, B_micro = 1, d_model = 3, 5 layers: each
     * keeps its 2-byte input, 2 x 3 = 6 S bytes (section 6.7), 30 S for the stage */
    derive_int("E_LONGEST_TINY_FULL_BUDGET", 4499999999999999LL,
               "a budget just below 30 x 1.5e14 bytes: an answer near 2^47 tokens");
    derive_int("E_LONGEST_TINY_FULL", 4499999999999999LL / 30,
               "5 tiny layers (d_model = 3) under full recomputation, 30 S bytes "
               "(Korthikanti et al. 2022, section 5), solved for S in integers");
    /* a tiny layer storing everything, B_micro = 1, d_model = 5, n_h = 2, t = 1: 34 x 5 S
     * + 5 x 2 S^2 = 10 S^2 + 170 S bytes (eq. 1); met exactly at S = 75925008 */
    {
        const long long s = 75925008LL;
        derive_int("E_LONGEST_TINY_EXACT_BUDGET", 10 * s * s + 170 * s,
                   "one tiny layer (d_model = 5, n_h = 2) at S = 75925008 (Korthikanti et "
                   "al. 2022, eq. 1): a budget met exactly at a whole S");
        derive_int("E_LONGEST_TINY_EXACT", longest(10, 170, 1, 10 * s * s + 170 * s),
                   "one tiny layer (d_model = 5, n_h = 2), that budget solved for S in integers");
    }
}

int main(void)
{
    derive_begin("06-revnets");
    chain_rule_by_hand();
    activation_memory();
    checkpoint_plans();
    longest_sequences();
    derive_int("E_ROUNDS_WINDOW_TOL_0_3", window_rounds(0.3, 64),
               "window of shifts, tolerance 0.3: exact avalanche of a linear mixer, "
               "flips of bit j = min(r + 1, 64 - j)");
    derive_int("E_ROUNDS_WINDOW_TOL_0_1", window_rounds(0.1, 64),
               "window of shifts, tolerance 0.1 (as above)");
    derive_int("E_ROUNDS_WINDOW_TOL_0_01", window_rounds(0.01, 64),
               "window of shifts, tolerance 0.01 (as above)");
    derive_int("E_ROUNDS_RAMP_2E9_TOL_1_16", ramp_rounds_tol_1_16(2000000000LL),
               "ramp of rotations, span 2e9, tolerance 1/16: the family's definition in "
               "test_revnets.c, c / 64 exact for c rotations");
    derive_int("E_ROUNDS_COSTLY_RAMP_4E4_TOL_1_16", ramp_rounds_tol_1_16(40000),
               "ramp of rotations, span 40000, tolerance 1/16 (as above)");
    return derive_end();
}
