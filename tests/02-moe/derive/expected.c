/*
 * expected.c -- the derivations of chapter 2's public expected values (instructor's copy).
 *
 * The public tests, tests/02-moe/test_moe.c, ship in the student handout; where
 * deriving a value is the exercise (the two- and three-star exercises two_racks,
 * load_closed_forms, rack_capacity, routing_simulation, cheapest_layout), and for the
 * one-star three_roofs, whose DeepSeek figures combine many published inputs,
 * they compare with the E_ names this program prints into tests/02-moe/expected.h,
 * and the closed forms stay here. Each value names its source. Uses only the C
 * library and ../../derive/derive.h: never lib/, the reference or exercises/.
 *
 * Build and run (`make expected CH=02` does the same):
 *   cc -std=c11 -Wall -Wextra -Werror -ffp-contract=off tests/02-moe/derive/expected.c \
 *      -o $TMPDIR/derive -lm && $TMPDIR/derive > tests/02-moe/expected.h
 *
 * Published inputs: those listed in test_moe.c's header (DeepSeek-V3 config and README,
 * GB200 NVL72 per-GPU rates, the lecture at 36:47's 8x slower link).
 */
#include "../../derive/derive.h"

/* ---- DeepSeek-V3 in fp4 on the 64 GPUs of one GB200 NVL72 (test_moe.c) ---------- */
static const double V3_TOTAL = 671e9, V3_ACTIVE = 37e9, V3_BYTES = 0.5;
static const double V3_KV = 35136.0; /* MLA latent in fp8: 61 x (512 + 64) x 1 */
static const double V3_D = 7168, V3_LAYERS = 58, V3_K = 8;
static const double V3_GPUS = 64, GB_F = 10e15, GB_HBM = 8e12, GB_UP = 900e9, GB_OUT = 50e9;

/* chapter 1's roofline over G GPUs: 2 N_active FLOPs a sequence */
static double v3_compute_slope(double gpus)
{
    return 2.0 * V3_ACTIVE / (gpus * GB_F);
}
/* every weight read once, each GPU its share */
static double v3_weights_s(double gpus)
{
    return V3_TOTAL * V3_BYTES / (gpus * GB_HBM);
}
/* a sequence's cache of L tokens, read once */
static double v3_kv_slope(double gpus, double ctx)
{
    return ctx * V3_KV / (gpus * GB_HBM);
}
/* The lecture at 33:37: every MoE layer dispatches and combines k copies of d_model
 * activations, each GPU its share over its NVLink (one rack) */
static double v3_a2a_slope(double act_bytes)
{
    return V3_LAYERS * 2.0 * V3_K * V3_D * act_bytes / (V3_GPUS * GB_UP);
}

/* ---- the exact toy of the three_roofs tests (powers of two) --------------------- */
/* per sequence: compute 2 x 1 / 2 = 1 s; all-to-all 1 layer x 2 x k 1 x d 1 x act
 * bytes at 1 B/s; KV L x 1 byte at 1 B/s; the weights 4 bytes at 1 B/s */
static double toy_a2a_slope(double act_bytes)
{
    return 1 * 2.0 * 1 * 1 * act_bytes / 1.0;
}

/* ---- Binomial(n, p): one expert's load, §2.7 (Routing is random) --------------- */
static double pmf(int n, double p, int x)
{
    return exp(lgamma(n + 1.0) - lgamma(x + 1.0) - lgamma(n - x + 1.0) + x * log(p) +
               (n - x) * log1p(-p));
}
/* expected drops over all n k assignments at capacity c: E x E[(X - c)+] / (n k) */
static double drop_fraction(int n, int experts, int k, int c)
{
    double p = (double)k / experts, excess = 0.0;
    for (int x = n; x > c; x--)
        excess += (x - c) * pmf(n, p, x);
    return experts * excess / ((double)n * k);
}
/* the smallest capacity whose expected drops are strictly below max_drop */
static int capacity_for_drop(int n, int experts, int k, double max_drop)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (drop_fraction(n, experts, k, mid) < max_drop)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}
/* E[max] = sum over c of P(max > c): below as if the loads were independent,
 * 1 - (1 - P(X > c))^E; above by the union bound, min(1, E P(X > c)) */
static void max_bounds(int n, int experts, int k, double *lower, double *upper)
{
    double p = (double)k / experts, tail = 0.0;
    *lower = *upper = 0.0;
    for (int c = n - 1; c >= 0; c--) {
        tail = fmin(1.0, tail + pmf(n, p, c + 1));
        *lower += -expm1(experts * log1p(-tail));
        *upper += fmin(1.0, experts * tail);
    }
}
static double load_sd(int n, int experts, int k)
{
    double p = (double)k / experts;
    return sqrt(n * p * (1 - p));
}

static void three_roofs(void)
{
    derive_real("E_V3_COMPUTE_S_B2048", 2048 * v3_compute_slope(V3_GPUS),
                "DeepSeek-V3 on 64 GB200s, B = 2,048: compute roof (closed form of §2.4)");
    derive_real("E_V3_WEIGHTS_S", v3_weights_s(V3_GPUS),
                "DeepSeek-V3 fp4 weights read by 64 GB200s (closed form of §2.4)");
    derive_real("E_V3_KV_S_B2048_L4096", 2048 * v3_kv_slope(V3_GPUS, 4096),
                "B = 2,048 caches of 4,096 tokens read by 64 GB200s (closed form of §2.4)");
    derive_real("E_V3_HBM_BYTES_B2048_L4096", V3_TOTAL * V3_BYTES + 2048.0 * 4096 * V3_KV,
                "bytes read in that step: weights and caches (closed form of §2.4)");
    derive_real("E_V3_A2A_S_B2048_FP4", 2048 * v3_a2a_slope(0.5),
                "all-to-all of B = 2,048, fp4 on NVLink (the lecture at 33:37; closed form of §2.3)");
    derive_real("E_V3_A2A_S_B2048_BF16", 2048 * v3_a2a_slope(2.0),
                "the same in bf16 (the lecture at 33:37; closed form of §2.3)");
    derive_real("E_V3_DISPATCH_S_PER_LAYER_B2048_BF16",
                2048 * V3_K * V3_D * 2.0 / (V3_GPUS * GB_UP),
                "one layer's dispatch, B = 2,048, bf16 (closed form of §2.3)");
    derive_real("E_V3_STEP_S_B64", v3_weights_s(V3_GPUS),
                "B = 64, no context: the step (closed form of §2.4)");
    derive_real("E_V3_STEP_S_B20000_FP4", 20000 * v3_compute_slope(V3_GPUS),
                "B = 20,000, fp4 activations: the step (closed form of §2.4)");
    derive_real("E_V3_STEP_S_B20000_BF16", 20000 * v3_a2a_slope(2.0),
                "B = 20,000, bf16 activations: the step (closed form of §2.4)");
    derive_real("E_V3_MEMORY_S_B8000_L2048",
                v3_weights_s(V3_GPUS) + 8000 * v3_kv_slope(V3_GPUS, 2048),
                "B = 8,000 at 2,048 tokens: memory roof (closed form of §2.4)");
    double ratio = v3_a2a_slope(0.5) / v3_compute_slope(V3_GPUS);
    derive_real("E_V3_NET_OVER_COMPUTE_FP4", ratio,
                "network over compute, fp4 activations (closed form of §2.4)");
    derive_real("E_V3_NET_OVER_COMPUTE_FP8", v3_a2a_slope(1.0) / v3_compute_slope(V3_GPUS),
                "network over compute, fp8 activations (closed form of §2.4)");
    derive_real("E_V3_KNEE_FP4", v3_weights_s(V3_GPUS) / v3_compute_slope(V3_GPUS),
                "knee, fp4 activations, no context (closed form of §2.4)");
    derive_real("E_V3_KNEE_BF16", v3_weights_s(V3_GPUS) / v3_a2a_slope(2.0),
                "knee, bf16 activations, no context (closed form of §2.4)");
    derive_real("E_V3_KNEE_BF16_L1024",
                v3_weights_s(V3_GPUS) / (v3_a2a_slope(2.0) - v3_kv_slope(V3_GPUS, 1024)),
                "knee, bf16 activations, 1,024 tokens (closed form of §2.4)");
    derive_real("E_V3_NO_KNEE_CONTEXT", 2.0 * V3_ACTIVE * GB_HBM / (GB_F * V3_KV),
                "the context past which no knee exists, fp4 (closed form of §2.4)");

    derive_real("E_TOY_TIE_BATCH", 4.0 / 1.0,
                "exact toy: the batch at which the three roofs tie (closed form of §2.4)");
    derive_real("E_TOY_ROOF_S_AT_TIE", 4.0 * 1.0,
                "exact toy: each roof at that batch (closed form of §2.4)");
    derive_real("E_TOY_NETWORK_S_AT_TIE_ACT1", 4.0 * toy_a2a_slope(1.0),
                "exact toy, one byte an activation: the network roof (closed form of §2.4)");
    derive_real("E_TOY_WEIGHTS_S", 4.0 / 1.0, "exact toy: the weights (closed form of §2.4)");
    derive_real("E_TOY_NET_OVER_COMPUTE", toy_a2a_slope(0.5) / 1.0,
                "exact toy: network over compute (closed form of §2.4)");
    derive_real("E_TOY_KNEE_L0", 4.0 / (1.0 - 0.0), "exact toy: knee at no context (§2.4)");
    derive_real("E_TOY_KNEE_L05", 4.0 / (1.0 - 0.5), "exact toy: knee at 0.5 tokens (§2.4)");
    derive_real("E_TOY_NO_KNEE_CONTEXT", 1.0 / 1.0,
                "exact toy: the context at which KV grows as fast as compute (§2.4)");
    derive_real("E_TOY_COMPUTE_S_B100", 100 * 1.0, "exact toy: compute of 100 sequences (§2.4)");
}

static void two_racks(void)
{
    /* the lecture at 36:47: (R - 1) / R of the copies cross, each at W_up / W_out the time */
    double lec = 800e9 / 100e9, gb = GB_UP / GB_OUT;
    derive_real("E_RACKS3_CROSS", 2.0 / 3, "3 racks: the share crossing (closed form of §2.5)");
    derive_real("E_RACKS3_LECTURE_OVERLAP", fmax(1.0 / 3, 2.0 / 3 * lec),
                "3 racks, the lecture's 8x slower link (36:47), overlapped (closed form of §2.5)");
    derive_real("E_RACKS3_LECTURE_SERIAL", 1.0 / 3 + 2.0 / 3 * lec,
                "the same, one part after the other (closed form of §2.5)");
    derive_real("E_RACKS4_CROSS", 3.0 / 4, "4 racks: the share crossing (closed form of §2.5)");
    derive_real("E_RACKS4_GB200_OVERLAP", fmax(0.25, 0.75 * gb),
                "4 racks, NVLink 5 over a 400 Gb/s NIC, overlapped (closed form of §2.5)");
    derive_real("E_RACKS4_GB200_SERIAL", 0.25 + 0.75 * gb,
                "the same, serial (closed form of §2.5)");
    derive_real("E_RACKS2_EQUAL_OVERLAP", fmax(0.5, 0.5 * 1.0),
                "2 racks, a NIC as fast as NVLink, overlapped (closed form of §2.5)");
    derive_real("E_RACKS2_EQUAL_SERIAL", 0.5 + 0.5 * 1.0,
                "the same, serial (closed form of §2.5)");
    /* the least W_out: (R - 1)/R W_up / W_out <= s overlapped (and 1/R <= s); serial,
     * (R - 1)/R W_up / W_out <= s - 1/R (and s > 1/R) */
    derive_real("E_LINK_R3_FREE_OVERLAP", GB_UP * 2.0 / (3 * 1.0),
                "3 racks cost nothing extra (s = 1), NVLink 5, overlapped (closed form of §2.5)");
    derive_real("E_LINK_R3_FREE_SERIAL", GB_UP * 2.0 / (3 * 1.0 - 1),
                "the same, serial (closed form of §2.5)");
    derive_real("E_LINK_R4_X2_OVERLAP", GB_UP * 3.0 / (4 * 2.0),
                "4 racks at twice one rack's all-to-all, NVLink 5, overlapped (closed form of §2.5)");
    derive_real("E_LINK_R4_X2_SERIAL", GB_UP * 3.0 / (4 * 2.0 - 1),
                "the same, serial (closed form of §2.5)");
    derive_real("E_LINK_R4_QUARTER_OVERLAP", 0x1p30 * 3.0 / (4 * 0.25),
                "4 racks, W_up 2^30 B/s, a target of 1/4, overlapped (closed form of §2.5)");
    derive_real("E_LINK_R49_FREE_OVERLAP", 0x1p30 * 48.0 / (49 * 1.0),
                "49 racks, W_up 2^30 B/s, at no cost (s = 1), overlapped (closed form of §2.5)");
    derive_real("E_LINK_R49_EDGE_OVERLAP", 0x1p30 * 48.0 / (49 * (1.0 / 49)),
                "49 racks, W_up 2^30 B/s, the target 1.0 / 49 in doubles, overlapped "
                "(closed form of §2.5)");
    /* 2 racks of 64: twice the GPUs; each GPU sends half its copies in rack, half out */
    derive_real("E_V3_2R_COMPUTE_S_B8192", 8192 * v3_compute_slope(2 * V3_GPUS),
                "DeepSeek-V3 on 2 racks of 64 GB200s, B = 8,192: compute (§2.4, §2.5)");
    derive_real("E_V3_2R_A2A_S_B8192", 8192 * v3_a2a_slope(0.5) / 2 * (0.5 * gb),
                "the same: all-to-all, fp4 (closed form of §2.5)");
    derive_real("E_V3_2R_NET_OVER_COMPUTE", (0.5 * gb) * v3_a2a_slope(0.5) /
                                                 v3_compute_slope(V3_GPUS),
                "the same: network over compute (closed form of §2.5)");
}

static void load_closed_forms(void)
{
    derive_real("E_TAIL_N10_HALF_GT7", (45.0 + 10 + 1) / 1024,
                "P(X > 7), X ~ Binomial(10, 1/2): ten fair coins, counted by hand");
    derive_real("E_TAIL_N10_HALF_GT4", 1 - (1.0 + 10 + 45 + 120 + 210) / 1024,
                "P(X > 4), the same, counted by hand");
    derive_real("E_TAIL_N10_QUARTER_GT9", pow(0.25, 10), "P(X > 9), Binomial(10, 1/4), by hand");
    derive_real("E_TAIL_N100_HALF_GT99", ldexp(1.0, -100), "P(X > 99), Binomial(100, 1/2), by hand");
    derive_real("E_TAIL_N100_HALF_GT98", 101 * ldexp(1.0, -100),
                "P(X > 98), Binomial(100, 1/2): 100 fair coins, counted by hand");
    /* 4 tokens, 4 experts, 2 each: X ~ Binomial(4, 1/2), pmf (1, 4, 6, 4, 1) / 16 */
    derive_real("E_DROP_B4_E4_K2_C2", 4 * ((4 * 1.0 + 2 * 1.0) / 16) / 8,
                "expected drops, 4 tokens, 4 experts, k 2, capacity 2 (by hand, §2.7)");
    derive_real("E_DROP_B4_E4_K2_C3", 4 * (1.0 / 16) / 8,
                "the same, capacity 3 (by hand, §2.7)");
    derive_int("E_CAP_B4_E4_K2_DROP20", capacity_for_drop(4, 4, 2, 0.20),
               "the smallest capacity under 20% drops, same case (by hand, §2.7)");
    derive_int("E_CAP_B4_E4_K2_DROP5", capacity_for_drop(4, 4, 2, 0.05),
               "the same under 5% (by hand, §2.7)");
    derive_int("E_CAP_B4_E4_K2_DROP1", capacity_for_drop(4, 4, 2, 0.01),
               "the same under 1% (by hand, §2.7)");
    derive_int("E_CAP_B4_E4_K2_AT_C2_DROPS", capacity_for_drop(4, 4, 2, 0.1875),
               "the same for a target equal to capacity 2's drops (strictly below, moe.h)");
    derive_int("E_CAP_B4_E4_K2_JUST_ABOVE", capacity_for_drop(4, 4, 2, 0.1876),
               "the same for a target a hair above capacity 2's drops (moe.h)");
    derive_real("E_DROP_DENSE_B10_C7", (10.0 - 7) / 10,
                "dense routing (k = E), 10 tokens, capacity 7 (§2.7)");
    derive_int("E_CAP_DENSE_B100_DROP1", 100, "dense, 100 tokens, under 1% (strictly, moe.h)");
    derive_int("E_CAP_DENSE_B100_DROP101", 99, "dense, 100 tokens, under 1.01% (§2.7)");
    /* 2 tokens, 2 experts, 1 each: P(X > 0) = 3/4, P(X > 1) = 1/4 */
    derive_real("E_MAX_B2_E2_K1_LOWER", (1 - 1.0 / 16) + (1 - 9.0 / 16),
                "E[max] lower bound, 2 tokens on 2 experts (by hand, §2.7)");
    derive_real("E_MAX_B2_E2_K1_UPPER", fmin(1, 3.0 / 2) + fmin(1, 1.0 / 2),
                "E[max] upper bound, the same (by hand, §2.7)");
    derive_real("E_MAX_B2_E2_K1_SD", load_sd(2, 2, 1), "a load's sd, the same (§2.7)");
    derive_real("E_MAX_B8192_E256_K8_SD", load_sd(8192, 256, 8),
                "a load's sd, DeepSeek routing at 8,192 tokens (§2.7)");
}

static void routing_simulation(void)
{
    derive_real("E_SIM_LOAD_SD_B10000_E4_K2", load_sd(10000, 4, 2),
                "one load's sd, 10,000 tokens, 4 experts, k 2 (§2.7)");
    derive_real("E_SIM_LOAD_VAR_B100_E4_K2", 100 * 0.5 * 0.5,
                "one load's variance, 100 tokens, 4 experts, k 2 (§2.7)");
    double lo, hi;
    max_bounds(4096, 256, 8, &lo, &hi);
    derive_real("E_SIM_MAX_LOWER_B4096", lo, "E[max] lower bound, DeepSeek, 4,096 tokens (§2.7)");
    derive_real("E_SIM_MAX_UPPER_B4096", hi, "E[max] upper bound, the same (§2.7)");
    derive_real("E_SIM_LOAD_SD_B4096", load_sd(4096, 256, 8), "one load's sd, the same (§2.7)");
    derive_real("E_SIM_DROP_B4096_C128", drop_fraction(4096, 256, 8, 128),
                "expected drops, the same, capacity 128 (§2.7)");
    derive_int("E_SIM_CAP_1PCT_B4096", capacity_for_drop(4096, 256, 8, 0.01),
               "the smallest capacity under 1% drops, the same (§2.7)");
    max_bounds(65536, 256, 8, &lo, &hi);
    derive_real("E_SIM_MAX_LOWER_B65536", lo, "E[max] lower bound, DeepSeek, 65,536 tokens (§2.7)");
    derive_real("E_SIM_MAX_UPPER_B65536", hi, "E[max] upper bound, the same (§2.7)");
    derive_real("E_SIM_LOAD_SD_B65536", load_sd(65536, 256, 8), "one load's sd, the same (§2.7)");
}

static void rack_capacity(void)
{
    double h = 72 * 186e9, r = 312.5; /* GB200 NVL72 HBM; fp4 r = 10e15 / 2 x 0.5 / 8e12 */
    derive_real("E_NVL72_FP4_PARAMS_NO_CONTEXT", h / 0.5,
                "fp4 parameters an NVL72 holds with no cache (closed form of §2.8)");
    double n = h / (0.5 + r / V3_ACTIVE * 4096 * V3_KV);
    derive_real("E_NVL72_FP4_PARAMS_L4096", n,
                "the same beside its balance batch's caches, 4,096 tokens (closed form of §2.8)");
    derive_real("E_NVL72_FP4_SPARSITY_L4096", n / V3_ACTIVE, "its sparsity (§2.8)");
    derive_real("E_NVL72_FP4_BATCH_L4096", r * n / V3_ACTIVE, "its balance batch (§2.8)");
    derive_real("E_NVL72_FP4_KV_BYTES_L4096", r * n / V3_ACTIVE * 4096 * V3_KV,
                "the caches of that batch, 4,096 tokens each (§2.8)");
}

/* the fewest GPUs, a divisor of the experts, whose HBM holds the weights */
static int fewest_gpus_holding(double weight_bytes, double hbm_bytes, int experts)
{
    int g = 1;
    while (experts % g || g * hbm_bytes < weight_bytes)
        g++;
    return g;
}

static void cheapest_layout(void)
{
    /* toy: 2^33 one-byte weights, 2^30 active; per GPU 2^40 FLOP/s, 2^36 B/s; $3.6/h.
     * On G GPUs: compute 2^-9 / G s a sequence, weights 2^-3 / G s. */
    double p_s = 3.6 / 3600;
    /* every compute-bound layout costs the same a token: the fewest GPUs that hold the
     * weights win the tie */
    int g_noctx = fewest_gpus_holding(0x1p33, 0x1p32, 8);
    derive_int("E_LAYOUT_NOCTX_GPUS", g_noctx, "toy, no context: GPUs (closed form of §2.10)");
    derive_int("E_LAYOUT_NOCTX_EXPERTS_PER_GPU", 8 / g_noctx, "its experts per GPU (§2.10)");
    double b_noctx = 0x1p-3 / (0x1p-9 / g_noctx);
    derive_real("E_LAYOUT_NOCTX_BATCH", b_noctx, "its batch (§2.10)");
    derive_real("E_LAYOUT_NOCTX_TOKENS_PER_S", b_noctx / 0x1p-3,
                "its throughput (§2.10)");
    derive_real("E_LAYOUT_NOCTX_USD_PER_TOKEN", g_noctx * p_s * 0x1p-3 / b_noctx,
                "its cost (§2.10)");
    /* caches: 2^30 bytes a sequence; 2 GPUs of 2^32 + 2^31 bytes */
    derive_real("E_LAYOUT_FULL_HBM_BATCH", (2 * (0x1p32 + 0x1p31) - 0x1p33) / 0x1p30,
                "toy, caches that fill the HBM: its batch (closed form of §2.10)");
    derive_real("E_LAYOUT_FULL_HBM_STEP_S", 0x1p-4 + 4 * 0x1p-7, "its step (§2.10)");
    derive_real("E_LAYOUT_FULL_HBM_USD_PER_TOKEN", 2 * p_s * (0x1p-4 + 4 * 0x1p-7) / 4,
                "its cost (§2.10)");
    /* long context on GPUs of 2^34 bytes: B = 8 (G - 1), cost falls with G */
    int g_long = 1;
    for (int g = 2; g <= 8; g *= 2) /* G p / (8 (G - 1)) falls as G grows */
        if (g * p_s / (8.0 * (g - 1)) < g_long * p_s / fmax(8.0 * (g_long - 1), 1e-300))
            g_long = g;
    derive_int("E_LAYOUT_LONG_GPUS", g_long, "toy at long context: GPUs (closed form of §2.10)");
    derive_real("E_LAYOUT_LONG_BATCH", 8 * (g_long - 1), "its batch (§2.10)");
    derive_real("E_LAYOUT_LONG_USD_PER_TOKEN", g_long * p_s * 0x1p-3 / (8 * (g_long - 1)),
                "its cost (§2.10)");
    /* GPUs of 2^30 bytes, racks of 4, NIC 2^19 B/s: the network slope 2^-11 s */
    int g_2r = fewest_gpus_holding(0x1p33, 0x1p30, 8); /* racks of 4 */
    derive_int("E_LAYOUT_2R_RACKS", g_2r / 4, "toy on racks of 4: racks (closed form of §2.10)");
    derive_int("E_LAYOUT_2R_GPUS_PER_RACK", 4, "its GPUs per rack (§2.10)");
    derive_real("E_LAYOUT_2R_BATCH", 0x1p-3 / (0x1p12 / 8 * 0.5 / 0x1p19),
                "its batch (§2.5, §2.10)");
    derive_real("E_LAYOUT_2R_USD_PER_TOKEN", g_2r * p_s * 0x1p-3 / 256, "its cost (§2.10)");
    derive_int("E_LAYOUT_TIE_GPUS", fewest_gpus_holding(0x1p33, 0x1p30, 8),
               "toy, GPUs of 2^30 bytes, racks of 8: GPUs (§2.10)");
    derive_real("E_LAYOUT_TIE_BATCH", 0x1p-3 / (0x1p-9 / fewest_gpus_holding(0x1p33, 0x1p30, 8)),
                "its batch (§2.10)");
    /* DeepSeek-V3 fp4 on GB200, 1,024 tokens of fp4 MLA cache, $2/h, 20 ms */
    /* no layout beats the compute-bound cost a token: the fewest GPUs that read the
     * weights in time and are compute-bound there */
    int g_v3 = 1;
    while (256 % g_v3 || v3_weights_s(g_v3) > 0.020)
        g_v3++;
    derive_int("E_LAYOUT_V3_GPUS", g_v3, "DeepSeek-V3 at a 20 ms step: GPUs (closed form of §2.10)");
    derive_int("E_LAYOUT_V3_EXPERTS_PER_GPU", 256 / g_v3, "its experts per GPU (§2.10)");
    derive_real("E_LAYOUT_V3_BATCH", floor(0.020 / v3_compute_slope(g_v3)), "its batch (§2.10)");
    derive_real("E_LAYOUT_V3_USD_PER_TOKEN", 2.0 / 3600 * 2.0 * V3_ACTIVE / GB_F,
                "its cost (§2.10)");
    /* 3e9 active parameters on one 1e15 FLOP/s GPU: 6e-6 s of compute a sequence */
    derive_real("E_LAYOUT_QUOTIENT_BATCH_45MS", round(0.045 / (2.0 * 3e9 / 1e15)),
                "one GPU, 3e9 active parameters, 1e15 FLOP/s, a 45 ms target: its batch in "
                "exact arithmetic (§2.4, §2.10)");
    derive_real("E_LAYOUT_QUOTIENT_BATCH_15MS", round(0.015 / (2.0 * 3e9 / 1e15)),
                "the same at 15 ms, in exact arithmetic (moe.h's test in doubles may keep one "
                "less)");
    int g_edge = 1; /* the weights alone take 2^-3 / G s */
    while (0x1p-3 / g_edge > 0x1p-6)
        g_edge *= 2;
    derive_int("E_LAYOUT_EDGE_GPUS", g_edge, "toy at a 2^-6 s target: GPUs (closed form of §2.10)");
    derive_real("E_LAYOUT_EDGE_BATCH", 0x1p-6 / (0x1p-9 / g_edge), "its batch (§2.10)");
}

int main(void)
{
    derive_begin("02-moe");
    three_roofs();
    two_racks();
    load_closed_forms();
    routing_simulation();
    rack_capacity();
    cheapest_layout();
    return derive_end();
}
