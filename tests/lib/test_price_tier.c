/*
 * test_price_tier.c -- tests of the API price and memory-tier presets (lib/price.c,
 * lib/tier.c): each preset holds its published figures, a date and a source, and the
 * rules the price lists state hold across them.
 */
#include "../test_util.h"

#include <string.h>

#include "cost.h"

#define TIGHT 1e-12

static const cost_api_price *api(const char *name)
{
    const cost_api_price *p = cost_api_find(name);
    assert_non_null(p);
    return p;
}

static const cost_tier *tier(const char *name)
{
    const cost_tier *t = cost_tier_find(name);
    assert_non_null(t);
    return t;
}

/* Every price preset has a unique name, a date, a source and positive base prices. */
static void every_price_preset_is_dated_and_sourced(void **state)
{
    (void)state;
    size_t n;
    const cost_api_price *const *all = cost_api_presets(&n);
    assert_true(n >= 4);
    for (size_t i = 0; i < n; i++) {
        assert_true(strlen(all[i]->date) >= 4 && strlen(all[i]->source) > 0);
        assert_true(all[i]->base.input_usd_per_mtok > 0 && all[i]->base.output_usd_per_mtok > 0);
        for (size_t j = 0; j < i; j++)
            assert_false(cost_name_equal(all[i]->name, all[j]->name));
        assert_ptr_equal(cost_api_find(all[i]->name), all[i]);
    }
    assert_null(cost_api_find("gemini-9"));
    assert_ptr_equal(cost_api_find("GEMINI-3.1-PRO"), api("gemini-3.1-pro"));
}

/* Google's page: above 200k Gemini 3.1 Pro's input doubles ($2 -> $4) and its output
 * rises by half ($12 -> $18). */
static void gemini_31_input_doubles_and_output_rises_half_past_200k(void **state)
{
    (void)state;
    const cost_api_price *g = api("gemini-3.1-pro");
    assert_true(cost_api_has_long_tier(g));
    assert_close(g->long_threshold_tokens, 200e3, TIGHT, "tokens");
    assert_close(g->long_prompt.input_usd_per_mtok / g->base.input_usd_per_mtok, 2.0, TIGHT, "x");
    assert_close(g->long_prompt.output_usd_per_mtok / g->base.output_usd_per_mtok, 1.5, TIGHT,
                 "x");
}

/* Anthropic's page: every Claude preset writes at 1.25x (5 min) and 2x (1 h) and
 * reads hits at 0.1x its base input. */
static void claude_cache_multipliers_are_1_25_2_and_0_1(void **state)
{
    (void)state;
    size_t n;
    const cost_api_price *const *all = cost_api_presets(&n);
    int claude = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i]->provider, "Anthropic") != 0)
            continue;
        double base = all[i]->base.input_usd_per_mtok;
        assert_close(all[i]->cache_write_5m_usd_per_mtok, 1.25 * base, TIGHT, "USD/Mtok");
        assert_close(all[i]->cache_write_1h_usd_per_mtok, 2.0 * base, TIGHT, "USD/Mtok");
        assert_close(all[i]->base.cache_read_usd_per_mtok, 0.1 * base, TIGHT, "USD/Mtok");
        claude++;
    }
    assert_true(claude >= 1);
    assert_false(cost_api_has_long_tier(api("claude-opus-4.6")));
}

/* The cache-write durations parse and print as the calculator spells them. */
static void cache_write_names_round_trip(void **state)
{
    (void)state;
    cost_cache_write w = COST_CACHE_WRITE_NONE;
    assert_true(cost_cache_write_parse("1H", &w));
    assert_int_equal(w, COST_CACHE_WRITE_1H);
    assert_string_equal(cost_cache_write_name(COST_CACHE_WRITE_5M), "5m");
    assert_false(cost_cache_write_parse("10m", &w));
    assert_int_equal(w, COST_CACHE_WRITE_1H);
}

/* Data sheets: the tiers are ordered fastest first, and each holds more per dollar-hour
 * than the one before it. */
static void tiers_trade_bandwidth_for_capacity_per_dollar(void **state)
{
    (void)state;
    size_t n;
    const cost_tier *const *all = cost_tier_presets(&n);
    assert_int_equal(n, 4);
    for (size_t i = 1; i < n; i++) {
        assert_true(all[i]->bytes_per_s < all[i - 1]->bytes_per_s);
        assert_true(all[i]->capacity_bytes / all[i]->usd_per_hour >
                    all[i - 1]->capacity_bytes / all[i - 1]->usd_per_hour);
    }
}

/* Seagate: Exos X24, 24 TB at 285 MB/s; Micron 9550 PRO 30.72 TB at 14 GB/s; a DDR5-6400
 * channel moves 6400e6 x 8 bytes a second. */
static void tier_presets_hold_their_data_sheet_figures(void **state)
{
    (void)state;
    assert_close(tier("hdd")->capacity_bytes, 24e12, TIGHT, "B");
    assert_close(tier("hdd")->bytes_per_s, 285e6, TIGHT, "B/s");
    assert_close(tier("nvme")->bytes_per_s, 14e9, TIGHT, "B/s");
    assert_close(tier("ddr")->bytes_per_s, 51.2e9, TIGHT, "B/s");
    assert_close(tier("hbm")->usd_per_hour, 2.0, TIGHT, "USD/h");
    assert_null(cost_tier_find("tape"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_price_preset_is_dated_and_sourced),
        cmocka_unit_test(gemini_31_input_doubles_and_output_rises_half_past_200k),
        cmocka_unit_test(claude_cache_multipliers_are_1_25_2_and_0_1),
        cmocka_unit_test(cache_write_names_round_trip),
        cmocka_unit_test(tiers_trade_bandwidth_for_capacity_per_dollar),
        cmocka_unit_test(tier_presets_hold_their_data_sheet_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
