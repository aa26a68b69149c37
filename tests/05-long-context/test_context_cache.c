/*
 * test_context_cache.c -- Chapter 5 tests, third file: where to keep a cached context
 * or whether to recompute it (cache_tiers, §5.5 (Cache hits and memory tiers)), what
 * a request costs on a price list (api_bill, §5.7 (Price lists as data)) and the
 * cheapest cache schedule of a conversation (cache_schedule, §5.8 (A conversation's
 * cache bill)), and the longest window a price list sells without a loss
 * (price_window, §5.7 (Price lists as data) with §5.1 (The roofline against context)).
 * main() and the shared fixtures are in test_context.c; each test states
 * one fact, its source named above it.
 *
 * Published inputs used below (the others are in test_context.c's header):
 *   Gemini 3.1 Pro  $2 / $12 per million tokens up to 200k, $4 / $18 above
 *                 (lib/price.c: Google's list as quoted by a third party, 2026-03-28)
 *   Claude Opus 4.6 $5 in, $25 out, hits $0.50, writes $6.25 (5 min) / $10 (1 h)
 *                 (lib/price.c: Anthropic's pricing page)
 *   Devices       DDR5-6400: 6400e6 x 8 B/s per channel (JEDEC); Micron 9550 PRO
 *                 30.72 TB at 14 GB/s; Seagate Exos X24 24 TB at 285 MB/s (data
 *                 sheets); prices as in lib/tier.c
 */
#include "../test_util.h"

#include "context.h"
#include "expected.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* The fixtures every file of these tests shares, defined in test_context.c. */
#include "fixtures.h"

/* The four tiers of lib/tier.c, written out with their sources. A bought device is
 * spread over five years of 365.25 days. */
#define LIFE_H (5 * 365.25 * 24)
static const cost_tier HBM = {"hbm", "B200 HBM", 186e9, 8e12, 2.0, "", ""};
static const cost_tier DDR = {"ddr", "DDR5-6400 RDIMM", 256e9, 6400e6 * 8,
                              76999.0 / 16 / LIFE_H, "", ""};
static const cost_tier NVME = {"nvme", "Micron 9550", 30.72e12, 14e9,
                               0.079 * 30.72e3 / LIFE_H, "", ""};
static const cost_tier HDD = {"hdd", "Exos X24", 24e12, 285e6, 0.014 * 24e3 / LIFE_H, "", ""};

/* ---- 5.8 cache_tiers ------------------------------------------------------- */

/* Drain times of the lecture's Rubin (288 GB at 20 TB/s), a 256 GB DIMM on a
 * DDR5-6400 channel, the Micron 9550 and the Exos X24 (E_DRAIN_*: data sheets). */
static void drain_times_of_four_devices(void **state)
{
    (void)state;
    assert_close(context_drain_s(288e9, 20e12), E_DRAIN_RUBIN_S, TIGHT, "s");
    assert_close(context_drain_s(256e9, 51.2e9), E_DRAIN_DDR5_6400_S, TIGHT, "s");
    assert_close(context_drain_s(30.72e12, 14e9), E_DRAIN_MICRON_9550_S, TIGHT, "s");
    assert_close(context_drain_s(24e12, 285e6), E_DRAIN_EXOS_X24_S, TIGHT, "s");
}

/* Two toy devices (§5.5 (Cache hits and memory tiers)): one of 96 bytes read at 12 bytes/s
 * for $2,700 an hour, its bytes held 3 s and 20 s (E_TIER_TOY_HOLD_3S_USD_PER_B,
 * E_TIER_TOY_HOLD_20S_USD_PER_B), and one of 64 bytes read at 16 bytes/s for $7,200 an
 * hour, held its 4 s drain time (E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B). */
static void toy_devices_held_below_at_and_above_their_drain_times(void **state)
{
    (void)state;
    cost_tier t = {"toy", "toy", 96, 12, 2700, "", ""};
    assert_close(context_tier_usd_per_byte(&t, 3), E_TIER_TOY_HOLD_3S_USD_PER_B, TIGHT,
                 "USD/B");
    assert_close(context_tier_usd_per_byte(&t, 20), E_TIER_TOY_HOLD_20S_USD_PER_B, TIGHT,
                 "USD/B");
    cost_tier small = {"small", "small", 64, 16, 7200, "", ""};
    assert_close(context_tier_usd_per_byte(&small, 4), E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B,
                 TIGHT, "USD/B");
}

/* The cheapest of lib/tier.c's four tiers for holds of 10 ms, 1 s, 5 minutes, an hour and a
 * day, and what it costs (E_CHEAPEST_TIER_*, E_TIER_*: §5.5 (Cache hits and memory tiers)). */
static void the_cheapest_of_four_tiers_across_holds(void **state)
{
    (void)state;
    const cost_tier *tiers[] = {&HBM, &DDR, &NVME, &HDD};
    const double holds[] = {0.01, 1, 300, 3600, 86400};
    const size_t expected[] = {E_CHEAPEST_TIER_10MS, E_CHEAPEST_TIER_1S, E_CHEAPEST_TIER_300S,
                               E_CHEAPEST_TIER_3600S, E_CHEAPEST_TIER_86400S};
    const double usd[] = {E_TIER_HBM_10MS_USD_PER_B, E_TIER_DDR_1S_USD_PER_B,
                          E_TIER_NVME_300S_USD_PER_B, E_TIER_NVME_3600S_USD_PER_B,
                          E_TIER_HDD_86400S_USD_PER_B};
    for (size_t i = 0; i < 5; i++) {
        context_tier_choice c = context_cheapest_tier(tiers, 4, holds[i], INFINITY);
        assert_false(c.remat);
        assert_int_equal(c.tier, expected[i]);
        assert_close(c.usd_per_byte, usd[i], TIGHT, "USD/B");
    }
}

/* The lecture at 1:48:58: recomputing one token of DeepSeek-V3 on $2/h chips, per byte of its
 * cache (E_REMAT_DSV3_1_TOKEN_USD_PER_B: §5.5 (Cache hits and memory tiers)). */
static void recomputing_one_token_of_deepseek_v3(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_close(context_remat_usd_per_byte(&d, 1, 2.0), E_REMAT_DSV3_1_TOKEN_USD_PER_B, TIGHT,
                 "USD/B");
}

/* Recomputing a 131,072-token context of DeepSeek-V3, attention included
 * (E_REMAT_DSV3_131072_TOKENS_USD_PER_B: §5.5 (Cache hits and memory tiers)). */
static void recomputing_a_128k_context_of_deepseek_v3(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_close(context_remat_usd_per_byte(&d, 131072, 2.0),
                 E_REMAT_DSV3_131072_TOKENS_USD_PER_B, TIGHT, "USD/B");
}

/* The lecture at 1:48:58: held 10 s, HBM is cheaper than recomputing one token; held a minute, it
 * is not (E_TIER_HBM_10S_USD_PER_B, E_REMAT_DSV3_1_TOKEN_USD_PER_B). */
static void recomputing_beats_hbm_for_long_holds(void **state)
{
    (void)state;
    const cost_tier *only_hbm[] = {&HBM};
    double remat = E_REMAT_DSV3_1_TOKEN_USD_PER_B;
    context_tier_choice held = context_cheapest_tier(only_hbm, 1, 10, remat);
    assert_false(held.remat);
    assert_close(held.usd_per_byte, E_TIER_HBM_10S_USD_PER_B, TIGHT, "USD/B");
    context_tier_choice redone = context_cheapest_tier(only_hbm, 1, 60, remat);
    assert_true(redone.remat);
    assert_int_equal(redone.tier, 0);
    assert_close(redone.usd_per_byte, remat, TIGHT, "USD/B");
}

/* The contract's ties: of two tiers that cost the same the earlier wins, and
 * recomputing wins when it costs exactly what the cheapest tier does (the second toy
 * device held its drain time, E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B, exact in a double). */
static void ties_go_to_the_earlier_tier_and_to_recomputing(void **state)
{
    (void)state;
    cost_tier a = {"a", "a", 64, 16, 7200, "", ""};
    cost_tier b = {"b", "b", 64, 16, 7200, "", ""};
    const cost_tier *twins[] = {&a, &b};
    context_tier_choice c = context_cheapest_tier(twins, 2, 4, INFINITY);
    assert_false(c.remat);
    assert_int_equal(c.tier, 0);
    assert_true(context_cheapest_tier(twins, 2, 4, E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B).remat);
    assert_false(
        context_cheapest_tier(twins, 2, 4, E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B * 1.000001).remat);
    /* recomputing below the cheaper, later tier: tier is 0, as the contract says,
     * not the index of the tier it beat (`half`, a at half its price) */
    cost_tier half = {"half", "half", 64, 16, 3600, "", ""};
    const cost_tier *pair[] = {&a, &half};
    context_tier_choice r = context_cheapest_tier(pair, 2, 4, 0.01);
    assert_true(r.remat);
    assert_int_equal(r.tier, 0);
    assert_close(r.usd_per_byte, 0.01, TIGHT, "USD/B");
}

/* ---- 5.11 api_bill --------------------------------------------------------- */

/* Gemini 3.1 Pro: 100k in, 10k out, short tier: 0.1 x $2 + 0.01 x $12 = $0.32. */
static void gemini_short_prompt_pays_2_and_12_per_million(void **state)
{
    (void)state;
    context_bill b =
        context_api_usd(api_prices("gemini-3.1-pro"), 100e3, 10e3, 0, COST_CACHE_WRITE_NONE);
    assert_true(b.exists);
    assert_false(b.long_tier);
    assert_close(b.usd, 0.1 * 2 + 0.01 * 12, TIGHT, "USD");
}

/* Gemini's rule: a prompt over 200k bills every token at $4 / $18, not only the
 * tokens past the threshold: 0.3 x $4 + 0.01 x $18 = $1.38. */
static void gemini_long_prompt_bills_every_token_at_the_long_tier(void **state)
{
    (void)state;
    context_bill b =
        context_api_usd(api_prices("gemini-3.1-pro"), 300e3, 10e3, 0, COST_CACHE_WRITE_NONE);
    assert_true(b.long_tier);
    assert_close(b.input_usd, 0.3 * 4, TIGHT, "USD");
    assert_close(b.output_usd, 0.01 * 18, TIGHT, "USD");
    assert_close(b.usd, 1.38, TIGHT, "USD");
}

/* Gemini: "<= 200k" is short: 200,000 tokens cost $0.40, one more token $0.800004. */
static void gemini_prompt_of_exactly_200k_is_still_short(void **state)
{
    (void)state;
    const cost_api_price *g = api_prices("gemini-3.1-pro");
    assert_close(context_api_usd(g, 200e3, 0, 0, COST_CACHE_WRITE_NONE).usd, 0.4, TIGHT, "USD");
    assert_close(context_api_usd(g, 200001, 0, 0, COST_CACHE_WRITE_NONE).usd, 200001 * 4e-6,
                 TIGHT, "USD");
}

/* Gemini: the prompt picks the tier, not prompt plus output: 150k in and 100k out is
 * short, 0.15 x $2 + 0.1 x $12 = $1.50. */
static void output_tokens_do_not_choose_the_tier(void **state)
{
    (void)state;
    context_bill b =
        context_api_usd(api_prices("gemini-3.1-pro"), 150e3, 100e3, 0, COST_CACHE_WRITE_NONE);
    assert_false(b.long_tier);
    assert_close(b.usd, 1.5, TIGHT, "USD");
}

/* Anthropic: hits cost 0.1x. Opus, 100k prompt of which 90k cached: 10k x $5 + 90k x
 * $0.50 per million = $0.095. */
static void claude_cache_hits_cost_a_tenth_of_input(void **state)
{
    (void)state;
    context_bill b =
        context_api_usd(api_prices("claude-opus-4.6"), 100e3, 0, 90e3, COST_CACHE_WRITE_NONE);
    assert_true(b.exists);
    assert_close(b.cached_usd, 90e3 * 0.5e-6, TIGHT, "USD");
    assert_close(b.usd, 0.05 + 0.045, TIGHT, "USD");
}

/* Anthropic: writes cost 1.25x (5 minutes) and 2x (1 hour): a 100k-token write is
 * $0.625 or $1.00 against $0.50 unwritten; hits in the same request stay at 0.1x. */
static void claude_writes_cost_1_25x_for_5_minutes_and_2x_for_an_hour(void **state)
{
    (void)state;
    const cost_api_price *o = api_prices("claude-opus-4.6");
    assert_close(context_api_usd(o, 100e3, 0, 0, COST_CACHE_WRITE_5M).usd, 0.625, TIGHT, "USD");
    assert_close(context_api_usd(o, 100e3, 0, 0, COST_CACHE_WRITE_1H).usd, 1.0, TIGHT, "USD");
    context_bill mixed = context_api_usd(o, 100e3, 0, 60e3, COST_CACHE_WRITE_1H);
    assert_close(mixed.usd, 40e3 * 10e-6 + 60e3 * 0.5e-6, TIGHT, "USD");
}

/* No price, no bill: Gemini 3.1's long-tier cache read and GPT-5's 5-minute write
 * are not on the lists. Every amount is then 0. */
static void a_price_the_list_lacks_gives_no_bill(void **state)
{
    (void)state;
    context_bill none =
        context_api_usd(api_prices("gemini-3.1-pro"), 300e3, 0, 100e3, COST_CACHE_WRITE_NONE);
    assert_false(none.exists);
    assert_close(none.usd, 0, TIGHT, "USD");
    assert_close(none.input_usd, 0, TIGHT, "USD");
    assert_true(context_api_usd(api_prices("gemini-3.1-pro"), 100e3, 0, 50e3, COST_CACHE_WRITE_NONE)
                    .exists);
    assert_false(context_api_usd(api_prices("gpt-5"), 100e3, 0, 0, COST_CACHE_WRITE_5M).exists);
}

/* The contract: long_tier reports the prompt's tier even when there is no bill (a
 * 300k-token Gemini 3.1 prompt with cached tokens has no long-tier read price). */
static void long_tier_is_reported_even_without_a_bill(void **state)
{
    (void)state;
    context_bill b =
        context_api_usd(api_prices("gemini-3.1-pro"), 300e3, 0, 100e3, COST_CACHE_WRITE_NONE);
    assert_false(b.exists);
    assert_true(b.long_tier);
}

/* The contract: a write price belongs to the list, not to a tier. A two-tier list
 * ($3 short, $6 long input) with a $3.75 5-minute write bills a 300k-token write at
 * 0.3 x $3.75 = $1.125, and its output at the long tier's $22.50. */
static void a_write_price_is_the_lists_at_either_tier(void **state)
{
    (void)state;
    cost_api_price p = {
        .name = "two-tier-with-writes", .base = {3, 15, 0.3},
        .long_threshold_tokens = 200e3, .long_prompt = {6, 22.5, 0.6},
        .cache_write_5m_usd_per_mtok = 3.75, .cache_write_1h_usd_per_mtok = 6,
    };
    context_bill b = context_api_usd(&p, 300e3, 1e3, 0, COST_CACHE_WRITE_5M);
    assert_true(b.long_tier);
    assert_close(b.input_usd, 0.3 * 3.75, TIGHT, "USD");
    assert_close(b.output_usd, 1e3 * 22.5e-6, TIGHT, "USD");
}

/* The contract: a tier without an output price bills no output (a request with none
 * still has a bill: 100k tokens at $2, $0.20), and a tier without an input price bills
 * no request that asks for it, even one whose prompt is all cached; a write price,
 * the list's, still bills it: 100k at $2.50 = $0.25, and 10 output tokens at $10. */
static void a_tier_without_an_output_or_input_price_gives_no_bill(void **state)
{
    (void)state;
    cost_api_price no_out = {.name = "no-output", .base = {2, 0, 0.5}};
    context_bill b = context_api_usd(&no_out, 100e3, 0, 0, COST_CACHE_WRITE_NONE);
    assert_true(b.exists);
    assert_close(b.usd, 0.2, TIGHT, "USD");
    context_bill one = context_api_usd(&no_out, 100e3, 1, 0, COST_CACHE_WRITE_NONE);
    assert_false(one.exists);
    assert_close(one.usd, 0, TIGHT, "USD");
    cost_api_price no_in = {.name = "no-input", .base = {0, 10, 0.5},
                            .cache_write_5m_usd_per_mtok = 2.5};
    assert_false(context_api_usd(&no_in, 100e3, 0, 100e3, COST_CACHE_WRITE_NONE).exists);
    context_bill w = context_api_usd(&no_in, 100e3, 10, 0, COST_CACHE_WRITE_5M);
    assert_true(w.exists);
    assert_close(w.input_usd, 0.25, TIGHT, "USD");
    assert_close(w.output_usd, 10 * 10e-6, TIGHT, "USD");
}

/* ---- 5.12 cache_schedule --------------------------------------------------- */

/* Claude Opus 4.6, per million tokens: input $5, 5-minute write $6.25, 1-hour write
 * $10, hit $0.50; a prefix of a million tokens bills those amounts exactly. */
#define MTOK 1e6

static double schedule(const cost_api_price *p, const double *t, size_t n,
                       context_cache_action *actions)
{
    for (size_t i = 0; i < n; i++)
        actions[i] = (context_cache_action)-1;
    return context_cheapest_cache_schedule(p, MTOK, t, n, actions);
}

static void assert_actions(const context_cache_action *got, const context_cache_action *want,
                           size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

/* One request has nothing to reuse: it is sent uncached (E_SCHEDULE_ONE_REQUEST_USD). */
static void a_single_request_is_sent_uncached(void **state)
{
    (void)state;
    double t[] = {0};
    context_cache_action a[1];
    assert_close(schedule(api_prices("claude-opus-4.6"), t, 1, a), E_SCHEDULE_ONE_REQUEST_USD,
                 TIGHT, "USD");
    assert_int_equal(a[0], CONTEXT_SEND_UNCACHED);
}

/* Three requests 4 minutes apart, Claude Opus 4.6 (E_SCHEDULE_4_MIN_APART_USD: §5.8 (A
 * conversation's cache bill)). */
static void requests_four_minutes_apart(void **state)
{
    (void)state;
    double t[] = {0, 240, 480};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE};
    assert_close(schedule(api_prices("claude-opus-4.6"), t, 3, a), E_SCHEDULE_4_MIN_APART_USD,
                 TIGHT, "USD");
    assert_actions(a, want, 3);
}

/* Three requests half an hour apart, and two (E_SCHEDULE_HALF_HOUR_*: §5.8 (A conversation's
 * cache bill)). */
static void requests_half_an_hour_apart(void **state)
{
    (void)state;
    double t3[] = {0, 1800, 3600};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_WRITE_1H, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE};
    assert_close(schedule(api_prices("claude-opus-4.6"), t3, 3, a), E_SCHEDULE_HALF_HOUR_3_USD,
                 TIGHT, "USD");
    assert_actions(a, want, 3);
    double t2[] = {0, 1800};
    context_cache_action b[2];
    context_cache_action none[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api_prices("claude-opus-4.6"), t2, 2, b), E_SCHEDULE_HALF_HOUR_2_USD,
                 TIGHT, "USD");
    assert_actions(b, none, 2);
}

/* The contract's boundary: an entry exactly 300 s old is still live; half a second
 * later it is gone (E_SCHEDULE_300S_APART_USD, E_SCHEDULE_300_5S_APART_USD). */
static void an_entry_exactly_its_life_old_is_live(void **state)
{
    (void)state;
    double live[] = {0, 300};
    context_cache_action a[2];
    context_cache_action hit[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE};
    assert_close(schedule(api_prices("claude-opus-4.6"), live, 2, a), E_SCHEDULE_300S_APART_USD,
                 TIGHT, "USD");
    assert_actions(a, hit, 2);
    double gone[] = {0, 300.5};
    context_cache_action none[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api_prices("claude-opus-4.6"), gone, 2, a), E_SCHEDULE_300_5S_APART_USD,
                 TIGHT, "USD");
    assert_actions(a, none, 2);
}

/* The contract: a hit restarts the entry's life. Requests every 4 minutes for 12
 * minutes (E_SCHEDULE_EVERY_4_MIN_FOR_12_USD). */
static void a_hit_restarts_the_entry_life(void **state)
{
    (void)state;
    double t[] = {0, 240, 480, 720};
    context_cache_action a[4];
    context_cache_action want[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE,
                                   CONTEXT_READ_CACHE};
    assert_close(schedule(api_prices("claude-opus-4.6"), t, 4, a),
                 E_SCHEDULE_EVERY_4_MIN_FOR_12_USD, TIGHT, "USD");
    assert_actions(a, want, 4);
}

/* A pair a minute apart, a pause of 2,000 s, another pair
 * (E_SCHEDULE_PAIR_PAUSE_PAIR_USD: §5.8 (A conversation's cache bill)). */
static void a_pair_a_pause_and_a_pair(void **state)
{
    (void)state;
    double t[] = {0, 60, 2000, 2060};
    context_cache_action a[4];
    context_cache_action want[] = {CONTEXT_WRITE_1H, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE,
                                   CONTEXT_READ_CACHE};
    assert_close(schedule(api_prices("claude-opus-4.6"), t, 4, a), E_SCHEDULE_PAIR_PAUSE_PAIR_USD,
                 TIGHT, "USD");
    assert_actions(a, want, 4);
}

/* The tie rule: on a list of $0.90 input, $1.40 5-minute write and $0.40 hit, two
 * requests 100 s apart cost $1.80 uncached and $1.80 written then read (in doubles the
 * two sums differ in the last bit): uncached comes first in the order, and wins
 * (E_SCHEDULE_TIE_USD). */
static void ties_go_to_the_earlier_action(void **state)
{
    (void)state;
    cost_api_price p = {.name = "tie", .base = {0.9, 1, 0.4}, .cache_write_5m_usd_per_mtok = 1.4};
    double t[] = {0, 100};
    context_cache_action a[2];
    context_cache_action want[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(&p, t, 2, a), E_SCHEDULE_TIE_USD, TIGHT, "USD");
    assert_actions(a, want, 2);
}

/* The tie rule's tolerance is relative to the least total. With the write $1.8e-10
 * cheaper, written then read is within 1e-9 of the least: uncached still comes first.
 * With it $1.8e-8 cheaper (a relative 1e-8, past the tolerance) the write and the hit
 * are the one cheapest schedule (E_SCHEDULE_PAST_TIE_USD). */
static void the_tie_tolerance_is_relative_to_the_least_total(void **state)
{
    (void)state;
    double t[] = {0, 100};
    context_cache_action a[2];
    cost_api_price near = {.name = "near", .base = {0.9, 1, 0.4},
                           .cache_write_5m_usd_per_mtok = 1.4 - 1.8e-10};
    context_cache_action uncached[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(&near, t, 2, a), E_SCHEDULE_TIE_USD, TIGHT, "USD");
    assert_actions(a, uncached, 2);
    cost_api_price past = {.name = "past", .base = {0.9, 1, 0.4},
                           .cache_write_5m_usd_per_mtok = 1.4 - 1.8e-8};
    context_cache_action cached[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE};
    assert_close(schedule(&past, t, 2, a), E_SCHEDULE_PAST_TIE_USD, TIGHT, "USD");
    assert_actions(a, cached, 2);
}

/* A list without write prices (GPT-5) cannot write: every request uncached
 * (E_SCHEDULE_GPT5_3_USD). */
static void a_list_without_writes_sends_everything_uncached(void **state)
{
    (void)state;
    double t[] = {0, 10, 20};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED,
                                   CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api_prices("gpt-5"), t, 3, a), E_SCHEDULE_GPT5_3_USD, TIGHT, "USD");
    assert_actions(a, want, 3);
}

/* ---- 5.13 price_window ----------------------------------------------------- */

/* The toys run one chip of 1e6 FLOP/s and 1e6 B/s (toy_deploy: 1 byte a parameter),
 * rented at 3,600 USD an hour, at a batch of 4 sequences; their lists are written out
 * here. Expected windows: E_WINDOW_* (deriving them is the exercise). */
#define TOY_USD_PER_CHIP_HOUR 3600.0
#define TOY_BATCH 4.0

/* toy A: 64 parameters, 1 active; 2 B of cache and 1 attention FLOP a token of context */
static context_deploy toy_a(void)
{
    return toy_deploy(64, 1, 2, 1, 1e6, 1e6);
}

/* toy B: 64 parameters, all active; 5 B of cache and 4 attention FLOPs a token */
static context_deploy toy_b(void)
{
    return toy_deploy(64, 64, 5, 4, 1e6, 1e6);
}

/* A list of one tier: `in` and `out` USD per million tokens. */
static cost_api_price flat_list(double in, double out)
{
    cost_api_price p = {.name = "toy", .base = {.input_usd_per_mtok = in,
                                                .output_usd_per_mtok = out}};
    return p;
}

/* A list of two tiers: $25 / `out` up to `threshold` tokens, $50 / `long_out` above. */
static cost_api_price tiered_list(double out, double threshold, double long_out)
{
    cost_api_price p = flat_list(25, out);
    p.long_threshold_tokens = threshold;
    p.long_prompt.input_usd_per_mtok = 50;
    p.long_prompt.output_usd_per_mtok = long_out;
    return p;
}

static void assert_window(context_window w, double tokens, bool long_tier)
{
    assert_true(w.exists);
    assert_close(w.context_tokens, tokens, 0, "tokens");
    if (long_tier)
        assert_true(w.long_tier);
    else
        assert_false(w.long_tier);
}

/* Toy A on one tier of $25 in and $100 out, in a window of 1,000 tokens
 * (E_WINDOW_TOY_A_FLAT_TOKENS). */
static void a_flat_list_sells_until_a_token_costs_its_price(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p = flat_list(25, 100);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 1000),
                  E_WINDOW_TOY_A_FLAT_TOKENS, false);
}

/* Toy B on one tier of $100 in and $400 out: at the window's last token the cost
 * equals the price, and a cost equal to the charge is covered (contract)
 * (E_WINDOW_TOY_B_FLAT_TOKENS). */
static void toy_b_sells_up_to_a_cost_equal_to_its_price(void **state)
{
    (void)state;
    context_deploy d = toy_b();
    cost_api_price p = flat_list(100, 400);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 1000),
                  E_WINDOW_TOY_B_FLAT_TOKENS, false);
}

/* Toy A, $25 in / $100 out up to 50 tokens and $50 / $200 above: the window is the
 * longest L with EVERY prompt up to L covered (contract) (E_WINDOW_TOY_A_GAP_TOKENS). */
static void a_short_tier_that_stops_short_ends_the_window(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p = tiered_list(100, 50, 200);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 1000),
                  E_WINDOW_TOY_A_GAP_TOKENS, false);
}

/* Toy A, $25 in / $100 out up to 40 tokens and $50 / $200 above: the window ends in
 * the long tier (E_WINDOW_TOY_A_LONG_TOKENS). */
static void a_long_tier_extends_the_window(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p = tiered_list(100, 40, 200);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 1000),
                  E_WINDOW_TOY_A_LONG_TOKENS, true);
}

/* Toy A, $25 in / $100 out up to 42 tokens (E_WINDOW_TOY_A_FLAT_TOKENS, toy A's
 * one-tier window at those prices) and $50 in / no output price above: the window is
 * those 42 tokens, billed at the short tier, since a prompt of exactly the threshold
 * is short (§5.7 (Price lists as data)) and a price of 0 is one the list lacks
 * (contract). */
static void a_prompt_of_exactly_the_threshold_is_short(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p = tiered_list(100, E_WINDOW_TOY_A_FLAT_TOKENS, 0);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 1000),
                  E_WINDOW_TOY_A_FLAT_TOKENS, false);
}

/* Toy A on lists with an output price but no input price (0): the token bills at its
 * tier's output price alone, input price or not (contract). One tier of no input price
 * and $100 out sells toy A's one-tier window (E_WINDOW_TOY_A_NO_INPUT_TOKENS); $25 in /
 * $100 out up to 40 tokens and no input price / $200 out above, the window that ends
 * in the long tier (E_WINDOW_TOY_A_LONG_NO_INPUT_TOKENS). */
static void the_token_needs_no_input_price(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price flat = flat_list(0, 100), tiered = tiered_list(100, 40, 200);
    tiered.long_prompt.input_usd_per_mtok = 0;
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &flat, 1000),
                  E_WINDOW_TOY_A_NO_INPUT_TOKENS, false);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &tiered, 1000),
                  E_WINDOW_TOY_A_LONG_NO_INPUT_TOKENS, true);
}

/* Toy A: the first token generated after a one-token prompt costs
 * E_WINDOW_TOY_A_1_TOKEN_USD_PER_MTOK (§5.1 (The roofline against context), $18 per
 * million). A list of $5 in and $17 out gives no window; one of $5 in and $18 out, a
 * window of one token. */
static void a_price_below_one_tokens_cost_gives_no_window(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p17 = flat_list(5, E_WINDOW_TOY_A_1_TOKEN_USD_PER_MTOK - 1),
                   p18 = flat_list(5, E_WINDOW_TOY_A_1_TOKEN_USD_PER_MTOK);
    context_window w = context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p17, 1000);
    assert_false(w.exists);
    assert_close(w.context_tokens, 0, 0, "tokens");
    assert_false(w.long_tier);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p18, 1000), 1,
                  false);
}

/* Toy A at $25 in / $100 out covers every prompt up to 42 tokens
 * (E_WINDOW_TOY_A_FLAT_TOKENS): a model's window of 30, 30.5 or 1 tokens is the answer
 * (its floor). */
static void the_window_stops_at_the_models_window(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p = flat_list(25, 100);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 30), 30, false);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 30.5), 30,
                  false);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p, 1), 1, false);
}

/* Toy A at $25 in / $2,000,000,000,001 out, in a window of up to 1e15 tokens: the
 * window is near a trillion tokens, and a cost within a relative 1e-9 above the price
 * is covered (contract) (E_WINDOW_TOY_A_TRILLION_TOKENS). */
static void a_window_of_a_trillion_tokens(void **state)
{
    (void)state;
    context_deploy d = toy_a();
    cost_api_price p = flat_list(25, 2e12 + 1);
    assert_window(context_price_window(&d, TOY_BATCH, TOY_USD_PER_CHIP_HOUR, &p,
                                       CONTEXT_WINDOW_MAX_TOKENS),
                  E_WINDOW_TOY_A_TRILLION_TOKENS, false);
}

/* DeepSeek-V3 on a GB200 NVL72 (fp4 weights, fp8 cache, attention counted), a batch of
 * 512, $2 a chip-hour, DeepSeek's own list (lib/price.c), a window of up to
 * 1e15 tokens (E_WINDOW_DSV3_B512_TOKENS). */
static void deepseek_v3_on_its_own_price_list(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_window(context_price_window(&d, 512, 2.0, api_prices("deepseek-v3"),
                                       CONTEXT_WINDOW_MAX_TOKENS),
                  E_WINDOW_DSV3_B512_TOKENS, false);
}

/* The model of the chapter's Gemini figure (1e12 parameters, 1e11 active, fp4, 800 B of
 * cache a token, attention in 10 layers of 16 heads of 128) on an NVL72 at a batch of
 * 65,536 and $2 a chip-hour, on Gemini 3.1 Pro's list (lib/price.c, two tiers with
 * the step at 200k tokens), in its window of a million tokens (E_WINDOW_GEMINI_FIGURE_TOKENS). */
static void gemini_covers_its_million_token_window(void **state)
{
    (void)state;
    context_deploy d = {
        .params_total = 1e12, .params_active = 1e11, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 800, .attn_flops_per_context_token = 2.0 * 10 * 16 * (128 + 128),
        .chips = 72, .flops_per_s = 10e15, .hbm_bytes_per_s = 8e12,
    };
    assert_window(context_price_window(&d, 65536, 2.0, api_prices("gemini-3.1-pro"), 1e6),
                  E_WINDOW_GEMINI_FIGURE_TOKENS, true);
}

CHALK_PART(context_tiers_and_bills) = {
    CHALK_TEST(cache_tiers, drain_times_of_four_devices),
    CHALK_TEST(cache_tiers, toy_devices_held_below_at_and_above_their_drain_times),
    CHALK_TEST(cache_tiers, the_cheapest_of_four_tiers_across_holds),
    CHALK_TEST(cache_tiers, recomputing_one_token_of_deepseek_v3),
    CHALK_TEST(cache_tiers, recomputing_a_128k_context_of_deepseek_v3),
    CHALK_TEST(cache_tiers, recomputing_beats_hbm_for_long_holds),
    CHALK_TEST(cache_tiers, ties_go_to_the_earlier_tier_and_to_recomputing),
    CHALK_TEST(api_bill, gemini_short_prompt_pays_2_and_12_per_million),
    CHALK_TEST(api_bill, gemini_long_prompt_bills_every_token_at_the_long_tier),
    CHALK_TEST(api_bill, gemini_prompt_of_exactly_200k_is_still_short),
    CHALK_TEST(api_bill, output_tokens_do_not_choose_the_tier),
    CHALK_TEST(api_bill, claude_cache_hits_cost_a_tenth_of_input),
    CHALK_TEST(api_bill, claude_writes_cost_1_25x_for_5_minutes_and_2x_for_an_hour),
    CHALK_TEST(api_bill, a_price_the_list_lacks_gives_no_bill),
    CHALK_TEST(api_bill, long_tier_is_reported_even_without_a_bill),
    CHALK_TEST(api_bill, a_write_price_is_the_lists_at_either_tier),
    CHALK_TEST(api_bill, a_tier_without_an_output_or_input_price_gives_no_bill),
};
CHALK_PART_END(context_tiers_and_bills);

CHALK_PART(context_schedules) = {
    CHALK_TEST(cache_schedule, a_single_request_is_sent_uncached),
    CHALK_TEST(cache_schedule, requests_four_minutes_apart),
    CHALK_TEST(cache_schedule, requests_half_an_hour_apart),
    CHALK_TEST(cache_schedule, an_entry_exactly_its_life_old_is_live),
    CHALK_TEST(cache_schedule, a_hit_restarts_the_entry_life),
    CHALK_TEST(cache_schedule, a_pair_a_pause_and_a_pair),
    CHALK_TEST(cache_schedule, ties_go_to_the_earlier_action),
    CHALK_TEST(cache_schedule, the_tie_tolerance_is_relative_to_the_least_total),
    CHALK_TEST(cache_schedule, a_list_without_writes_sends_everything_uncached),
};
CHALK_PART_END(context_schedules);

CHALK_PART(context_windows) = {
    CHALK_TEST(price_window, a_flat_list_sells_until_a_token_costs_its_price),
    CHALK_TEST(price_window, toy_b_sells_up_to_a_cost_equal_to_its_price),
    CHALK_TEST(price_window, a_short_tier_that_stops_short_ends_the_window),
    CHALK_TEST(price_window, a_long_tier_extends_the_window),
    CHALK_TEST(price_window, a_prompt_of_exactly_the_threshold_is_short),
    CHALK_TEST(price_window, the_token_needs_no_input_price),
    CHALK_TEST(price_window, a_price_below_one_tokens_cost_gives_no_window),
    CHALK_TEST(price_window, the_window_stops_at_the_models_window),
    CHALK_TEST(price_window, a_window_of_a_trillion_tokens),
    CHALK_TEST(price_window, deepseek_v3_on_its_own_price_list),
    CHALK_TEST(price_window, gemini_covers_its_million_token_window),
};
CHALK_PART_END(context_windows);
