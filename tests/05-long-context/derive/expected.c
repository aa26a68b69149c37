/*
 * expected.c -- the expected values of chapter 5's public tests for its two- and
 * three-star exercises (context_kink, pass_length, draft_length, cache_tiers,
 * cache_schedule, longest_context), as closed forms with their published inputs and
 * sources. Instructor's copy only: the handout ships its output, expected.h.
 *
 * Uses only the C library and ../../derive/derive.h (never the library, the reference or
 * the exercises: an expected value must not come from the code it checks). Regenerate:
 *   cc -std=c11 -Wall -Wextra -Werror -ffp-contract=off \
 *      tests/05-long-context/derive/expected.c -o $TMPDIR/derive -lm &&
 *   $TMPDIR/derive > tests/05-long-context/expected.h      (or: make expected CH=05)
 *
 * Published inputs (as in the public test's header):
 *   DeepSeek-V3   671e9 total, 37e9 active parameters (DeepSeek-V3 README); MLA cache
 *                 61 x (512 + 64) elements in fp8, 35,136 bytes/token; absorbed MLA
 *                 attention 2 x 61 x 128 x (576 + 512) FLOPs per context token
 *   GB200 NVL72   72 GPUs, 10e15 dense fp4 FLOP/s, 8e12 B/s, 186e9 B each (NVIDIA)
 *   Devices       lib/tier.c's four tiers (data sheets and list prices, five-year life)
 *   Claude Opus 4.6 $5 in, $6.25 / $10 writes, $0.50 hits (Anthropic's pricing page)
 *   DeepSeek-V3 API $1.10 per million output tokens (lib/price.c, early 2025)
 */
#include <math.h>

#include "../../derive/derive.h"

/* DeepSeek-V3 in fp4 on a GB200 NVL72, its MLA cache in fp8 */
#define N_TOTAL 671e9
#define N_ACTIVE 37e9
#define BETA 0.5
#define B_KV (61 * (512 + 64) * 1.0)
#define F_ATTN (2.0 * 61 * 128 * (576 + 512))
#define CHIPS 72
#define F_CHIP 10e15
#define W_CHIP 8e12
#define HBM_CHIP 186e9

/* Roofline of §5.1 (The roofline against context) for DeepSeek-V3 on the NVL72: a token's
 * arithmetic and its share of the reads, in seconds (f: attention FLOPs per context token, 0 to
 * leave them out). */
static double dsv3_compute_s(double ctx, double f)
{
    return (2.0 * N_ACTIVE + ctx * f) / (CHIPS * F_CHIP);
}
static double dsv3_memory_s(double batch, double ctx)
{
    return (N_TOTAL * BETA / batch + ctx * B_KV) / (CHIPS * W_CHIP);
}

/* Tokens a step keeps when q guesses are each accepted with chance a (Leviathan et al.
 * 2023, eq. 1): 1 + a + ... + a^q. */
static double kept(double a, int q)
{
    return a == 1 ? q + 1 : (1 - pow(a, q + 1)) / (1 - a);
}

/* lib/tier.c's devices: capacity, bandwidth, USD an hour (a bought device over five
 * years of 365.25 days) */
#define LIFE_H (5 * 365.25 * 24)
typedef struct {
    double capacity_bytes, bytes_per_s, usd_per_hour;
} tier;
static const tier HBM = {186e9, 8e12, 2.0};
static const tier DDR = {256e9, 6400e6 * 8, 76999.0 / 16 / LIFE_H};
static const tier NVME = {30.72e12, 14e9, 0.079 * 30.72e3 / LIFE_H};
static const tier HDD = {24e12, 285e6, 0.014 * 24e3 / LIFE_H};

/* §5.5 (Cache hits and memory tiers)'s share of a device kept full of caches: the byte pays the
 * larger of its capacity share for the hold and its bandwidth share for one read. */
static double tier_cost(const tier *t, double hold_s)
{
    return t->usd_per_hour / 3600 * fmax(hold_s / t->capacity_bytes, 1 / t->bytes_per_s);
}

/* §5.5 (Cache hits and memory tiers): one prefill of L tokens rebuilds L tokens of cache; token
 * i attends to the i before it, (L - 1) / 2 on average; at the chips' peak, rented at p USD an
 * hour. */
static double remat_usd_per_byte(double L, double usd_per_chip_hour)
{
    double flops = 2 * N_ACTIVE + (L - 1) / 2.0 * F_ATTN;
    return flops / F_CHIP * (usd_per_chip_hour / 3600) / B_KV;
}

static void kink(void)
{
    double fetchable = 2 * N_ACTIVE * W_CHIP / F_CHIP; /* bytes fetched in a token's arithmetic */
    double slope = B_KV - F_ATTN * W_CHIP / F_CHIP;
    derive_real("E_KINK_DSV3_B20000_TOKENS", (fetchable - N_TOTAL * BETA / 20000) / slope,
                "DeepSeek-V3 on a GB200 NVL72, batch 20,000: closed form of §5.1 (The roofline "
                "against context)");
    derive_real("E_KINK_DSV3_NO_ATTN_B20000_TOKENS", (fetchable - N_TOTAL * BETA / 20000) / B_KV,
                "the same without attention's arithmetic (the lecture at 1:32:56)");
    derive_real("E_KINK_DSV3_UNBOUNDED_BATCH_TOKENS", fetchable / slope,
                "the same at an unbounded batch (§5.1 (The roofline against context))");
    derive_real("E_KINK_TOY_B2_TOKENS", (2.0 * 1 / 1 - 2.0 * 1 / 2) / 1,
                "toy: 2 B of weights, 1 active parameter, 1 B a token, 1 FLOP/s, 1 B/s, "
                "batch 2: closed form of §5.1 (The roofline against context)");
    derive_real("E_KINK_TOY_HALF_ATTN_TOKENS", 2.0 / (1 - 0.5),
                "toy: 1 active parameter, 1 B a token, 0.5 attention FLOPs a token, 1 FLOP/s, "
                "1 B/s, unbounded batch: closed form of §5.1 (The roofline against context)");
}

static void pass(void)
{
    derive_real("E_PASS_DSV3_DECODE_B64_L8192_S", dsv3_memory_s(64, 8192),
                "DeepSeek-V3, NVL72, batch 64, 8,192 tokens, a one-token pass: the memory "
                "term of §5.1 (the lecture at 1:41:33)");
    derive_real("E_PASS_DSV3_COMPUTE_L8192_S", dsv3_compute_s(8192, F_ATTN),
                "the same, a 4,096-token pass: the compute floor of §5.4 (the lecture at 1:41:33)");
    derive_real("E_PASS_DSV3_COMPUTE_L32768_S", dsv3_compute_s(32768, F_ATTN),
                "DeepSeek-V3, NVL72, 32,768 tokens: compute per new token of any pass (§5.4 "
                "(Output against input price))");
    derive_real("E_PASS_DSV3_MEMORY_B2048_L50000_S", dsv3_memory_s(2048, 50000),
                "DeepSeek-V3, NVL72, batch 2,048, 50,000 tokens, a one-token pass: the memory "
                "term of §5.1 (The roofline against context)");
    double m1 = dsv3_memory_s(256, 32768);
    derive_real("E_PASS_DSV3_MEMORY_B256_L32768_P1_S", m1,
                "DeepSeek-V3, NVL72, batch 256, 32,768 tokens: memory per new token of a pass "
                "of 1 (the lecture at 1:41:33, §5.4 (Output against input price))");
    derive_real("E_PASS_DSV3_MEMORY_B256_L32768_P4_S", m1 / 4, "the same, a pass of 4");
    derive_real("E_PASS_DSV3_MEMORY_B256_L32768_P16_S", m1 / 16, "the same, a pass of 16");
    derive_real("E_PASS_DSV3_MEMORY_B256_L32768_P64_S", m1 / 64, "the same, a pass of 64");
    double m = dsv3_memory_s(1024, 8192);
    derive_real("E_PASS_BALANCED_DSV3_B1024_L8192_TOKENS", m / dsv3_compute_s(8192, F_ATTN),
                "DeepSeek-V3, NVL72, batch 1,024, 8,192 tokens: the balanced pass, closed "
                "form of §5.4 (Output against input price)");
    derive_real("E_PASS_BALANCED_DSV3_NO_ATTN_B1024_L8192_TOKENS", m / dsv3_compute_s(8192, 0),
                "the same without attention's arithmetic (the lecture at 1:41:33)");
    derive_real("E_PRICE_RATIO_5_DECODE_MFU", 1.0 / 5,
                "output at 5x input: decode MFU over prefill MFU (the lecture at 1:41:33 and its flashcard on output prices)");
    derive_real("E_PRICE_RATIO_5_PASS_TOKENS", 5.0,
                "output at 5x input: the balanced pass it implies (the lecture at 1:41:33)");
    derive_real("E_PRICE_RATIO_6_DECODE_MFU", 1.0 / 6,
                "Gemini 3.1 Pro's $12 / $2 (lib/price.c): decode MFU over prefill MFU (§5.4 "
                "(Output against input price))");
    derive_real("E_PRICE_RATIO_1_PASS_TOKENS", 1.0,
                "equal prices: a balanced decode (§5.4 (Output against input price))");
}

static void draft(void)
{
    /* toy: 1 s of arithmetic per token, 5 s of weights a pass, one sequence: a pass of
     * q + 1 tokens takes max(q + 1, 5) s (§5.4 (Output against input price)) */
    derive_int("E_DRAFT_FREE_A08_Q", 4,
               "free drafts, a = 0.8, the 5 s toy: the fastest q (Leviathan et al. 2023, "
               "eq. 1; §5.4 (Output against input price))");
    derive_real("E_DRAFT_FREE_A08_TOKENS", kept(0.8, 4), "tokens it keeps a step (eq. 1)");
    derive_real("E_DRAFT_FREE_A08_S_PER_TOKEN", 5 / kept(0.8, 4),
                "seconds a token (§5.4 (Output against input price))");
    derive_real("E_DRAFT_FREE_A08_SPEEDUP", kept(0.8, 4),
                "over the 5 s plain step (§5.4 (Output against input price))");
    /* toy: 20 s of weights, drafts at 0.1 of a 20 s plain step: a step of q guesses
     * takes 20 + 2q s while q + 1 <= 20 */
    int best = 0;
    double best_s = 20;
    for (int q = 1; q <= 16; q++) {
        double s = (20 + 2.0 * q) / kept(0.8, q);
        if (s < best_s * (1 - 1e-12))
            best = q, best_s = s;
    }
    derive_int("E_DRAFT_COSTLY_A08_Q", best,
               "drafts at 0.1 of a plain step, a = 0.8, the 20 s toy: the fastest q "
               "(Leviathan et al. 2023, eq. 1; §5.4 (Output against input price))");
    derive_real("E_DRAFT_COSTLY_A08_S_PER_TOKEN", best_s,
                "seconds a token at that q (§5.4 (Output against input price))");
    derive_real("E_DRAFT_COSTLY_A08_SPEEDUP", 20 / best_s,
                "over the 20 s plain step (§5.4 (Output against input price))");
    derive_int("E_DRAFT_ALL_ACCEPTED_Q", 4,
               "a = 1 on the 5 s toy: the fastest q, the smaller on a tie (§5.4 (Output against "
               "input price), the "
               "contract)");
    derive_real("E_DRAFT_ALL_ACCEPTED_S_PER_TOKEN", 1.0,
                "seconds a token at that q (§5.4 (Output against input price))");
    derive_real("E_DRAFT_ALL_ACCEPTED_SPEEDUP", 5.0,
                "over the 5 s plain step (§5.4 (Output against input price))");
    /* toy: a batch of 4 sequences of 10 tokens of context; 20 bytes of weights, 1 byte of
     * cache per context token, 1 FLOP of weight arithmetic per token plus 0.1 FLOP per
     * context token, at 1 FLOP/s and 1 B/s. A pass of p new tokens per sequence reads the
     * weights once and each sequence's cache once, 20 + 4 x 10 x 1 = 60 s, and does
     * 4 p (1 + 0.1 x 10) = 8 p s of arithmetic: it takes max(8 p, 60) s (§5.4 (Output
     * against input price)); free drafts, a = 0.8 */
    int batch_q = 0;
    double plain_s = fmax(8.0 * 1, 60), batch_s = plain_s;
    for (int q = 1; q <= 16; q++) {
        double s = fmax(8.0 * (q + 1), 60) / kept(0.8, q);
        if (s < batch_s * (1 - 1e-12))
            batch_q = q, batch_s = s;
    }
    derive_int("E_DRAFT_BATCH4_L10_A08_Q", batch_q,
               "free drafts, a = 0.8, a batch of 4 at 10 tokens of context on the toy: the "
               "fastest q (Leviathan et al. 2023, eq. 1; §5.4 (Output against input price))");
    derive_real("E_DRAFT_BATCH4_L10_A08_TOKENS", kept(0.8, batch_q),
                "tokens a sequence keeps a step at that q (eq. 1)");
    derive_real("E_DRAFT_BATCH4_L10_A08_S_PER_TOKEN", batch_s,
                "seconds between a sequence's tokens at that q (§5.4 (Output against input "
                "price))");
    derive_real("E_DRAFT_BATCH4_L10_A08_SPEEDUP", plain_s / batch_s,
                "over plain decode at that batch and context (§5.4 (Output against input "
                "price))");
}

static void tiers(void)
{
    derive_real("E_DRAIN_RUBIN_S", 288e9 / 20e12, "Rubin, 288 GB at 20 TB/s (the lecture)");
    derive_real("E_DRAIN_DDR5_6400_S", 256e9 / (6400e6 * 8),
                "a 256 GB DIMM on a DDR5-6400 channel (JEDEC)");
    derive_real("E_DRAIN_MICRON_9550_S", 30.72e12 / 14e9, "Micron 9550 PRO (data sheet)");
    derive_real("E_DRAIN_EXOS_X24_S", 24e12 / 285e6, "Seagate Exos X24 (data sheet)");
    tier toy = {96, 12, 2700};
    derive_real("E_TIER_TOY_HOLD_3S_USD_PER_B", tier_cost(&toy, 3),
                "toy device: 96 B, 12 B/s, $2,700 an hour, a byte held 3 s (§5.5 (Cache hits and "
                "memory tiers))");
    derive_real("E_TIER_TOY_HOLD_20S_USD_PER_B", tier_cost(&toy, 20),
                "the same, held 20 s (§5.5 (Cache hits and memory tiers))");
    tier small = {64, 16, 7200};
    derive_real("E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B", tier_cost(&small, 4),
                "a second toy device: 64 B, 16 B/s, $7,200 an hour, a byte held its 4 s drain "
                "time (§5.5 (Cache hits and memory tiers))");
    derive_real(
        "E_TIER_HBM_10MS_USD_PER_B", tier_cost(&HBM, 0.01),
        "B200 HBM at $2 an hour, held 10 ms (§5.5 (Cache hits and memory tiers), lib/tier.c)");
    derive_real("E_TIER_HBM_10S_USD_PER_B", tier_cost(&HBM, 10),
                "B200 HBM at $2 an hour, held 10 s (§5.5 (Cache hits and memory tiers))");
    derive_real("E_TIER_DDR_1S_USD_PER_B", tier_cost(&DDR, 1),
                "DDR5-6400 RDIMM, held 1 s (§5.5 (Cache hits and memory tiers), lib/tier.c)");
    derive_real("E_TIER_NVME_300S_USD_PER_B", tier_cost(&NVME, 300),
                "Micron 9550, held 5 minutes (§5.5 (Cache hits and memory tiers), lib/tier.c)");
    derive_real("E_TIER_NVME_3600S_USD_PER_B", tier_cost(&NVME, 3600),
                "Micron 9550, held an hour (§5.5 (Cache hits and memory tiers), lib/tier.c)");
    derive_real("E_TIER_HDD_86400S_USD_PER_B", tier_cost(&HDD, 86400),
                "Exos X24, held a day (§5.5 (Cache hits and memory tiers), lib/tier.c)");
    /* which of HBM, DDR, NVMe, HDD (0..3) is cheapest at each hold, by the same shares */
    const tier *all[] = {&HBM, &DDR, &NVME, &HDD};
    const double holds[] = {0.01, 1, 300, 3600, 86400};
    const char *names[] = {"E_CHEAPEST_TIER_10MS", "E_CHEAPEST_TIER_1S", "E_CHEAPEST_TIER_300S",
                           "E_CHEAPEST_TIER_3600S", "E_CHEAPEST_TIER_86400S"};
    for (int h = 0; h < 5; h++) {
        int best = 0;
        for (int i = 1; i < 4; i++)
            if (tier_cost(all[i], holds[h]) < tier_cost(all[best], holds[h]))
                best = i;
        derive_int(names[h], best,
                   "index of the cheapest of HBM, DDR, NVMe, HDD (lib/tier.c order) for this "
                   "hold (§5.5 (Cache hits and memory tiers))");
    }
    derive_real("E_REMAT_DSV3_1_TOKEN_USD_PER_B", remat_usd_per_byte(1, 2.0),
                "recomputing one token of DeepSeek-V3 at $2 a chip-hour (the lecture at 1:48:58, §5.5 (Cache "
                "hits and memory tiers))");
    derive_real("E_REMAT_DSV3_131072_TOKENS_USD_PER_B", remat_usd_per_byte(131072, 2.0),
                "recomputing 131,072 tokens of DeepSeek-V3 at $2 a chip-hour (§5.5 (Cache hits and "
                "memory tiers))");
}

static void schedule(void)
{
    /* Claude Opus 4.6 per million tokens: in 5, 5-minute write 6.25, 1-hour write 10,
     * hit 0.50; the tests' prefix is a million tokens */
    const double in = 5, w5 = 6.25, w1 = 10, hit = 0.5;
    derive_real("E_SCHEDULE_ONE_REQUEST_USD", in,
                "one request, Claude Opus 4.6 (§5.8 (A conversation's cache bill))");
    derive_real(
        "E_SCHEDULE_4_MIN_APART_USD", w5 + 2 * hit,
        "three requests 4 minutes apart, Claude Opus 4.6 (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_HALF_HOUR_3_USD", w1 + 2 * hit,
                "three requests half an hour apart (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_HALF_HOUR_2_USD", 2 * in,
                "two requests half an hour apart (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_300S_APART_USD", w5 + hit,
                "two requests 300 s apart (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_300_5S_APART_USD", 2 * in,
                "two requests 300.5 s apart (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_EVERY_4_MIN_FOR_12_USD", w5 + 3 * hit,
                "four requests 4 minutes apart (§5.8 (A conversation's cache bill))");
    derive_real(
        "E_SCHEDULE_PAIR_PAUSE_PAIR_USD", fmin(2 * (w5 + hit), w1 + 3 * hit),
        "two pairs a minute apart, 2,000 s between them (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_TIE_USD", 0.9 + 0.9,
                "two requests 100 s apart, $0.90 in, $1.40 write, $0.40 hit (§5.8 (A "
                "conversation's cache bill))");
    derive_real("E_SCHEDULE_PAST_TIE_USD", (1.4 - 1.8e-8) + 0.4,
                "the same with the write $1.8e-8 cheaper (§5.8 (A conversation's cache bill))");
    derive_real("E_SCHEDULE_GPT5_3_USD", 3 * 1.25,
                "three requests on GPT-5's list, $1.25 in, no writes (lib/price.c)");
}

/* A toy of one chip: 1,000 B of HBM (unless said), 1 FLOP/s, 100 B/s, $3,600 an hour; 100 B of
 * weights, 0.5 active parameters, 1 B of cache a token, no attention. By the roofline of §5.1
 * (The roofline against context) a token takes max(1, (100 / B + L) / 100) s and costs 1e6
 * USD/Mtok a second; the step is B tokens' time; HBM holds 100 + B L. The longest L of §5.6
 * (Why context stopped near 200k) is found here by trying every L and B (the toy is small). */
static double toy_token_s(double B, double L)
{
    return fmax(1, (100 / B + L) / 100);
}

typedef struct {
    double L, B, step_s, usd;
} reach;

static reach toy_reach(double hbm, double max_step_s, double max_usd, double window)
{
    reach best = {0, 0, 0, 0};
    for (double L = 1; L <= window; L++) {
        double bB = 0, bc = 0;
        for (double B = 1; 100 + B * L <= hbm; B++) {
            double c = toy_token_s(B, L) * 1e6;
            if (B * toy_token_s(B, L) > max_step_s || c > max_usd)
                continue;
            if (bB == 0 || c < bc * (1 - 1e-9))
                bB = B, bc = c;
        }
        if (bB > 0)
            best = (reach){L, bB, bB * toy_token_s(bB, L), bc};
    }
    return best;
}

static void put_reach(const char *prefix, reach r, const char *source)
{
    char name[80];
    snprintf(name, sizeof name, "E_REACH_%s_TOKENS", prefix);
    derive_real(name, r.L, source);
    snprintf(name, sizeof name, "E_REACH_%s_BATCH", prefix);
    derive_real(name, r.B, "its batch (contract: the cheapest, the smallest on a tie)");
    snprintf(name, sizeof name, "E_REACH_%s_STEP_S", prefix);
    derive_real(name, r.step_s, "its step");
    snprintf(name, sizeof name, "E_REACH_%s_USD_PER_MTOK", prefix);
    derive_real(name, r.usd, "its cost per million generated tokens");
}

static void longest(void)
{
    const double none = 1e12;
    put_reach("TOY_HBM_ONLY", toy_reach(1000, none, none, 1e6),
              "toy, 1,000 B of HBM, step and price free (§5.6 (Why context stopped near 200k))");
    put_reach("TOY_PRICE", toy_reach(1000, none, 2e6, 1e6),
              "toy, a price of 2e6 USD/Mtok (§5.6 (Why context stopped near 200k))");
    put_reach("TOY_STEP", toy_reach(1000, 4, none, 1e6),
              "toy, a step of 4 s (§5.6 (Why context stopped near 200k))");
    put_reach("TOY_WINDOW_20", toy_reach(1000, none, none, 20),
              "toy, a window of 20 tokens (§5.6 (Why context stopped near 200k))");
    put_reach("TOY_WINDOW_50", toy_reach(1000, none, none, 50),
              "toy, a window of 50 tokens (§5.6 (Why context stopped near 200k))");
    put_reach("TOY_HBM_101", toy_reach(101, none, none, 1e6),
              "toy, 101 B of HBM (§5.6 (Why context stopped near 200k))");
    /* DeepSeek-V3 on an NVL72, 131,072-token window, 50 ms, $1.10/Mtok, $2 a chip-hour:
     * past the kink at every batch that fits, so the cheapest batch is the largest */
    double L = 131072, K = (CHIPS * HBM_CHIP - N_TOTAL * BETA) / B_KV;
    double B = floor(K / L);
    double fetch_s = dsv3_memory_s(B, L);
    if (dsv3_compute_s(L, F_ATTN) >= fetch_s || B * fetch_s > 0.05 ||
        CHIPS * 2 / 3600.0 * 1e6 * fetch_s > 1.10) {
        fprintf(stderr, "derive: DeepSeek-V3's window does not bind as assumed\n");
        derive_failed = 1;
    }
    derive_real("E_REACH_DSV3_BATCH", B,
                "DeepSeek-V3, GB200 NVL72, fp4/fp8, $2 a chip-hour, 50 ms, DeepSeek's $1.10: "
                "the batch at its 131,072-token window (§5.6 (Why context stopped near 200k))");
    derive_real("E_REACH_DSV3_STEP_S", B * fetch_s,
                "its step (§5.1 (The roofline against context))");
    derive_real("E_REACH_DSV3_USD_PER_MTOK", CHIPS * 2 / 3600.0 * 1e6 * fetch_s,
                "its cost per million generated tokens (§5.1 (The roofline against context))");
}

/* §5.7 (Price lists as data) on §5.1 (The roofline against context)'s cost: the first token
 * after a prompt of L tokens pays its tier's OUTPUT price and costs the rent of its share of a
 * decode step at context L. The toys run one chip of 1e6 FLOP/s and 1e6 B/s, rented at 3,600
 * USD an hour (1 USD a second), so a token's cost in USD per million tokens is the larger of
 * its FLOPs, 2 N_active + L f, and its bytes, N_total / B + L b_kv (1 byte a parameter): two
 * rising lines in L. The largest whole L with both at most a price c is
 * floor(min((c - 2 N_active) / f, (c - N_total / B) / b_kv)) (f = 0: no bound from the first). */
static long long toy_last_covered(double two_n_active, double f, double weight_share, double kv,
                                  double c)
{
    double by_bytes = (c - weight_share) / kv;
    double by_flops = f > 0 ? (c - two_n_active) / f : by_bytes;
    return (long long)floor(fmin(by_flops, by_bytes));
}

static void window(void)
{
    /* toy A: 64 parameters, 1 active, 2 B of cache and 1 attention FLOP a token, batch 4:
     * FLOPs 2 + L, bytes 16 + 2 L: the bytes are the larger at every L */
    long long a100 = toy_last_covered(2, 1, 16, 2, 100);
    derive_int("E_WINDOW_TOY_A_FLAT_TOKENS", a100,
               "toy A (public test), one tier of $25 in and $100 out: closed form of §5.1 (The "
               "roofline against context) and §5.7 (Price lists as data)");
    /* toy A at a one-token prompt: FLOPs 2 + 1, bytes 16 + 2 */
    derive_real("E_WINDOW_TOY_A_1_TOKEN_USD_PER_MTOK", fmax(2 + 1, 16 + 2 * 1),
                "toy A, the first token generated after a one-token prompt, USD per million "
                "tokens at the toy's rent: §5.1 (The roofline against context)");
    /* toy B: 64 parameters, 64 active, 5 B of cache and 4 attention FLOPs a token, batch 4:
     * FLOPs 128 + 4 L, bytes 16 + 5 L: the FLOPs are the larger below L = 112 */
    long long b400 = toy_last_covered(128, 4, 16, 5, 400);
    if (128 + 4.0 * b400 < 16 + 5.0 * b400) {
        fprintf(stderr, "derive: toy B is not compute-bound at its window\n");
        derive_failed = 1;
    }
    derive_int("E_WINDOW_TOY_B_FLAT_TOKENS", b400,
               "toy B (public test), one tier of $100 in and $400 out, met exactly at the "
               "window: closed form of §5.1 (The roofline against context) and §5.7 (Price "
               "lists as data)");
    /* tiered lists on toy A: the short tier covers 1..42 */
    derive_int("E_WINDOW_TOY_A_GAP_TOKENS", a100,
               "toy A, $25 in / $100 out up to 50 tokens, $50 / $200 above: closed form of §5.1 (The roofline "
               "against context) and §5.7 (Price lists as data)");
    derive_int("E_WINDOW_TOY_A_LONG_TOKENS", toy_last_covered(2, 1, 16, 2, 200),
               "toy A, $25 in / $100 out up to 40 tokens, $50 / $200 above: closed form of §5.1 (The roofline "
               "against context) and §5.7 (Price lists as data)");
    /* lists whose tier has an output price but no input price (0): the generated token
     * reads only its tier's output price (contract), so these are toy A's windows at
     * $100 out on one tier and at $100 / $200 out around 40 tokens, as above */
    derive_int("E_WINDOW_TOY_A_NO_INPUT_TOKENS", a100,
               "toy A, one tier of no input price and $100 out: the token bills at its "
               "output price alone (contract); closed form of §5.1 (The roofline against "
               "context) and §5.7 (Price lists as data)");
    derive_int("E_WINDOW_TOY_A_LONG_NO_INPUT_TOKENS", toy_last_covered(2, 1, 16, 2, 200),
               "toy A, $25 in / $100 out up to 40 tokens, no input price / $200 out above: "
               "the token bills at its output price alone (contract); closed form of §5.1 "
               "(The roofline against context) and §5.7 (Price lists as data)");
    /* toy A at $2,000,000,000,001 out: a window near a trillion tokens, where the
     * contract's relative 1e-9 of slack is worth about 1,000 tokens: the last L with
     * 16 + 2 L <= c (1 + 1e-9) */
    long double c_big = 2e12L + 1, edge = (c_big * (1 + 1e-9L) - 16) / 2;
    if (edge - floorl(edge) < 1e-3L || edge - floorl(edge) > 1 - 1e-3L) {
        fprintf(stderr, "derive: toy A's trillion-token window sits on a whole token\n");
        derive_failed = 1;
    }
    derive_int("E_WINDOW_TOY_A_TRILLION_TOKENS", (long long)floorl(edge),
               "toy A, one tier of $25 in and $2,000,000,000,001 out, the contract's relative 1e-9 "
               "included: closed form of §5.1 (The roofline against context) and §5.7 "
               "(Price lists as data)");
    /* DeepSeek-V3 on an NVL72 at batch 512 and $2 a chip-hour, DeepSeek's $1.10 output
     * price: k = 72 x 2 / 3600 x 1e6 USD per million tokens per second of a token's time */
    long double k = 72.0L * 2 / 3600 * 1e6, c = 1.10L, batch = 512;
    long double by_bytes =
        (c / k * CHIPS * W_CHIP - (long double)N_TOTAL * BETA / batch) / B_KV;
    long double L = floorl(by_bytes);
    long double flops_s = (2.0L * N_ACTIVE + L * F_ATTN) / (CHIPS * F_CHIP);
    long double bytes_s = ((long double)N_TOTAL * BETA / batch + L * B_KV) / (CHIPS * W_CHIP);
    if (flops_s >= bytes_s || by_bytes - L < 1e-3L || by_bytes - L > 1 - 1e-3L) {
        fprintf(stderr, "derive: DeepSeek-V3's window is not memory-bound or sits on a whole "
                        "token\n");
        derive_failed = 1;
    }
    derive_int("E_WINDOW_DSV3_B512_TOKENS", (long long)L,
               "DeepSeek-V3, GB200 NVL72, fp4/fp8, batch 512, $2 a chip-hour, DeepSeek's own "
               "list: closed form of §5.1 (The roofline against context) and §5.7 (Price "
               "lists as data)");
    /* The model of the Gemini figure of §5.1 on the NVL72 at a batch of 65,536, $2 a
     * chip-hour: at a million tokens of context, the end of Gemini 3.1 Pro's window, a
     * token costs less than even the short tier's $12 out, and the cost never falls as the
     * context shrinks, so every prompt of the window is covered */
    double at_1m = 72 * 2 / 3600.0 * 1e6 *
                   fmax((2 * 1e11 + 1e6 * 2.0 * 10 * 16 * 256) / (CHIPS * F_CHIP),
                        (1e12 * 0.5 / 65536 + 1e6 * 800.0) / (CHIPS * W_CHIP));
    if (!(at_1m < 12)) {
        fprintf(stderr, "derive: the Gemini figure's model is not covered at a million\n");
        derive_failed = 1;
    }
    derive_int("E_WINDOW_GEMINI_FIGURE_TOKENS", 1000000,
               "the model of the Gemini figure, NVL72, batch 65,536, $2 a chip-hour, Gemini 3.1 "
               "Pro's list, a window of a million tokens: closed form of §5.1 (The roofline "
               "against context) and §5.7 (Price lists as data)");
}

int main(void)
{
    derive_begin("05-long-context");
    kink();
    pass();
    draft();
    tiers();
    schedule();
    longest();
    window();
    return derive_end();
}
