/*
 * expected.c -- the derivations of chapter 1's public expected values (two- and
 * three-star exercises), kept out of the handout. `make expected CH=01` runs it and
 * writes tests/01-batching/expected.h; make test checks the two agree.
 *
 * Only the C library and derive.h: a value here must not come from the code it checks.
 * Published inputs (sources as in the headers of tests/01-batching/test_*.c):
 *   DeepSeek-V3 671e9 / 37e9 parameters, 70,272 KV bytes per token, 256 routed experts,
 *   8 per token, in fp4 on a GB200 NVL72 (72 x 10e15 FLOP/s, 8e12 B/s, 186e9 B, $2);
 *   Llama 3 70B 70.6e9 parameters, 327,680 KV bytes per token, in bf16 on H100s
 *   (989e12 FLOP/s, 3.35e12 B/s, 80e9 B, $4.25) or A100s (312e12, 2.039e12, 80e9, $2.21);
 *   the power-of-two toy of the test file (every figure a power of two).
 */
#include "../../derive/derive.h"

/* The roofline terms of §1.2 (The roofline of one decode step) on n chips. */
typedef struct chip {
    double flops, bw, hbm, usd;
} chip;
typedef struct model {
    double total, active, beta, kv;
} model;

static double slope_c(model m, chip h, double n) { return 2 * m.active / (n * h.flops); }
static double slope_kv(model m, chip h, double n, double ctx) { return ctx * m.kv / (n * h.bw); }
static double t_weights(model m, chip h, double n) { return m.total * m.beta / (n * h.bw); }
static double step(model m, chip h, double n, double ctx, double b)
{
    return fmax(b * slope_c(m, h, n), t_weights(m, h, n) + b * slope_kv(m, h, n, ctx));
}

/* Exercise 1.3's expectation: a routed expert is unread by all B tokens with
 * probability (1 - k/E)^B; every weight outside the routed experts is read. */
static double params_read(model m, double experts, double k, double b)
{
    double q = 1 - k / experts;
    /* N_active = D + R k/E and N_total = D + R, so R = (N_total - N_active) / (1 - k/E) */
    double r = (m.total - m.active) / q;
    return m.total - r * pow(q, b);
}

/* The fast-mode step of §1.9 (Fast mode): the roofline with the weights a batch reads. */
static double fast_step(model m, chip h, double n, double ctx, double b, double e, double k)
{
    double w = params_read(m, e, k, b) * m.beta / (n * h.bw);
    return fmax(b * slope_c(m, h, n), w + b * slope_kv(m, h, n, ctx));
}

/* The largest whole batch on n chips within HBM and a step target (§1.6 (Train
 * departures)), none when not one sequence. */
static double largest_batch(model m, chip h, double n, double ctx, double t)
{
    double by_hbm = floor((n * h.hbm - m.total * m.beta) / (ctx * m.kv));
    double by_c = floor(t / slope_c(m, h, n));
    double by_m = floor((t - t_weights(m, h, n)) / slope_kv(m, h, n, ctx));
    return fmin(by_hbm, fmin(by_c, by_m));
}

/* §1.10 (The cheapest deployment for a latency target) below the balance context: a
 * token costs its arithmetic from the balance batch B* = t_w / (c - kappa) on (the same
 * on any n), so the cheapest is the fewest chips whose largest batch reaches ceil(B*). */
static double fewest_compute_bound_chips(model m, chip h, double ctx, double t)
{
    double tw1 = t_weights(m, h, 1), c1 = slope_c(m, h, 1), k1 = slope_kv(m, h, 1, ctx);
    double b = ceil(tw1 / (c1 - k1));
    double by_hbm = (m.total * m.beta + b * ctx * m.kv) / h.hbm;
    return ceil(fmax(by_hbm, fmax((tw1 + b * k1) / t, b * c1 / t)));
}

int main(void)
{
    const model deepseek = {671e9, 37e9, 0.5, 70272.0};
    const model llama = {70.6e9, 70.6e9, 2.0, 2.0 * 80 * 8 * 128 * 2};
    const chip gb200 = {10e15, 8e12, 186e9, 2.0};
    const chip h100 = {989e12, 3.35e12, 80e9, 4.25};
    const chip a100 = {312e12, 2.039e12, 80e9, 2.21};
    derive_begin("01-batching");

    /* ---- 1.3 experts_fetched */
    {
        /* toy: D = 2^30 dense, R = 2^33 routed weights, k = 1 of E = 4 */
        model toy = {0x1p30 + 0x1p33, 0x1p30 + 0x1p33 / 4, 2, 0};
        derive_real("E_FETCHED_TOY_B3", params_read(toy, 4, 1, 3),
                    "parameters a batch of 3 reads, toy MoE k = 1 of E = 4 (closed form of "
                    "section 1.3, checked by hand)");
        derive_real("E_FETCHED_TOY_B2", params_read(toy, 4, 1, 2),
                    "the same at batch 2 (checked by hand)");
        derive_real("E_FETCHED_TOY_B2_5", params_read(toy, 4, 1, 2.5),
                    "the same at batch 2.5 (the expectation is smooth in the batch)");
        derive_int("E_ALL_EXPERTS_DEEPSEEK_1PCT", (long long)ceil(log(0.01) / log(31.0 / 32)),
                   "DeepSeek-V3 (k = 8 of E = 256, config_671B.json), idle share 1% "
                   "(closed form of section 1.3)");
        derive_int("E_ALL_EXPERTS_K1_E4_EXACT", 3, "k = 1 of E = 4, idle share 27/64 (closed form of section 1.3, exact in binary)");
        derive_int("E_ALL_EXPERTS_K1_E4_BELOW", 4, "k = 1 of E = 4, idle share 27/64 x 0.999 (closed form of section 1.3)");
    }

    /* ---- 1.6 balance_batch */
    {
        double tw = t_weights(deepseek, gb200, 72), c = slope_c(deepseek, gb200, 72);
        derive_real("E_BALANCE_DEEPSEEK_CTX0", 312.5 * 671e9 / 37e9,
                    "DeepSeek-V3 on GB200 NVL72 at no context (closed form of section 1.5)");
        derive_real("E_BALANCE_DEEPSEEK_CTX256", tw / (c - slope_kv(deepseek, gb200, 72, 256)),
                    "DeepSeek-V3 on GB200 NVL72 at 256 tokens (closed form of 1.5.1)");
        double lstar = 2 * 70.6e9 * 3.35e12 / (989e12 * 327680.0);
        derive_real("E_MAX_CTX_LLAMA_H100", lstar,
                    "max balanced context of Llama 3 70B on H100s, tokens (closed form of 1.5.1)");
        derive_real("E_MAX_CTX_DEEPSEEK_NVL72", 2 * 37e9 * 8e12 / (10e15 * 70272.0),
                    "max balanced context of DeepSeek-V3 on GB200 in fp4, tokens (closed form of 1.5.1)");
        derive_real("E_MAX_CTX_TOY", 2 * 0x1p30 * 0x1p42 / (0x1p50 * 0x1p12),
                    "max balanced context of the power-of-two toy, tokens (closed form of 1.5.1)");
        double tl = t_weights(llama, h100, 8), cl = slope_c(llama, h100, 8);
        derive_real("E_BALANCE_LLAMA_1E6_BELOW", tl / (1e-6 * cl),
                    "Llama 3 70B on 8 H100s at a context 1e-6 below its max balanced context "
                    "(closed form of 1.5.1, to first order)");
    }

    /* ---- 1.8 batch_limits */
    {
        derive_int("E_MAX_BATCH_HBM_LLAMA_8K", (long long)floor((640e9 - 70.6e9 * 2) / (8192 * 327680.0)),
                   "Llama 3 70B on 8 x 80 GB at 8,192 tokens (closed form of 1.6)");
        derive_int("E_MAX_BATCH_HBM_DEEPSEEK_8K",
                   (long long)floor((72 * 186e9 - 671e9 * 0.5) / (8192 * 70272.0)),
                   "DeepSeek-V3 in fp4 on 72 x 186 GB at 8,192 tokens (closed form of 1.6)");
        double tw = t_weights(deepseek, gb200, 72), c = slope_c(deepseek, gb200, 72);
        derive_int("E_MAX_BATCH_LAT_DEEPSEEK_4K_15MS",
                   (long long)floor(fmin(15e-3 / c, (15e-3 - tw) / slope_kv(deepseek, gb200, 72, 4096))),
                   "DeepSeek-V3 on GB200 NVL72 at 4,096 tokens within 15 ms (closed form of 1.6)");
        derive_int("E_MAX_BATCH_LAT_DEEPSEEK_256_15MS",
                   (long long)floor(fmin(15e-3 / c, (15e-3 - tw) / slope_kv(deepseek, gb200, 72, 256))),
                   "DeepSeek-V3 on GB200 NVL72 at 256 tokens within 15 ms (closed form of 1.6)");
        derive_real("E_STEP_ONE_DEEPSEEK_1K", tw + slope_kv(deepseek, gb200, 72, 1024),
                    "the step of one DeepSeek-V3 sequence at 1,024 tokens on GB200 NVL72, s (1.2)");
        derive_int("E_MAX_BATCH_TOY_FLOOR_NO_CACHE", (long long)(0x1p-10 / 0x1p-21),
                   "power-of-two toy, no cache, target at the floor 2^-10 s (closed form of 1.6)");
        derive_int("E_MAX_BATCH_TOY_HBM_2_21", (long long)(4 * 0x1p21 / (1024 * 0x1p12)),
                   "power-of-two toy with 2^32 + 2^21 B a chip at 1,024 tokens (closed form of 1.6)");
    }

    /* ---- 1.9 fast_mode (roofline of 1.2 with the weights of 1.3) */
    {
        double tw = t_weights(deepseek, gb200, 72), c = slope_c(deepseek, gb200, 72);
        derive_real("E_FAST_IDEAL_NORMAL_BATCH", 2.5 * tw / c,
                    "the normal batch of the ideal-roofline case: 2.5 x DeepSeek-V3's knee");
        derive_real("E_FAST_IDEAL_FAR_NORMAL_BATCH", 5 * tw / c,
                    "the normal batch of the ideal-roofline case: 5 x DeepSeek-V3's knee");
        derive_real("E_FAST_IDEAL_FAR_BATCH", 2 * tw / c,
                    "its fast batch at speedup 2.5 (closed form of section 1.9)");
        double k = slope_kv(deepseek, gb200, 72, 32768);
        double step_n = fmax(8000 * c, tw + 8000 * k), t = step_n / 2.5;
        double bf = fmin(t / c, (t - tw) / k);
        derive_real("E_FAST_KV_BATCH", bf, "DeepSeek-V3 at 32,768 tokens, normal batch 8,000, speedup 2.5 (1.9)");
        derive_real("E_FAST_KV_STEP", t, "its fast step, s");
        derive_real("E_FAST_KV_COST_RATIO", (t / bf) / (step_n / 8000), "its cost per token over normal");
        double twl = t_weights(llama, h100, 8), kl = slope_kv(llama, h100, 8, 4096);
        derive_real("E_FAST_SPEEDUP_ROOM_1_5", (twl + 2 * kl) / (twl + 1.5 * kl),
                    "Llama 3 70B on 8 H100s at 4,096 tokens, normal batch 2: the speedup that leaves room for 1.5");
        derive_real("E_FAST_SPEEDUP_ROOM_0_5", (twl + 2 * kl) / (twl + 0.5 * kl),
                    "the same, room for 0.5 sequences");
        derive_real("E_FAST_ROOM_1_5_BATCH", 1.5, "the fast batch at the first of those speedups");
        derive_real("E_FAST_TOY_ONE_STEP", 0x1p-10 + 0x1p-20,
                    "power-of-two toy at 4,096 tokens, normal batch 1,026 at speedup 2: its fast step, s");
        derive_real("E_FAST_TOY_ONE_COST_RATIO", (0x1p-10 + 0x1p-20) / (2 * (0x1p-10 + 0x1p-20) / 1026),
                    "its cost per token over normal (batch 1)");
        double bn = 2.5 * tw / c;
        double sn0 = fast_step(deepseek, gb200, 72, 0, bn, 256, 8), t64 = fast_step(deepseek, gb200, 72, 0, 64, 256, 8);
        derive_real("E_FAST_MOE_SPEEDUP_TO_64", sn0 / t64,
                    "DeepSeek-V3 at no context from 2.5 x its knee: the speedup whose fast step is a batch of 64's (1.3, 1.9)");
        derive_real("E_FAST_MOE_STEP_64", t64, "that fast step, s");
        derive_real("E_FAST_MOE_COST_RATIO_64", (t64 / 64) / (sn0 / bn), "its cost per token over normal");
        double s200 = fast_step(deepseek, gb200, 72, 4096, 200, 256, 8), t12 = fast_step(deepseek, gb200, 72, 4096, 12, 256, 8);
        derive_real("E_FAST_MOE_SPEEDUP_200_TO_12", s200 / t12,
                    "DeepSeek-V3 at 4,096 tokens from batch 200: the speedup whose fast step is a batch of 12's");
        derive_real("E_FAST_MOE_STEP_12", t12, "that fast step, s");
        derive_real("E_FAST_MOE_COST_RATIO_12", (t12 / 12) / (s200 / 200), "its cost per token over normal");
        double s100 = fast_step(deepseek, gb200, 72, 4096, 100, 256, 8);
        double one = (37e9 * 0.5 + 4096 * 70272.0) / (72 * 8e12);
        derive_real("E_FAST_MOE_SPEEDUP_100_TO_1", s100 / one,
                    "DeepSeek-V3 at 4,096 tokens from batch 100: the speedup whose fast step is one sequence's");
        double twk = t_weights(llama, h100, 8), ck = slope_c(llama, h100, 8);
        derive_real("E_FAST_KNEE_BATCH", twk / ck,
                    "Llama 3 70B on 8 H100s at no context, normal batch 100, no speedup: the fast batch (1.9)");
        derive_real("E_FAST_KNEE_STEP", twk, "its step, s");
        derive_real("E_FAST_KNEE_COST_RATIO", 100 / (twk / ck), "its cost per token over normal");
    }

    /* ---- 1.10 cheapest */
    {
        double c1 = slope_c(llama, h100, 1);
        double n30 = fewest_compute_bound_chips(llama, h100, 1024, 0.03);
        double b30 = largest_batch(llama, h100, n30, 1024, 0.03);
        derive_int("E_CHEAP_1K_30MS_CHIPS", (long long)n30,
                   "Llama 3 70B on H100s at 1,024 tokens within 30 ms: chips (1.10)");
        derive_int("E_CHEAP_1K_30MS_BATCH", (long long)b30, "its batch");
        derive_real("E_CHEAP_1K_30MS_STEP", step(llama, h100, n30, 1024, b30), "its step, s");
        derive_real("E_CHEAP_H100_ARITHMETIC_USD", 4.25 * c1 / 3600 * 1e6,
                    "a token's arithmetic on H100s at $4.25, USD per million tokens (1.4)");
        double n20 = fewest_compute_bound_chips(llama, h100, 1024, 0.02);
        derive_int("E_CHEAP_1K_20MS_CHIPS", (long long)n20, "the same within 20 ms: chips (1.10)");
        derive_int("E_CHEAP_1K_20MS_BATCH", (long long)largest_batch(llama, h100, n20, 1024, 0.02), "its batch");
        /* past the balance context every batch is memory-bound: all 8 A100s, their largest batch */
        double b32 = largest_batch(llama, a100, 8, 32768, 0.05);
        double s32 = step(llama, a100, 8, 32768, b32);
        derive_int("E_CHEAP_32K_BATCH", (long long)b32, "Llama 3 70B at 32,768 tokens within 50 ms, 8 A100s: batch (1.10)");
        derive_real("E_CHEAP_32K_STEP", s32, "its step, s");
        derive_real("E_CHEAP_32K_USD", 8 * 2.21 * s32 / 3600 / b32 * 1e6, "its USD per million tokens");
        derive_real("E_CHEAP_TOY_STEP", 0x1p-10 + 0x1p-22, "power-of-two toy, one sequence of 1,024 tokens on 4 chips: step, s");
        derive_real("E_CHEAP_TOY_USD", 4 * 1.0 * (0x1p-10 + 0x1p-22) / 3600 * 1e6, "its USD per million tokens");
        /* a 10 us target on domains of up to 2^31 - 1 chips */
        double n10 = fewest_compute_bound_chips(llama, h100, 1024, 1e-5);
        derive_int("E_CHEAP_10US_CHIPS", (long long)n10,
                   "Llama 3 70B at 1,024 tokens within 10 us, H100s or A100s, up to 2^31 - 1 each: chips (1.10)");
        derive_int("E_CHEAP_10US_BATCH", (long long)largest_batch(llama, h100, n10, 1024, 1e-5), "its batch");
    }

    /* ---- 1.11 max_sparsity. At sparsity s the weights are s beta N_active and the
     * balance batch t_weights / (c - kappa) is s times the dense one (t_weights grows as
     * s, the slopes do not). At that batch the step is its memory time, so a full HBM
     * makes it the drain time C / W_BW = B c: the batch is n C F / (2 N_active W_BW)
     * at every context, and the weights get n C less that batch's caches, which is
     * s_max = n C (1 - L / L*) / (beta N_active), L* = 2 N_active W_BW / (F b_kv). */
    {
        double lstar_ds = 2 * 37e9 * 8e12 / (10e15 * 70272.0);
        double s = 72 * 186e9 * (1 - 512 / lstar_ds) / (0.5 * 37e9);
        derive_real("E_SPARSITY_DEEPSEEK_512", s,
                    "the largest sparsity of DeepSeek-V3's 37e9 active parameters in fp4 on a GB200 "
                    "NVL72 at 512 tokens (closed form of section 1.8 on 1.5.1 and 1.6)");
        derive_real("E_SPARSITY_DEEPSEEK_512_BATCH", 72 * 186e9 * 10e15 / (2 * 37e9 * 8e12),
                    "its balance batch at that sparsity, sequences (closed form of section 1.8; GB200 "
                    "NVL72 spec sheet)");
        derive_real("E_SPARSITY_DEEPSEEK_CTX0", 72 * 186e9 / (37e9 * 0.5),
                    "the same at no context (closed form of section 1.8 on 1.5.1 and 1.6)");
        derive_real("E_SPARSITY_DEEPSEEK_CTX0_BATCH", 72 * 186e9 / (37e9 * 0.5) * 312.5,
                    "its balance batch at that sparsity, sequences (closed form of section 1.8; GB200 "
                    "NVL72 spec sheet)");
        double lstar_ll = 2 * 70.6e9 * 3.35e12 / (989e12 * 327680.0);
        double sl = 8 * 80e9 * (1 - 1024 / lstar_ll) / (2 * 70.6e9);
        derive_real("E_SPARSITY_LLAMA_1K", sl,
                    "the largest sparsity of Llama 3 70B's 70.6e9 active parameters in bf16 on 8 H100s "
                    "at 1,024 tokens (closed form of section 1.8 on 1.5.1 and 1.6)");
        derive_real("E_SPARSITY_LLAMA_1K_BATCH", 8 * 80e9 * 989e12 / (2 * 70.6e9 * 3.35e12),
                    "its balance batch at that sparsity, sequences (closed form of section 1.8; H100 "
                    "SXM spec sheet)");
        derive_real("E_SPARSITY_EXACT_HBM_LLAMA_120", 2 * 70.6e9 / (8 * (1 - 120 / lstar_ll)),
                    "the HBM per H100 at which 8 of them hold a dense Llama 3 70B (sparsity "
                    "exactly 1) at its balance batch at 120 tokens, bytes (1.8)");
        /* the power-of-two toy at 1,024 tokens: L* = 2^11, c = 2^-21, kappa = 2^-22,
         * t_weights(1) = 2^-13 s, so B*(1) = 2^9; weights 2^31 B and caches
         * 2^9 x 2^10 x 2^12 = 2^31 B: 4 chips of 2^30 B fit sparsity exactly 1 */
        derive_real("E_SPARSITY_TOY_EXACT_BATCH", 4 * 0x1p30 * 0x1p50 / (2 * 0x1p30 * 0x1p42),
                    "power-of-two toy at 1,024 tokens with 4 x 2^30 B of HBM: sparsity exactly 1, "
                    "its balance batch");
        derive_real("E_SPARSITY_TOY", 4 * (0x1p32 + 0x1p20) * (1 - 0.5) / (2 * 0x1p30),
                    "power-of-two toy at 1,024 tokens with its 4 x (2^32 + 2^20) B (1.8)");
        derive_real("E_SPARSITY_TOY_BATCH", 4 * (0x1p32 + 0x1p20) * 0x1p50 / (2 * 0x1p30 * 0x1p42),
                    "its balance batch at that sparsity, sequences (checked by hand, exact in binary)");
    }
    return derive_end();
}
