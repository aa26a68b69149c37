/*
 * flags.c -- the flags several chapters share (the model, the hardware, the
 * workload) and the output flags every command takes, one flag a row:
 *
 *   name, ARG, JSON key, unit, min, max, rules, what ("needs --batch B (what)"),
 *   then its help group and its one-line help
 *
 * A chapter's own flags are declared the same way in its NN-topic.c. One name,
 * one quantity in one unit, one JSON key: tests/chalk/test_core.c checks it over
 * every command's table (chalk flags --json).
 */
#include "chalk.h"

#define MODEL "model (a preset, flags alone, or a preset with flags overriding it)"
#define HW "hardware (figures are per chip)"
#define PRECISION "precision"
#define WORKLOAD "workload"
#define OUTPUT "output"
#define WHOLE CHALK_WHOLE
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

/* clang-format off */
const chalk_flag CHALK_F_MODEL        = {"--model",             "NAME", "model",              U(WORD),            0, 0,    0,     NULL,           MODEL,
    "model preset (chalk list models)", .kind = &chalk_kind_models};
const chalk_flag CHALK_F_PARAMS_TOTAL  = {"--params-total",      "N", "params_total",          U(PARAMS),          0, 1e16, ABOVE, "parameters", MODEL,
    "all parameters, fetched every step"};
const chalk_flag CHALK_F_PARAMS_ACTIVE = {"--params-active",     "N", "params_active",         U(PARAMS),          0, 1e16, ABOVE, "parameters one token uses", MODEL,
    "parameters one token multiplies through (flags alone: defaults to --params-total, a dense model)"};
const chalk_flag CHALK_F_WEIGHT_BYTES  = {"--weight-bytes",      "X", "bytes_per_param",       U(BYTES_PER_PARAM), 0, 64,   ABOVE, "bytes per parameter", MODEL,
    "bytes per parameter (default: set by --dtype)"};
const chalk_flag CHALK_F_KV_BYTES      = {"--kv-bytes-per-token", "X", "kv_bytes_per_token",   U(BYTES_PER_TOKEN), 0, 1e12, 0,     "KV bytes per token", MODEL,
    "KV cache bytes per token of context, all layers"};
const chalk_flag CHALK_F_HW            = {"--hw",                "NAME", "hw",                 U(WORD),            0, 0,    0,     "a hardware preset", HW,
    "hardware preset (chalk list hw)", .kind = &chalk_kind_hw};
const chalk_flag CHALK_F_CHIPS         = {"--chips",             "N", "chips",                 U(COUNT),           1, 1e6,  WHOLE, "chips", HW,
    "chips sharing the work (default: the preset's scale-up domain; 1 without --hw)"};
const chalk_flag CHALK_F_FLOPS         = {"--flops-per-s",       "X", "flops_per_s",           U(FLOPS_PER_S),     1e3, 1e30, 0,   "peak FLOP/s per chip", HW,
    "peak FLOP/s per chip, 2 per MAC"};
const chalk_flag CHALK_F_HBM_BPS       = {"--hbm-bytes-per-s",   "X", "hbm_bytes_per_s",       U(BYTES_PER_S),     1e3, 1e18, 0,   "HBM bandwidth per chip", HW,
    "HBM bandwidth per chip"};
const chalk_flag CHALK_F_HBM_BYTES     = {"--hbm-bytes",         "X", "hbm_bytes",             U(BYTES),           1, 1e18, 0,     "HBM capacity per chip", HW,
    "HBM capacity per chip"};
const chalk_flag CHALK_F_USD           = {"--usd-per-chip-hour", "X", "usd_per_chip_hour",     U(USD_PER_HOUR),    0, 1e6,  ABOVE, "rent per chip-hour", HW,
    "rental price per chip-hour"};
const chalk_flag CHALK_F_DTYPE         = {"--dtype",             "D", "dtype",                 U(WORD),            0, 0,    0,     "a precision", PRECISION,
    "bf16|fp8|fp4|int8 (default bf16): picks the peak FLOP/s and, unless overridden, the bytes per weight and per KV element"};
const chalk_flag CHALK_F_KV_DTYPE      = {"--kv-dtype",          "D", "kv_dtype",              U(WORD),            0, 0,    0,     "a precision", PRECISION,
    "precision of the KV cache elements (default: --dtype)"};
const chalk_flag CHALK_F_BATCH         = {"--batch",             "B", "batch",                 U(SEQUENCES),       0, 1e12, ABOVE, "sequences per step", WORKLOAD,
    "sequences per decode step (> 0); may be a sweep"};
const chalk_flag CHALK_F_TARGET_STEP   = {"--target-step-s",     "S", "target_step_s",         U(SECONDS),         1e-9, 1e6, 0,     "largest step, seconds", WORKLOAD,
    "largest acceptable step time, seconds; may be a sweep"};
const chalk_flag CHALK_F_CONTEXT       = {"--context",           "T", "context",               U(TOKENS),          0, 1e12, 0,     "tokens of context; 0 for none", WORKLOAD,
    "tokens of context each sequence attends to (>= 0); may be a sweep"};

const chalk_flag CHALK_F_JSON    = {"--json",    NULL,   NULL, U(WORD), 0, 0,  0,     NULL, OUTPUT, "one JSON object ({\"rows\":[...]} for a sweep, an array for list)"};
const chalk_flag CHALK_F_CSV     = {"--csv",     NULL,   NULL, U(WORD), 0, 0,  0,     NULL, OUTPUT, "a header row, then one row per point"};
const chalk_flag CHALK_F_COLUMNS = {"--columns", "LIST", NULL, U(WORD), 0, 0,  0,     NULL, OUTPUT, "only these keys, in this order: --columns batch,step_s (JSON, CSV and tables)"};
const chalk_flag CHALK_F_DIGITS  = {"--digits",  "N",    NULL, U(COUNT), 1, 17, WHOLE, NULL, OUTPUT, "significant digits of JSON and CSV numbers, 1 to 17 (default 17: every number reads back exactly)"};
const chalk_flag CHALK_F_HELP    = {"--help",    NULL,   NULL, U(WORD), 0, 0,  0,     NULL, OUTPUT, "this help, on stdout"};
/* clang-format on */

const chalk_flag *const chalk_output_flags[] = {&CHALK_F_JSON,   &CHALK_F_CSV,  &CHALK_F_COLUMNS,
                                                &CHALK_F_DIGITS, &CHALK_F_HELP, NULL};

const char *chalk_unit_name(chalk_unit u)
{
    static const char *const NAMES[CHALK_U_COUNT_OF_UNITS] = {
        [CHALK_U_PLAIN] = "number",
        [CHALK_U_COUNT] = "count",
        [CHALK_U_PARAMS] = "parameters",
        [CHALK_U_SEQUENCES] = "sequences",
        [CHALK_U_TOKENS] = "tokens",
        [CHALK_U_SECONDS] = "seconds",
        [CHALK_U_BYTES] = "bytes",
        [CHALK_U_BYTES_PER_TOKEN] = "bytes/token",
        [CHALK_U_BYTES_PER_PARAM] = "bytes/parameter",
        [CHALK_U_BYTES_PER_S] = "bytes/s",
        [CHALK_U_FLOPS] = "FLOPs",
        [CHALK_U_FLOPS_PER_S] = "FLOP/s",
        [CHALK_U_TOKENS_PER_S] = "tokens/s",
        [CHALK_U_USD] = "USD",
        [CHALK_U_USD_PER_MTOK] = "USD/Mtok",
        [CHALK_U_USD_PER_HOUR] = "USD/chip-hour",
        [CHALK_U_FRACTION] = "fraction",
        [CHALK_U_RATIO] = "ratio",
        [CHALK_U_BITS] = "bits",
        [CHALK_U_WORD] = "word",
    };
    return (unsigned)u < CHALK_U_COUNT_OF_UNITS && NAMES[u] ? NAMES[u] : "number";
}
