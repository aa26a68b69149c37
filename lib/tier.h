/*
 * tier.h -- memory-tier presets: devices a KV cache can be held in, and what they cost.
 *
 * A preset describes ONE device of a tier of the memory hierarchy (HBM, host DDR,
 * NVMe flash, hard disk):
 *
 *   capacity_bytes   what it holds
 *   bytes_per_s      how fast it can be read in full (sustained sequential read)
 *   usd_per_hour     what it costs to have it for an hour: a rental price, or a
 *                    purchase price spread evenly over its service life
 *
 * Capacity and bandwidth come together: whoever owns the device pays for both, used
 * or not. GB is 1e9 bytes, TB 1e12. Every number names its source beside it in
 * tier.c, with the date of the price.
 */
#ifndef COST_TIER_H
#define COST_TIER_H

#include <stddef.h>

typedef struct cost_tier {
    const char *name;    /* preset key: "hbm", "ddr", "nvme", "hdd" */
    const char *title;   /* the device, e.g. "Seagate Exos X24 24 TB hard disk" */
    double capacity_bytes;
    double bytes_per_s;  /* sustained read bandwidth */
    double usd_per_hour; /* rent, or purchase price / service life */
    const char *price_date;
    const char *source;
} cost_tier;

/* Every preset, fastest first (HBM, DDR, NVMe, HDD); *count receives their number. */
const cost_tier *const *cost_tier_presets(size_t *count);

/* The preset named `name` (case-insensitive), or NULL when there is none. */
const cost_tier *cost_tier_find(const char *name);

#endif /* COST_TIER_H */
