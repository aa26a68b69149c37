/*
 * hw.h -- accelerator presets: what one chip can compute, hold and move.
 *
 * A preset describes ONE chip (GPU or TPU) and the scale-up domain it sits in:
 *
 *   peak_flops_per_s[dtype]  dense (no 2:4 sparsity) peak, 2 FLOPs per MAC
 *   hbm_bytes                HBM capacity per chip
 *   hbm_bytes_per_s          HBM bandwidth per chip
 *   scaleup_bytes_per_s      NVLink / ICI egress per chip, ONE direction
 *   scaleout_bytes_per_s     NIC / DCN egress per chip, one direction
 *   scaleup_domain_chips     chips reachable over the scale-up network
 *
 * Vendors quote NVLink as a bidirectional total ("900 GB/s" for H100 is 450 GB/s
 * each way) and headline FLOP/s with 2:4 sparsity; the presets hold the one-way,
 * dense figures. A field that is zero has no sourced value: a peak of zero means the
 * chip has no such precision; a price of zero means no dated price was found, and
 * a caller must supply one. Every number names its source beside it in hw.c.
 */
#ifndef COST_HW_H
#define COST_HW_H

#include <stdbool.h>
#include <stddef.h>

#include "base.h"

typedef struct cost_hw {
    const char *name;                             /* preset key, e.g. "h100-sxm" */
    const char *title;                            /* e.g. "NVIDIA H100 SXM5 80 GB" */
    double peak_flops_per_s[COST_DTYPE_COUNT];    /* dense; 0 = not supported */
    double hbm_bytes;                             /* capacity per chip */
    double hbm_bytes_per_s;                       /* bandwidth per chip */
    double scaleup_bytes_per_s;                   /* per chip, one direction */
    double scaleout_bytes_per_s;                  /* per chip, one direction */
    int scaleup_domain_chips;                     /* chips in one NVLink/ICI domain */
    double usd_per_chip_hour;                     /* 0 = no sourced price */
    const char *price_source;                     /* who quoted it, and when */
    bool preliminary;                             /* vendor intent, not shipped specs */
    const char *source;                           /* where the other numbers come from */
} cost_hw;

/* Every preset, in a fixed order; *count receives their number. */
const cost_hw *const *cost_hw_presets(size_t *count);

/* The preset named `name` (case-insensitive), or NULL when there is none. */
const cost_hw *cost_hw_find(const char *name);

/* True when the chip has a sourced dense peak for `dtype`. */
bool cost_hw_supports(const cost_hw *hw, cost_dtype dtype);

/* Dense peak FLOP/s for `dtype`. Precondition: cost_hw_supports(hw, dtype). */
double cost_hw_peak_flops_per_s(const cost_hw *hw, cost_dtype dtype);

/* True when the preset carries a dated, sourced rental price. */
bool cost_hw_has_price(const cost_hw *hw);

/* HBM drain time: seconds to read the whole HBM once, capacity / bandwidth. */
double cost_hw_hbm_drain_s(const cost_hw *hw);

#endif /* COST_HW_H */
