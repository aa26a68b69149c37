/*
 * test_05_long_context.c -- chapter 5's commands (kv, kv-from-price, context-cost,
 * context-crossover, pass, draft, price-ratio, tier, price, cache-schedule, list api,
 * list tier), tested from the outside as readers use them.
 *
 * Sources:
 *   lecture  Reiner Pope's blackboard lecture, section 6 of reference/lecture-notes.md
 *   DSV3     DeepSeek-V3 config_671B.json: 61 layers x (512 + 64) latent elements;
 *            128 heads that score in 576 and sum in 512 latent dimensions (absorbed
 *            MLA): f_attn = 2 x 61 x 128 x 1,088 FLOPs per context token
 *   SPEC     a step keeps 1 + a + ... + a^q tokens (Leviathan et al. 2023, eq. 1)
 *   GOOG     Gemini 3.1 Pro: $2 / $12 up to 200k tokens, $4 / $18 above (2026-03)
 *   ANT      Claude Opus 4.6: $5 in, $25 out, $0.50 hits, $6.25 / $10 writes (2026)
 *   DS       data sheets: Micron 9550 30.72 TB at 14 GB/s; Seagate Exos X24 24 TB at
 *            285 MB/s; DDR5-6400 moves 6400e6 x 8 bytes a second per channel
 */
#include "harness.h"

#include <math.h>
#include <string.h>

/* lecture 6.3: one shared context, 2 (K and V) x 128 x 8 heads at one byte = 2,048 B;
 * a 200k-token context is 2,048 x 200,000 = 409.6 MB (the lecture's "400 MB"). */
static void kv_shape_of_the_lecture_is_2048_bytes_and_410_mb_at_200k(void **state)
{
    (void)state;
    run *r = chalk("kv --kv-contexts 1 --kv-heads 8 --head-dim 128 --kv-dtype fp8 "
                   "--context 200000 --json");
    expect_status(r, 0, "kv");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 2048, TIGHT, "B");
    assert_close(json_number(r->out, "kv_bytes_per_sequence"), 2048 * 200e3, TIGHT, "B");
    run_free(r);
}

/* DSV3: the MLA cache is 61 x 576 elements, 35,136 bytes in fp8 and 70,272 in bf16. */
static void kv_of_deepseek_v3_is_its_latent_cache(void **state)
{
    (void)state;
    run *r = chalk("kv --model deepseek-v3 --kv-dtype fp8 --json");
    expect_status(r, 0, "kv");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 61 * 576.0, TIGHT, "B");
    assert_true(json_string_is(r->out, "attn", "mla"));
    assert_true(json_is_null(r->out, "kv_bytes_per_sequence"));
    run_free(r);
    r = chalk("kv --layers 61 --latent-dim 512 --rope-dim 64 --json");
    expect_status(r, 0, "kv");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 70272, TIGHT, "B");
    run_free(r);
}

/* Sliding windows: 5 global caches and 50 local layers of 1,024 tokens, one head of
 * 128 in fp8 (256 bytes per layer and token): at 200k a sequence holds
 * (5 x 200,000 + 50 x 1,024) x 256 bytes. */
static void kv_with_local_layers_stops_growing_at_the_window(void **state)
{
    (void)state;
    run *r = chalk("kv --kv-contexts 5 --local-layers 50 --window 1024 --kv-heads 1 "
                   "--head-dim 128 --kv-dtype fp8 --context 200000 --json");
    expect_status(r, 0, "kv");
    double held = (5 * 200e3 + 50 * 1024.0) * 256;
    assert_close(json_number(r->out, "kv_bytes_per_sequence"), held, TIGHT, "B");
    assert_close(json_number(r->out, "kv_bytes_per_context_token"), held / 200e3, TIGHT, "B");
    run_free(r);
}

/* DeepSeek-V3.2: 2,048 selected tokens' latent plus a 128-element fp8 index key per
 * token and layer: at 131,072 tokens, 2,048 x 35,136 + 131,072 x 61 x 128 bytes. */
static void kv_with_sparse_selection_reads_the_selection_and_the_index(void **state)
{
    (void)state;
    run *r = chalk("kv --model deepseek-v3 --kv-dtype fp8 --selected-tokens 2048 "
                   "--index-dim 128 --context 131072 --json");
    expect_status(r, 0, "kv");
    assert_close(json_number(r->out, "kv_read_bytes"), 2048 * 35136.0 + 131072 * 61 * 128.0,
                 TIGHT, "B");
    assert_close(json_number(r->out, "kv_bytes_per_sequence"), 131072 * 35136.0, TIGHT, "B");
    run_free(r);
}

/* lecture 6.2 and open point 3: 300 multiplies per half-byte weight, 1e11 active, a
 * step at 2e5: 0.5 x 1e11 / (300 x 2e5) = 833 B; per byte (fp8) the lecture's 1667 B. */
static void kv_from_price_gives_833_bytes_and_the_lecture_1667_per_byte(void **state)
{
    (void)state;
    run *r = chalk("kv-from-price --params-active 1e11 --context 2e5 --hw-ratio 300 "
                   "--weight-bytes 0.5 --json");
    expect_status(r, 0, "kv-from-price");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 2500.0 / 3, TIGHT, "B");
    assert_close(json_number(r->out, "flops_per_byte"), 1200, TIGHT, "FLOP/B");
    run_free(r);
    r = chalk("kv-from-price --params-active 1e11 --context 2e5 --hw-ratio 300 "
              "--weight-bytes 1 --json");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 5000.0 / 3, TIGHT, "B");
    run_free(r);
}

/* GB200 in fp4: 8e12 / 10e15 bytes per FLOP x 2e11 / 2e5 = 800 B; DeepSeek-V3's fp8
 * cache is 35,136 / 800 = 43.9 times that. */
static void kv_from_price_on_the_gb200_is_800_bytes(void **state)
{
    (void)state;
    run *r = chalk("kv-from-price --params-active 1e11 --context 2e5 --hw gb200-nvl72 "
                   "--dtype fp4 --compare-model deepseek-v3 --kv-dtype fp8 --json");
    expect_status(r, 0, "kv-from-price");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 800, TIGHT, "B");
    assert_close(json_number(r->out, "compare_over_implied"), 35136 / 800.0, TIGHT, "x");
    run_free(r);
}

/* Book 5.1: the balance context at any batch, L* = 2 N_a W / F / (b - f W / F), with
 * DeepSeek-V3's attention counted; the kink at a finite batch subtracts the batch's
 * weight share (closed forms, N_active and N_total read back from the echo). Left
 * out, as the lecture does (--attn-flops-per-context-token 0), L* = 2 N_a W / (F b). */
static void context_crossover_is_the_balance_context_and_the_kink(void **state)
{
    (void)state;
    run *r = chalk("context-crossover --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 "
                   "--kv-dtype fp8 --batch 16384 --json");
    expect_status(r, 0, "context-crossover");
    double na = json_number(r->out, "params_active"), nt = json_number(r->out, "params_total");
    double fetchable = 2 * na * 8e12 / 10e15;
    double slope = 35136 - 2.0 * 61 * 128 * 1088 * 8e12 / 10e15;
    assert_close(json_number(r->out, "attn_flops_per_context_token"), 2.0 * 61 * 128 * 1088,
                 TIGHT, "FLOP");
    assert_close(json_number(r->out, "balance_context_tokens"), fetchable / slope, TIGHT,
                 "tokens");
    assert_close(json_number(r->out, "kink_tokens"), (fetchable - nt * 0.5 / 16384) / slope,
                 TIGHT, "tokens");
    run_free(r);
    r = chalk("context-crossover --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 "
              "--kv-dtype fp8 --attn-flops-per-context-token 0 --json");
    expect_status(r, 0, "context-crossover");
    assert_close(json_number(r->out, "balance_context_tokens"), fetchable / 35136, TIGHT,
                 "tokens");
    assert_true(json_is_null(r->out, "attention_parity_tokens"));
    run_free(r);
}

/* Book 5.1: were all the arithmetic at bf16 (2.5e15 FLOP/s), DeepSeek-V3's attention
 * would take 2 x 61 x 128 x 1,088 / 2.5e15 s per context token against 35,136 / 8e12 s
 * to fetch it: the lines never cross, and there is no kink, with a reason. */
static void attention_outgrowing_the_fetch_leaves_no_kink(void **state)
{
    (void)state;
    run *r = chalk("context-crossover --model deepseek-v3 --hw gb200-nvl72 --dtype bf16 "
                   "--kv-dtype fp8 --json");
    expect_status(r, 0, "context-crossover");
    assert_true(2.0 * 61 * 128 * 1088 / 2.5e15 > 35136 / 8e12);
    assert_true(json_is_null(r->out, "balance_context_tokens"));
    assert_false(json_is_null(r->out, "balance_context_tokens_reason"));
    run_free(r);
}

/* lecture notes open point 16: 60 layers of 64 heads of 128 with 1e11 active reach
 * attention parity at 2e11 / (2 x 60 x 64 x 256) = 101,725 tokens. */
static void attention_parity_of_a_conventional_layout_is_near_100k(void **state)
{
    (void)state;
    run *r = chalk("context-crossover --params-active 1e11 --attn-layers 60 --q-heads 64 "
                   "--qk-dim 128 --v-dim 128 --json");
    expect_status(r, 0, "context-crossover");
    assert_close(json_number(r->out, "attention_parity_tokens"), 2e11 / 1966080.0, TIGHT,
                 "tokens");
    assert_true(json_is_null(r->out, "balance_context_tokens"));
    run_free(r);
}

/* Below the balance batch (312.5 x sparsity) the batch's weight share alone exceeds a
 * token's compute: no kink, a reason instead. */
static void no_kink_below_the_balance_batch_is_null_with_a_reason(void **state)
{
    (void)state;
    run *r = chalk("context-crossover --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 "
                   "--batch 1000 --json");
    expect_status(r, 0, "context-crossover");
    assert_true(json_is_null(r->out, "kink_tokens"));
    assert_false(json_is_null(r->out, "kink_tokens_reason"));
    run_free(r);
}

/* lecture 6.1: without an attention shape compute per token is flat in context; cost
 * over flat is memory over compute past the kink: (N_t x 0.5 / B + L b) / (72 x 8e12) /
 * (2 N_a / (72 x 10e15)). With DeepSeek-V3's attention the flat cost is still the
 * weights' arithmetic at zero context. */
static void context_cost_rises_linearly_past_the_kink(void **state)
{
    (void)state;
    run *r = chalk("context-cost --params-total 1e12 --params-active 1e11 "
                   "--kv-bytes-per-token 800 --hw gb200-nvl72 --dtype fp4 --batch 65536 "
                   "--context 1000000 --api gemini-3.1-pro --json");
    expect_status(r, 0, "context-cost");
    double compute = 2e11 / (72 * 10e15), memory = (1e12 * 0.5 / 65536 + 1e6 * 800) / (72 * 8e12);
    assert_close(json_number(r->out, "compute_s"), compute, TIGHT, "s");
    assert_close(json_number(r->out, "cost_over_flat"), memory / compute, TIGHT, "x");
    assert_close(json_number(r->out, "price_input_over_base"), 2.0, TIGHT, "x");
    assert_close(json_number(r->out, "price_output_over_base"), 1.5, TIGHT, "x");
    run_free(r);
    r = chalk("context-cost --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
              "--batch 16384 --context 32768 --json");
    expect_status(r, 0, "context-cost");
    double na = json_number(r->out, "params_active");
    double f = 2.0 * 61 * 128 * 1088;
    assert_close(json_number(r->out, "compute_s"), (2 * na + 32768 * f) / (72 * 10e15), TIGHT,
                 "s");
    assert_close(json_number(r->out, "cost_over_flat"),
                 json_number(r->out, "time_s") / (2 * na / (72 * 10e15)), TIGHT, "x");
    run_free(r);
}

/* lecture 6.4: memory per new token falls as 1 / L_pass; the pass balances at
 * memory(1) / compute tokens. */
static void pass_memory_falls_as_one_over_the_pass_length(void **state)
{
    (void)state;
    run *r = chalk("pass --params-total 1e12 --params-active 1e11 --kv-bytes-per-token 800 "
                   "--hw gb200-nvl72 --dtype fp4 --batch 1024 --context 100000 "
                   "--pass-tokens 1,4 --json");
    expect_status(r, 0, "pass");
    double m1 = (1e12 * 0.5 / 1024 + 1e5 * 800) / (72 * 8e12), c = 2e11 / (72 * 10e15);
    assert_close(json_path(r->out, "rows.0.memory_s"), m1, TIGHT, "s");
    assert_close(json_path(r->out, "rows.1.memory_s"), m1 / 4, TIGHT, "s");
    assert_close(json_path(r->out, "rows.0.crossover_pass_tokens"), m1 / c, TIGHT, "tokens");
    run_free(r);
}

/* lecture 6.4, flashcard 24: output at 5x input reads as decode MFU 1/5 of prefill's and
 * a 5-token balanced pass; Gemini 3.1 Pro's long tier, $18 / $4 = 4.5x. */
static void price_ratio_5_is_decode_mfu_one_fifth(void **state)
{
    (void)state;
    run *r = chalk("price-ratio --output-over-input 5 --json");
    expect_status(r, 0, "price-ratio");
    assert_close(json_number(r->out, "decode_mfu_over_prefill"), 0.2, TIGHT, "");
    assert_close(json_number(r->out, "crossover_pass_tokens"), 5, TIGHT, "tokens");
    run_free(r);
    r = chalk("price-ratio --api gemini-3.1-pro --long --json");
    assert_close(json_number(r->out, "output_over_input"), 4.5, TIGHT, "x");
    run_free(r);
    r = chalk("price-ratio --output-over-input 0.5 --json");
    expect_status(r, 0, "price-ratio");
    assert_true(json_is_null(r->out, "decode_mfu_over_prefill"));
    run_free(r);
}

/* DS: drain times 30.72e12 / 14e9 s (flash) and 24e12 / 285e6 s (disk); a device of
 * your own, 2 TB at 400 GB/s, drains in 5 s (the lecture notes' DDR figure). */
static void tier_drain_times_are_capacity_over_bandwidth(void **state)
{
    (void)state;
    run *r = chalk("tier --json");
    expect_status(r, 0, "tier");
    assert_close(json_number(r->out, "nvme_drain_s"), 30.72e12 / 14e9, TIGHT, "s");
    assert_close(json_number(r->out, "hdd_drain_s"), 24e12 / 285e6, TIGHT, "s");
    assert_close(json_number(r->out, "ddr_drain_s"), 256e9 / 51.2e9, TIGHT, "s");
    run_free(r);
    r = chalk("tier --capacity-bytes 2e12 --bytes-per-s 400e9 --json");
    assert_close(json_number(r->out, "drain_s"), 5.0, TIGHT, "s");
    assert_true(json_is_null(r->out, "usd_per_gb"));
    run_free(r);
}

/* lecture 6.5, with the presets' prices: a 5-minute and a 1-hour cache are cheapest on
 * flash (NVMe is bandwidth-bound at 5 minutes: $0.079 x 30,720 / 5 y per hour / 14e9
 * B/s per byte); a day on disk; 10 ms in HBM. */
static void tier_picks_flash_for_5_minutes_and_an_hour(void **state)
{
    (void)state;
    const char *holds[] = {"0.01", "300", "3600", "86400"};
    const char *tiers[] = {"hbm", "nvme", "nvme", "hdd"};
    for (int i = 0; i < 4; i++) {
        run *r = chalk("tier --hold-s %s --json", holds[i]);
        expect_status(r, 0, "tier");
        assert_true(json_string_is(r->out, "cheapest_tier", tiers[i]));
        run_free(r);
    }
    run *r = chalk("tier --hold-s 300 --json");
    double per_s = 0.079 * 30.72e3 / (5 * 365.25 * 24) / 3600;
    assert_close(json_number(r->out, "nvme_usd_per_gb"), per_s / 14e9 * 1e9, 1e-9, "USD");
    run_free(r);
}

/* lecture 6.5: recomputing one token of DeepSeek-V3's KV costs 2 N_a / 10e15 s of a
 * $2/h GPU; a 128k-token context costs (2 N_a + 65,535.5 f) / 10e15 s per token (book
 * 5.5); in HBM for 60 s a token's 35,136 bytes cost 2/3600 x 60 / 186e9 each. Without
 * --context there is no remat price, with a reason. */
static void tier_prices_recomputing_against_holding(void **state)
{
    (void)state;
    run *r = chalk("tier --tier hbm --hold-s 60 --model deepseek-v3 --hw gb200-nvl72 "
                   "--dtype fp4 --kv-dtype fp8 --usd-per-chip-hour 2 --json");
    expect_status(r, 0, "tier");
    assert_close(json_number(r->out, "usd_per_mtok"), 2.0 / 3600 * 60 / 186e9 * 35136 * 1e6,
                 1e-9, "USD");
    assert_true(json_is_null(r->out, "remat_usd_per_mtok"));
    run_free(r);
    r = chalk("kv-from-price --model deepseek-v3 --context 1 --hw gb200-nvl72 --dtype fp4 --json");
    double na = json_number(r->out, "params_active");
    run_free(r);
    r = chalk("tier --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
              "--usd-per-chip-hour 2 --context 1 --json");
    assert_close(json_number(r->out, "remat_usd_per_mtok"), 2 * na / 10e15 * 2.0 / 3600 * 1e6,
                 1e-9, "USD");
    run_free(r);
    r = chalk("tier --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
              "--usd-per-chip-hour 2 --context 131072 --json");
    double flops = 2 * na + 65535.5 * 2.0 * 61 * 128 * 1088;
    assert_close(json_number(r->out, "remat_usd_per_mtok"), flops / 10e15 * 2.0 / 3600 * 1e6,
                 1e-9, "USD");
    run_free(r);
}

/* GOOG: 300k in + 10k out, all at the long tier: 0.3 x 4 + 0.01 x 18 = $1.38; exactly
 * 200k is still short: $0.40. */
static void price_bills_a_long_prompt_wholly_at_the_long_tier(void **state)
{
    (void)state;
    run *r = chalk("price --api gemini-3.1-pro --input-tokens 300000 --output-tokens 10000 "
                   "--json");
    expect_status(r, 0, "price");
    assert_close(json_number(r->out, "usd"), 1.38, TIGHT, "USD");
    assert_true(json_string_is(r->out, "tier", "long"));
    run_free(r);
    r = chalk("price --api gemini-3.1-pro --input-tokens 200000 --output-tokens 0 --json");
    assert_close(json_number(r->out, "usd"), 0.4, TIGHT, "USD");
    assert_true(json_string_is(r->out, "tier", "base"));
    run_free(r);
}

/* ANT: 100k prompt, 90k cached, the rest written for an hour: 10k x $10 + 90k x $0.50
 * per million = $0.145; GPT-5 has no 5-minute write price: null with the reason. */
static void price_bills_hits_and_writes_and_explains_a_missing_price(void **state)
{
    (void)state;
    run *r = chalk("price --api claude-opus-4.6 --input-tokens 100000 --cached-tokens 90000 "
                   "--cache-write 1h --output-tokens 0 --json");
    expect_status(r, 0, "price");
    assert_close(json_number(r->out, "usd"), 0.1 + 0.045, TIGHT, "USD");
    run_free(r);
    r = chalk("price --api gpt-5 --input-tokens 1000 --output-tokens 0 --cache-write 5m --json");
    expect_status(r, 0, "price");
    assert_true(json_is_null(r->out, "usd"));
    assert_false(json_is_null(r->out, "usd_reason"));
    run_free(r);
}

/* The dated presets list, each with its date; show carries the long tier's ratios. */
static void list_api_and_tier_show_dated_presets(void **state)
{
    (void)state;
    run *r = chalk("list api --json");
    expect_status(r, 0, "list api");
    assert_true(json_valid(r->out));
    assert_true(count_of(r->out, "\"date\"") >= 8);
    run_free(r);
    r = chalk("show api gemini-3.1-pro --json");
    assert_close(json_number(r->out, "long_input_over_base"), 2.0, TIGHT, "x");
    assert_close(json_number(r->out, "long_output_over_base"), 1.5, TIGHT, "x");
    run_free(r);
    r = chalk("list tier --json");
    expect_status(r, 0, "list tier");
    assert_int_equal(count_of(r->out, "\"drain_s\""), 4);
    run_free(r);
}

/* SPEC on a deployment whose decode is memory-bound: with DeepSeek-V3 at a batch of
 * 1,024 and 8,192 tokens, one guess kept 85% of the time yields 1.85 tokens a step at
 * no extra step time (a 2-token pass is still memory-bound): a speed-up of 1.85. */
static void draft_of_one_guess_speeds_decode_by_one_plus_a(void **state)
{
    (void)state;
    run *r = chalk("draft --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
                   "--batch 1024 --context 8192 --accept 0.85 --max-draft 1 --json");
    expect_status(r, 0, "draft");
    assert_true(json_number(r->out, "crossover_pass_tokens") > 2);
    assert_close(json_number(r->out, "draft_tokens"), 1, TIGHT, "tokens");
    assert_close(json_number(r->out, "tokens_per_step"), 1.85, TIGHT, "tokens");
    assert_close(json_number(r->out, "speedup"), 1.85, TIGHT, "x");
    run_free(r);
}

/* ANT: a pair of requests a minute apart, a half-hour pause, another pair, a prefix of
 * 100k tokens: one 1-hour write and three hits, 0.1 x (10 + 3 x 0.5) = $1.15, against
 * 4 x 0.1 x 5 = $2 uncached. */
static void cache_schedule_bridges_a_pause_with_the_1_hour_entry(void **state)
{
    (void)state;
    run *r = chalk("cache-schedule --api claude-opus-4.6 --prefix-tokens 100000 "
                   "--times-s 0,60,2000,2060 --json");
    expect_status(r, 0, "cache-schedule");
    assert_true(json_string_is(r->out, "schedule", "write-1h hit hit hit"));
    assert_close(json_number(r->out, "usd"), 1.15, TIGHT, "USD");
    assert_close(json_number(r->out, "uncached_usd"), 2, TIGHT, "USD");
    run_free(r);
}

/* Bad input: one line on stderr, exit 2, for every command of the chapter. */
static void every_bad_input_to_chapter_5_commands_exits_2_with_one_error_line(void **state)
{
    (void)state;
    const char *cases[] = {
        "kv",
        "kv --model nosuch",
        "kv --model deepseek-v3 --kv-heads 8",
        "kv --kv-heads 8 --head-dim 128",
        "kv --kv-contexts 1 --kv-heads 8 --head-dim -1",
        "kv --kv-contexts 1 --kv-heads 8 --head-dim 128 --local-layers 5",
        "kv --kv-bytes-per-token 800 --index-dim 128",
        "kv-from-price --context 2e5 --hw gb200-nvl72",
        "kv-from-price --params-active 1e11 --hw gb200-nvl72",
        "kv-from-price --params-active 1e11 --context 0 --hw gb200-nvl72",
        "kv-from-price --params-active 1e11 --context 2e5 --hw-ratio 300",
        "kv-from-price --params-active 1e11 --context 2e5 --hw-ratio 300 --weight-bytes 1 "
        "--hw h100-sxm",
        "kv-from-price --params-active 1e11 --context 2e5 --hw rubin-nvl72",
        "kv-from-price --params-active abc --context 2e5 --hw h100-sxm",
        "context-cost --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 1000",
        "context-cost --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 10 --context 1 "
        "--api nosuch",
        "context-crossover --hw h100-sxm",
        "context-crossover --params-active 1e11 --attn-layers 60",
        "context-crossover --model llama3-70b --hw h100-sxm --batch 1:10",
        "pass --model llama3-70b --hw h100-sxm --batch 10 --context 10",
        "pass --model llama3-70b --hw h100-sxm --batch 10 --context 10 --pass-tokens 0",
        "price-ratio",
        "price-ratio --output-over-input 5 --api gpt-5",
        "price-ratio --api gpt-5 --long",
        "price-ratio --output-over-input -1",
        "tier --tier tape",
        "tier --capacity-bytes 1e12",
        "tier --hold-s -5",
        "price --api gemini-3.1-pro --input-tokens 10",
        "price --api gemini-9 --input-tokens 10 --output-tokens 1",
        "price --api claude-opus-4.6 --input-tokens 10 --output-tokens 1 --cached-tokens 20",
        "price --api claude-opus-4.6 --input-tokens 10 --output-tokens 1 --cache-write 10m",
        "show api nosuch",
        "context-cost --model deepseek-v3 --hw gb200-nvl72 --batch 10 --context 1 "
        "--attn-flops-per-context-token 5 --attn-layers 1 --q-heads 1 --qk-dim 1 --v-dim 1",
        "tier --model deepseek-v3 --hw gb200-nvl72 --usd-per-chip-hour 2 --context 0",
        "draft --model deepseek-v3 --hw gb200-nvl72 --batch 10 --context 10",
        "draft --model deepseek-v3 --hw gb200-nvl72 --batch 10 --context 10 --accept 1.5",
        "draft --model deepseek-v3 --hw gb200-nvl72 --batch 10:20 --context 10 --accept 0.5",
        "cache-schedule --api claude-opus-4.6 --prefix-tokens 1000",
        "cache-schedule --api claude-opus-4.6 --prefix-tokens 1000 --times-s 0,10,5",
        "cache-schedule --api claude-opus-4.6 --prefix-tokens 1000 --times-s 0,x",
        "cache-schedule --api claude-opus-4.6 --prefix-tokens 0 --times-s 0",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

const struct CMUnitTest chalk_tests_05_long_context[] = {
    CHALK_TEST(chalk, kv_shape_of_the_lecture_is_2048_bytes_and_410_mb_at_200k),
    CHALK_TEST(chalk, kv_of_deepseek_v3_is_its_latent_cache),
    CHALK_TEST(chalk, kv_with_local_layers_stops_growing_at_the_window),
    CHALK_TEST(chalk, kv_with_sparse_selection_reads_the_selection_and_the_index),
    CHALK_TEST(chalk, kv_from_price_gives_833_bytes_and_the_lecture_1667_per_byte),
    CHALK_TEST(chalk, kv_from_price_on_the_gb200_is_800_bytes),
    CHALK_TEST(chalk, context_crossover_is_the_balance_context_and_the_kink),
    CHALK_TEST(chalk, attention_outgrowing_the_fetch_leaves_no_kink),
    CHALK_TEST(chalk, attention_parity_of_a_conventional_layout_is_near_100k),
    CHALK_TEST(chalk, no_kink_below_the_balance_batch_is_null_with_a_reason),
    CHALK_TEST(chalk, context_cost_rises_linearly_past_the_kink),
    CHALK_TEST(chalk, pass_memory_falls_as_one_over_the_pass_length),
    CHALK_TEST(chalk, price_ratio_5_is_decode_mfu_one_fifth),
    CHALK_TEST(chalk, tier_drain_times_are_capacity_over_bandwidth),
    CHALK_TEST(chalk, tier_picks_flash_for_5_minutes_and_an_hour),
    CHALK_TEST(chalk, tier_prices_recomputing_against_holding),
    CHALK_TEST(chalk, price_bills_a_long_prompt_wholly_at_the_long_tier),
    CHALK_TEST(chalk, price_bills_hits_and_writes_and_explains_a_missing_price),
    CHALK_TEST(chalk, list_api_and_tier_show_dated_presets),
    CHALK_TEST(chalk, draft_of_one_guess_speeds_decode_by_one_plus_a),
    CHALK_TEST(chalk, cache_schedule_bridges_a_pause_with_the_1_hour_entry),
    CHALK_TEST(chalk, every_bad_input_to_chapter_5_commands_exits_2_with_one_error_line),
};
const size_t chalk_tests_05_long_context_count =
    sizeof chalk_tests_05_long_context / sizeof chalk_tests_05_long_context[0];
