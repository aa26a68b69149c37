/*
 * deploy.c -- a model on hardware, resolved from presets and the flags that override
 * them, and echoed back as inputs.
 *
 * The chapters that compute with a served model (batching, MoE, pipelining, long
 * context) share it: --model/--hw name presets; --params-total, --flops-per-s and
 * the rest override a preset's value or stand alone. A needed value that is missing
 * is an error naming the flag to pass, never a default.
 */
#include <stdio.h>
#include <string.h>

#include "chalk.h"

/* Reads the number given for `f`, if any; a flag that changes a preset's value
 * (`preset_side`) is recorded for the echo. */
static int read_override(const chalk_args *a, const chalk_flag *f, chalk_deploy *d, double *x,
                         bool preset_side)
{
    if (!chalk_given(a, f))
        return CHALK_OK;
    int status = chalk_number(a, f, x);
    if (status)
        return status;
    if (preset_side) {
        size_t used = strlen(d->overrides);
        snprintf(d->overrides + used, sizeof d->overrides - used, "%s%s", used ? " " : "", f->name);
    }
    return CHALK_OK;
}

int chalk_dtypes_resolve(const chalk_args *a, cost_dtype *dtype, cost_dtype *kv_dtype)
{
    *dtype = COST_BF16;
    const char *d = chalk_value(a, &CHALK_F_DTYPE), *kv = chalk_value(a, &CHALK_F_KV_DTYPE);
    if (d && !cost_dtype_parse(d, dtype))
        return chalk_fail("--dtype: unknown precision \"%s\" (pick bf16|fp8|fp4|int8)", d);
    *kv_dtype = *dtype;
    if (kv && !cost_dtype_parse(kv, kv_dtype))
        return chalk_fail("--kv-dtype: unknown precision \"%s\" (pick bf16|fp8|fp4|int8)", kv);
    return CHALK_OK;
}

/* The model's side: the preset's shape, then --params-*, --weight-bytes, --kv-... */
static int resolve_model(const chalk_args *a, chalk_deploy *d)
{
    const char *name = chalk_value(a, &CHALK_F_MODEL);
    if (name && !(d->model = cost_model_find(name)))
        return chalk_find_preset(&chalk_kind_models, name) < 0 ? CHALK_USAGE : CHALK_OK;
    d->bytes_per_param = cost_dtype_bytes(d->dtype);
    if (d->model) {
        d->params_total = cost_model_params_total(d->model);
        d->params_active = cost_model_params_active(d->model);
        d->kv_bytes_per_token = cost_model_kv_bytes_per_token(d->model, d->kv_dtype);
        d->has_params = d->has_kv = true;
    }
    bool preset = d->model != NULL;
    int status;
    double x = 0.0;
    if ((status = read_override(a, &CHALK_F_PARAMS_TOTAL, d, &x, preset)))
        return status;
    if (chalk_given(a, &CHALK_F_PARAMS_TOTAL)) {
        d->params_total = x;
        d->has_params = true;
    }
    if ((status = read_override(a, &CHALK_F_PARAMS_ACTIVE, d, &x, preset)))
        return status;
    bool dense = !preset || d->model->experts_routed == 0;
    if (chalk_given(a, &CHALK_F_PARAMS_ACTIVE)) {
        d->params_active = x;
    } else if (dense && chalk_given(a, &CHALK_F_PARAMS_TOTAL)) {
        d->params_active = d->params_total; /* a dense model stays dense */
        d->active_is_total = true;
    }
    if (chalk_given(a, &CHALK_F_PARAMS_ACTIVE) && !d->has_params)
        return chalk_fail("--params-active needs --params-total (or --model NAME)");
    if (d->has_params && d->params_active > d->params_total)
        return chalk_fail("params_active (%g) exceeds params_total (%g)", d->params_active,
                          d->params_total);
    if ((status = read_override(a, &CHALK_F_WEIGHT_BYTES, d, &x, preset)))
        return status;
    if (chalk_given(a, &CHALK_F_WEIGHT_BYTES))
        d->bytes_per_param = x;
    if ((status = read_override(a, &CHALK_F_KV_BYTES, d, &x, preset)))
        return status;
    if (chalk_given(a, &CHALK_F_KV_BYTES)) {
        d->kv_bytes_per_token = x;
        d->has_kv = d->kv_from_flag = true;
    }
    return CHALK_OK;
}

/* The hardware's side: the preset's per-chip figures at --dtype, then overrides. */
static int resolve_hw(const chalk_args *a, chalk_deploy *d)
{
    const char *name = chalk_value(a, &CHALK_F_HW);
    if (name && !(d->hw = cost_hw_find(name)))
        return chalk_find_preset(&chalk_kind_hw, name) < 0 ? CHALK_USAGE : CHALK_OK;
    d->chips = 1;
    if (d->hw) {
        d->chips = d->hw->scaleup_domain_chips;
        d->hbm_bytes_per_s = d->hw->hbm_bytes_per_s;
        d->hbm_bytes = d->hw->hbm_bytes;
        d->has_bw = d->has_hbm = true;
        if (cost_hw_supports(d->hw, d->dtype)) {
            d->flops_per_s = cost_hw_peak_flops_per_s(d->hw, d->dtype);
            d->has_flops = true;
        }
        if (cost_hw_has_price(d->hw)) {
            d->usd_per_chip_hour = d->hw->usd_per_chip_hour;
            d->has_price = true;
        }
    }
    bool preset = d->hw != NULL;
    int status;
    double x = 0.0;
    if ((status = read_override(a, &CHALK_F_CHIPS, d, &x, false)))
        return status;
    if (chalk_given(a, &CHALK_F_CHIPS)) {
        d->chips = (int)x;
        d->chips_given = true;
    }
    struct {
        const chalk_flag *flag;
        double *to;
        bool *has;
    } rates[] = {
        {&CHALK_F_FLOPS, &d->flops_per_s, &d->has_flops},
        {&CHALK_F_HBM_BPS, &d->hbm_bytes_per_s, &d->has_bw},
        {&CHALK_F_HBM_BYTES, &d->hbm_bytes, &d->has_hbm},
        {&CHALK_F_USD, &d->usd_per_chip_hour, &d->has_price},
    };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        if ((status = read_override(a, rates[i].flag, d, &x, preset)))
            return status;
        if (chalk_given(a, rates[i].flag)) {
            *rates[i].to = x;
            *rates[i].has = true;
        }
    }
    return CHALK_OK;
}

/* "bf16|fp8|int8": the precisions the chip has a peak for. */
static void supported_dtypes(const cost_hw *hw, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < COST_DTYPE_COUNT && used < size; t++)
        if (cost_hw_supports(hw, (cost_dtype)t))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "|" : "",
                                     cost_dtype_name((cost_dtype)t));
}

/* A needed input that is missing is an error naming the flag, never a default. */
int chalk_deploy_require(const chalk_deploy *d, unsigned needs)
{
    const char *cmd = d->cmd;
    if ((needs & CHALK_NEED_PARAMS) && !d->has_params)
        return chalk_fail("%s needs --params-total N (or --model NAME)", cmd);
    if ((needs & CHALK_NEED_FLOPS) && !d->has_flops) {
        if (!d->hw)
            return chalk_fail("%s needs --flops-per-s X (or --hw NAME)", cmd);
        char choices[64];
        supported_dtypes(d->hw, choices, sizeof choices);
        return chalk_fail("%s has no %s peak; pick --dtype %s or pass --flops-per-s", d->hw->name,
                          cost_dtype_name(d->dtype), choices);
    }
    if ((needs & CHALK_NEED_BW) && !d->has_bw)
        return chalk_fail("%s needs --hbm-bytes-per-s X (or --hw NAME)", cmd);
    if ((needs & CHALK_NEED_HBM) && !d->has_hbm)
        return chalk_fail("%s needs --hbm-bytes X (or --hw NAME)", cmd);
    if ((needs & CHALK_NEED_KV) && !d->has_kv)
        return chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME)", cmd);
    if ((needs & CHALK_NEED_PRICE) && !d->has_price)
        return chalk_fail("%s needs --usd-per-chip-hour X (%s has no sourced price)", cmd,
                          d->hw ? d->hw->name : "no --hw given");
    return CHALK_OK;
}

int chalk_deploy_resolve(const chalk_args *a, unsigned needs, chalk_deploy *d)
{
    *d = (chalk_deploy){.cmd = a->cmd->name};
    int status;
    if ((status = chalk_dtypes_resolve(a, &d->dtype, &d->kv_dtype)) ||
        (status = resolve_model(a, d)) || (status = resolve_hw(a, d)))
        return status;
    return chalk_deploy_require(d, needs);
}

/* ---- the echo ------------------------------------------------------------------------- */

void chalk_put_hw_name(chalk_record *r, const cost_hw *hw)
{
    chalk_field *f = chalk_put_string(r, "hw", "hw", CHALK_INPUT, hw ? hw->name : NULL);
    if (hw)
        chalk_note(r, f, "%s", hw->title);
    else
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
}

void chalk_put_model_name(chalk_record *r, const cost_model *m)
{
    chalk_field *f = chalk_put_string(r, "model", "model", CHALK_INPUT, m ? m->name : NULL);
    if (m)
        chalk_note(r, f, "%s", m->title);
    else
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
}

void chalk_deploy_echo_head(chalk_record *r, const chalk_deploy *d)
{
    chalk_put_model_name(r, d->model);
    chalk_put_hw_name(r, d->hw);
    chalk_field *f = chalk_put_number(r, "chips", "chips", CHALK_U_PLAIN, CHALK_INPUT, d->chips);
    if (!d->chips_given && d->hw)
        chalk_note(r, f, "default: the scale-up domain of %s", d->hw->name);
    else if (!d->chips_given)
        chalk_note(r, f, "default without --hw: one chip");
    chalk_put_string(r, "dtype", "dtype", CHALK_INPUT, cost_dtype_name(d->dtype));
    chalk_put_string(r, "kv_dtype", "KV dtype", CHALK_INPUT | CHALK_DETAIL,
                     d->kv_from_flag ? NULL : cost_dtype_name(d->kv_dtype));
}

void chalk_deploy_echo_tail(chalk_record *r, const chalk_deploy *d, unsigned echo)
{
    chalk_put_number(r, "params_total", "params total", CHALK_U_PARAMS, CHALK_INPUT,
                     d->params_total);
    chalk_field *f = chalk_put_number(r, "params_active", "params active", CHALK_U_PARAMS,
                                      CHALK_INPUT, d->params_active);
    if (d->active_is_total)
        chalk_note(r, f, "dense: follows --params-total");
    chalk_put_number(r, "bytes_per_param", "bytes per param", CHALK_U_BYTES_PER_PARAM, CHALK_INPUT,
                     d->bytes_per_param);
    chalk_put_maybe(r, "kv_bytes_per_token", "KV bytes per token", CHALK_U_BYTES_PER_TOKEN,
                    CHALK_INPUT, d->has_kv, d->kv_bytes_per_token);
    if (echo & CHALK_ECHO_FLOPS)
        chalk_put_maybe(r, "flops_per_s", "peak per chip", CHALK_U_FLOPS_PER_S, CHALK_INPUT,
                        d->has_flops, d->flops_per_s);
    chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                     d->hbm_bytes_per_s);
    if (echo & CHALK_ECHO_HBM)
        chalk_put_maybe(r, "hbm_bytes", "HBM per chip", CHALK_U_BYTES, CHALK_INPUT, d->has_hbm,
                        d->hbm_bytes);
    if (echo & CHALK_ECHO_PRICE) {
        f = chalk_put_maybe(r, "usd_per_chip_hour", "price", CHALK_U_USD_PER_HOUR, CHALK_INPUT,
                            d->has_price, d->usd_per_chip_hour);
        if (!d->has_price)
            chalk_null_words(r, f, "unknown"); /* JSON: null */
    }
    chalk_put_string(r, "overrides", "overrides", CHALK_INPUT | CHALK_DETAIL,
                     d->overrides[0] ? d->overrides : NULL);
}

const cost_model *chalk_model_at(const chalk_point *p)
{
    if (p->d->model)
        return p->d->model;
    long i = chalk_pick(p, &CHALK_F_MODEL);
    size_t n;
    return i >= 0 ? cost_model_presets(&n)[i] : NULL;
}

const cost_hw *chalk_hw_at(const chalk_point *p)
{
    if (p->d->hw)
        return p->d->hw;
    long i = chalk_pick(p, &CHALK_F_HW);
    size_t n;
    return i >= 0 ? cost_hw_presets(&n)[i] : NULL;
}
