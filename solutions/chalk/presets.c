/*
 * presets.c -- chalk list KIND and chalk show KIND NAME.
 *
 * A kind of preset is a chalk_preset_kind: the core has hw and models; a chapter
 * adds its own through its chalk_chapter's `presets` (dated API prices...), and list
 * and show find it there. Every number comes from lib/ with its source.
 */
#include <stdio.h>
#include <string.h>

#include "chalk.h"

/* ---- hw ------------------------------------------------------------------------------- */

static size_t hw_count(void)
{
    size_t n;
    cost_hw_presets(&n);
    return n;
}

static const char *hw_name(size_t i)
{
    size_t n;
    return cost_hw_presets(&n)[i]->name;
}

static void hw_put(chalk_record *r, size_t i, const chalk_preset_options *o)
{
    (void)o;
    size_t n;
    const cost_hw *hw = cost_hw_presets(&n)[i];
    chalk_put_string(r, "name", "name", 0, hw->name);
    chalk_put_string(r, "title", "title", 0, hw->title);
    chalk_field *peak = chalk_put_by_dtype(r, "flops_per_s", "peak FLOP/s", CHALK_U_FLOPS_PER_S, 0);
    chalk_field *ratio =
        chalk_put_by_dtype(r, "hw_ratio", "hardware ratio", CHALK_U_PLAIN, CHALK_DETAIL);
    for (int d = 0; d < COST_DTYPE_COUNT; d++) {
        if (!cost_hw_supports(hw, (cost_dtype)d))
            continue;
        peak->by_dtype[d] = cost_hw_peak_flops_per_s(hw, (cost_dtype)d);
        /* multiplies per byte of weights fetched (chapter 1): ridge x bytes / 2 */
        ratio->by_dtype[d] = cost_ridge_flops_per_byte(peak->by_dtype[d], hw->hbm_bytes_per_s) *
                             cost_dtype_bytes((cost_dtype)d) / COST_FLOPS_PER_MAC;
    }
    chalk_put_number(r, "hbm_bytes", "HBM", CHALK_U_BYTES, 0, hw->hbm_bytes);
    chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, 0,
                     hw->hbm_bytes_per_s);
    chalk_put_result(r, "scaleup_bytes_per_s", "scale-up, one way", CHALK_U_BYTES_PER_S,
                     CHALK_DETAIL, hw->scaleup_bytes_per_s > 0.0, hw->scaleup_bytes_per_s,
                     "no sourced scale-up bandwidth for this chip");
    chalk_put_result(r, "scaleout_bytes_per_s", "scale-out, one way", CHALK_U_BYTES_PER_S,
                     CHALK_DETAIL, hw->scaleout_bytes_per_s > 0.0, hw->scaleout_bytes_per_s,
                     "no sourced scale-out bandwidth for this chip");
    chalk_put_number(r, "scaleup_domain_chips", "domain", CHALK_U_PLAIN, 0,
                     hw->scaleup_domain_chips);
    chalk_put_number(r, "domain_hbm_bytes", "HBM of the domain", CHALK_U_BYTES, CHALK_DETAIL,
                     hw->scaleup_domain_chips * hw->hbm_bytes);
    chalk_put_result(r, "usd_per_chip_hour", "price", CHALK_U_USD_PER_HOUR, 0,
                     cost_hw_has_price(hw), hw->usd_per_chip_hour,
                     "no dated, sourced rental price: pass --usd-per-chip-hour");
    chalk_put_string(r, "price_source", "price source", CHALK_DETAIL, hw->price_source);
    chalk_put_bool(r, "preliminary", "preliminary", CHALK_DETAIL, hw->preliminary);
    chalk_put_string(r, "source", "source", CHALK_DETAIL, hw->source);
    chalk_put_number(r, "hbm_drain_s", "HBM drain", CHALK_U_SECONDS, 0, cost_hw_hbm_drain_s(hw));
}

const chalk_preset_kind chalk_kind_hw = {
    .word = "hw",
    .alias = "hardware",
    .about = "accelerators: peak FLOP/s per precision, HBM, links, scale-up domain, price",
    .count = hw_count,
    .name = hw_name,
    .put = hw_put,
    .singular = "hw",
};

/* ---- models ----------------------------------------------------------------------------- */

static size_t model_count(void)
{
    size_t n;
    cost_model_presets(&n);
    return n;
}

static const char *model_name(size_t i)
{
    size_t n;
    return cost_model_presets(&n)[i]->name;
}

static void model_put(chalk_record *r, size_t i, const chalk_preset_options *o)
{
    size_t n;
    const cost_model *m = cost_model_presets(&n)[i];
    bool mla = m->attn == COST_ATTN_MLA, moe = m->experts_routed > 0;
    chalk_put_string(r, "name", "name", 0, m->name);
    chalk_put_string(r, "title", "title", 0, m->title);
    chalk_put_string(r, "source", "source", CHALK_DETAIL, m->source);
    chalk_put_number(r, "params_total", "params total", CHALK_U_PARAMS, 0,
                     cost_model_params_total(m));
    chalk_put_number(r, "params_active", "params active", CHALK_U_PARAMS, 0,
                     cost_model_params_active(m));
    chalk_put_number(r, "sparsity", "sparsity", CHALK_U_PLAIN, CHALK_DETAIL,
                     cost_model_sparsity(m));
    chalk_put_string(r, "dtype", "dtype", CHALK_DETAIL, cost_dtype_name(o->dtype));
    chalk_put_string(r, "kv_dtype", "KV dtype", CHALK_DETAIL, cost_dtype_name(o->kv_dtype));
    chalk_put_number(r, "bytes_per_param", "bytes per param", CHALK_U_BYTES_PER_PARAM, CHALK_DETAIL,
                     cost_dtype_bytes(o->dtype));
    chalk_put_number(r, "kv_bytes_per_token", "KV per token", CHALK_U_BYTES_PER_TOKEN, 0,
                     cost_model_kv_bytes_per_token(m, o->kv_dtype));
    chalk_put_number(r, "kv_elements_per_token", "KV elements per token", CHALK_U_PLAIN,
                     CHALK_DETAIL, cost_model_kv_elements_per_token(m));
    chalk_put_number(r, "flops_per_token", "FLOPs per token", CHALK_U_FLOPS, CHALK_DETAIL,
                     cost_model_flops_per_token(m));
    chalk_put_number(r, "layers", "layers", CHALK_U_PLAIN, 0, m->layers);
    chalk_put_number(r, "d_model", "d_model", CHALK_U_PLAIN, 0, m->d_model);
    chalk_put_number(r, "heads", "query heads", CHALK_U_PLAIN, CHALK_DETAIL, m->heads);
    chalk_put_result(r, "kv_heads", "KV heads", CHALK_U_PLAIN, CHALK_DETAIL, !mla, m->kv_heads,
                     "MLA caches one latent per token, not K and V per head");
    chalk_put_number(r, "head_dim", "head dim", CHALK_U_PLAIN, CHALK_DETAIL, m->head_dim);
    chalk_put_string(r, "attn", "attention", 0, mla ? "mla" : "gqa");
    chalk_put_result(r, "kv_lora_rank", "MLA latent width", CHALK_U_PLAIN, CHALK_DETAIL, mla,
                     m->kv_lora_rank, "not MLA: K and V are cached per head");
    chalk_put_result(r, "rope_head_dim", "MLA RoPE key width", CHALK_U_PLAIN, CHALK_DETAIL, mla,
                     m->rope_head_dim, "not MLA: no decoupled RoPE key");
    chalk_put_string(r, "mlp", "MLP", CHALK_DETAIL, m->mlp == COST_MLP_SWIGLU ? "swiglu" : "gelu");
    chalk_put_result(r, "d_ff", "dense MLP width", CHALK_U_PLAIN, CHALK_DETAIL, m->d_ff > 0,
                     m->d_ff, "no dense MLP layer");
    chalk_put_number(r, "vocab", "vocabulary", CHALK_U_PLAIN, CHALK_DETAIL, m->vocab);
    chalk_put_number(r, "experts_routed", "routed experts", CHALK_U_PLAIN, CHALK_DETAIL,
                     m->experts_routed);
    chalk_put_number(r, "experts_active", "experts per token", CHALK_U_PLAIN, CHALK_DETAIL,
                     m->experts_active);
    chalk_put_number(r, "experts_shared", "shared experts", CHALK_U_PLAIN, CHALK_DETAIL,
                     m->experts_shared);
    chalk_put_result(r, "d_ff_expert", "expert MLP width", CHALK_U_PLAIN, CHALK_DETAIL, moe,
                     m->d_ff_expert, "a dense model: no experts");
    chalk_put_result(r, "dense_layers", "dense leading layers", CHALK_U_PLAIN, CHALK_DETAIL, moe,
                     m->dense_layers, "a dense model: every layer is dense");
    chalk_put_string(r, "published_dtype", "published in", CHALK_DETAIL, cost_dtype_name(m->dtype));
}

const chalk_preset_kind chalk_kind_models = {
    .word = "models",
    .alias = "model",
    .about = "models: shape, total and active parameters, KV bytes per token",
    .takes_dtype = true,
    .count = model_count,
    .name = model_name,
    .put = model_put,
    .singular = "model",
};

/* ---- every kind ------------------------------------------------------------------------- */

enum { MAX_KINDS = 32 };

/* The core's kinds, then each chapter's, in chapter order. */
static size_t all_kinds(const chalk_preset_kind **kinds)
{
    size_t n = 0;
    kinds[n++] = &chalk_kind_hw;
    kinds[n++] = &chalk_kind_models;
    for (const chalk_chapter *const *c = chalk_chapters; *c; c++)
        for (const chalk_preset_kind *const *k = (*c)->presets; k && *k && n < MAX_KINDS; k++)
            kinds[n++] = *k;
    return n;
}

static const chalk_preset_kind *find_kind(const char *word)
{
    const chalk_preset_kind *kinds[MAX_KINDS];
    size_t n = all_kinds(kinds);
    for (size_t i = 0; i < n; i++)
        if (strcmp(word, kinds[i]->word) == 0 ||
            (kinds[i]->alias && strcmp(word, kinds[i]->alias) == 0))
            return kinds[i];
    return NULL;
}

static int unknown_kind(const char *cmd, const char *word)
{
    const chalk_preset_kind *kinds[MAX_KINDS];
    size_t n = all_kinds(kinds);
    char known[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 kinds[i]->word);
    return chalk_fail("%s what? \"%s\" is not a kind of preset (known: %s)", cmd, word, known);
}

typedef struct preset_view {
    const chalk_preset_kind *kind;
    long only; /* show: this preset; list: -1 */
    chalk_preset_options options;
} preset_view;

static void build_preset(const void *ctx, long row, chalk_record *r)
{
    const preset_view *v = ctx;
    chalk_clear(r);
    v->kind->put(r, (size_t)(v->only >= 0 ? v->only : row), &v->options);
}

/* list and show share everything but how many presets they print. */
static int print_presets(const chalk_args *a, const char *word, const char *name)
{
    preset_view v = {.kind = find_kind(word), .only = -1};
    if (!v.kind)
        return unknown_kind(a->cmd->name, word);
    bool dtypes = chalk_given(a, &CHALK_F_DTYPE) || chalk_given(a, &CHALK_F_KV_DTYPE);
    if (dtypes && !v.kind->takes_dtype)
        return chalk_fail("%s %s shows every precision; --dtype and --kv-dtype apply to models",
                          a->cmd->name, v.kind->word);
    int status = chalk_dtypes_resolve(a, &v.options.dtype, &v.options.kv_dtype);
    if (status)
        return status;
    size_t count = v.kind->count();
    if (name) {
        for (size_t i = 0; i < count && v.only < 0; i++)
            if (cost_name_equal(v.kind->name(i), name))
                v.only = (long)i;
        if (v.only < 0 && chalk_find_preset(v.kind, name) < 0)
            return CHALK_USAGE;
    }
    char title[128] = "";
    if (name) { /* a single preset's table is headed by its title, when it has one */
        chalk_record *scratch = &(chalk_record){0};
        v.kind->put(scratch, (size_t)v.only, &v.options);
        const chalk_field *t = chalk_find(scratch, "title");
        snprintf(title, sizeof title, "%s", t && t->kind == CHALK_STRING ? t->text : name);
    }
    chalk_report rep = {
        .title = title,
        .rows = name ? 1 : (long)count,
        .is_list = name == NULL,
        .build = build_preset,
        .ctx = &v,
    };
    return chalk_emit(a, &rep);
}

static int run_list(const chalk_point *p)
{
    const chalk_args *a = p->args;
    if (a->nwords != 1)
        return chalk_fail("%s", a->nwords ? "list takes one word: hw, models or another kind"
                                          : "list what? try chalk list hw or chalk list models");
    return print_presets(a, a->words[0], NULL);
}

static int run_show(const chalk_point *p)
{
    const chalk_args *a = p->args;
    if (a->nwords == 0)
        return chalk_fail("show what? try chalk show hw NAME or chalk show model NAME");
    if (a->nwords == 1) {
        const chalk_preset_kind *k = find_kind(a->words[0]);
        return chalk_fail("show %s needs a NAME (see chalk list %s)", a->words[0],
                          k ? k->word : a->words[0]);
    }
    if (a->nwords > 2)
        return chalk_fail("show takes two words, e.g. chalk show hw h100-sxm");
    return print_presets(a, a->words[0], a->words[1]);
}

/* ---- flags: every flag of every command ---------------------------------------------------- */

enum { MAX_FLAGS = 256 };

typedef struct flag_list {
    const chalk_flag *flag[MAX_FLAGS];
    size_t n;
} flag_list;

/* Every distinct flag of every command, in order of first appearance. */
static void collect_flags(flag_list *l)
{
    l->n = 0;
    const chalk_command *c;
    for (size_t i = 0; (c = chalk_each_command(i)) != NULL; i++)
        for (const chalk_input *in = c->inputs; in && in->flag; in++) {
            bool seen = false;
            for (size_t k = 0; k < l->n && !seen; k++)
                seen = l->flag[k] == in->flag;
            if (!seen && l->n < MAX_FLAGS)
                l->flag[l->n++] = in->flag;
        }
}

static void build_flag(const void *ctx, long row, chalk_record *r)
{
    const flag_list *l = ctx;
    const chalk_flag *f = l->flag[row];
    chalk_clear(r);
    chalk_put_string(r, "flag", "flag", 0, f->name);
    chalk_put_string(r, "key", "JSON key", 0, f->key);
    chalk_put_string(r, "unit", "unit", 0, chalk_unit_name(f->unit));
    char commands[1024] = "";
    size_t used = 0;
    const chalk_command *c;
    for (size_t i = 0; (c = chalk_each_command(i)) != NULL && used < sizeof commands; i++)
        for (const chalk_input *in = c->inputs; in && in->flag; in++)
            if (in->flag == f)
                used += (size_t)snprintf(commands + used, sizeof commands - used, "%s%s",
                                         used ? " " : "", c->name);
    chalk_put_string(r, "commands", "commands", 0, commands);
    chalk_put_string(r, "help", "help", CHALK_DETAIL, f->help);
}

static int run_flags(const chalk_point *p)
{
    static flag_list l;
    collect_flags(&l);
    chalk_report rep = {.title = "chalk flags", .rows = (long)l.n, .is_list = true,
                        .build = build_flag, .ctx = &l};
    return chalk_emit(p->args, &rep);
}

static const chalk_input PRESET_INPUTS[] = {{&CHALK_F_DTYPE}, {&CHALK_F_KV_DTYPE}, {NULL}};

static const char *const ABOUT_LIST[] = {
    "The presets of one kind, one line each: hw (per-chip peak FLOP/s, HBM, scale-up",
    "domain, price), models (parameters, KV bytes per token at --dtype/--kv-dtype,",
    "layers), and the kinds the chapters add (chalk list shows them in its error).",
    "With --json, an array of the objects chalk show prints.", NULL};
static const char *const EXAMPLES_LIST[] = {"chalk list hw", "chalk list models --json", NULL};

static const char *const ABOUT_SHOW[] = {
    "One preset in full, every number with its source. For hw, flops_per_s is an",
    "object by precision (only those the chip has), hbm_drain_s is capacity over",
    "bandwidth and domain_hbm_bytes the HBM of the whole scale-up domain. For a model,",
    "bytes_per_param follows --dtype and kv_bytes_per_token follows --kv-dtype (both",
    "default bf16). A value a preset does not have is null, with KEY_reason beside it.",
    NULL};
static const char *const EXAMPLES_SHOW[] = {
    "chalk show hw h100-sxm", "chalk show model deepseek-v3 --dtype fp8 --json", NULL};

static const char *const ABOUT_FLAGS[] = {
    "Every flag of every command, once: its JSON key, the unit of what it measures and",
    "the commands that take it. A flag name means one quantity in one unit and writes",
    "one key wherever it appears.", NULL};
static const char *const EXAMPLES_FLAGS[] = {"chalk flags", "chalk flags --json", NULL};

const chalk_command chalk_cmd_list = {
    .name = "list",
    .summary = "the presets of one kind (hw, models, ...), one line each",
    .inputs = PRESET_INPUTS,
    .run = run_list,
    .about = ABOUT_LIST,
    .examples = EXAMPLES_LIST,
    .synopsis = "KIND",
};
const chalk_command chalk_cmd_show = {
    .name = "show",
    .summary = "one preset in full",
    .inputs = PRESET_INPUTS,
    .run = run_show,
    .about = ABOUT_SHOW,
    .examples = EXAMPLES_SHOW,
    .synopsis = "KIND NAME",
};
const chalk_command chalk_cmd_flags = {
    .name = "flags",
    .summary = "every flag: its JSON key, its unit, the commands that take it",
    .run = run_flags,
    .about = ABOUT_FLAGS,
    .examples = EXAMPLES_FLAGS,
};
