/*
 * tier.c -- memory-tier presets, each number with its source.
 *
 * A bought device's hourly cost is its purchase price spread over a five-year
 * service life (COST_TIER_LIFE_H below), the warranty period of the SSD and hard disk
 * presets; power, space and the server around the device are left out. Prices per GB
 * are market averages at the date given, not quotes.
 */
#include "tier.h"

#include "base.h"

/* Five years of 365.25 days: the service life a bought device is spread over. */
#define COST_TIER_LIFE_H (5.0 * 365.25 * 24.0)

/* HBM: one B200 GPU of a GB200 NVL72, rented whole; its HBM is what a KV cache uses. */
static const cost_tier TIER_HBM = {
    .name = "hbm",
    .title = "B200 HBM3e (GB200 NVL72)",
    .capacity_bytes = 186e9,  /* MLPerf inference v6.1 GB200 system JSON (lib/hw.c) */
    .bytes_per_s = 8.0e12,    /* 576 TB/s per rack / 72 GPUs (lib/hw.c) */
    .usd_per_hour = 2.0,      /* the lecture's ~$2 per GPU-hour [lecture, 12:52] */
    .price_date = "2026-04",
    .source = "lib/hw.c gb200-nvl72 preset; price: the lecture (12:52-16:07)",
};

/* Host DDR: one 256 GB DDR5-6400 registered DIMM on its own memory channel. A channel
 * is 64 bits wide, so 6400e6 transfers/s x 8 bytes = 51.2e9 B/s (JEDEC DDR5). */
static const cost_tier TIER_DDR = {
    .name = "ddr",
    .title = "DDR5-6400 RDIMM 256 GB, one channel",
    .capacity_bytes = 256e9,
    .bytes_per_s = 6400e6 * 8.0,
    /* NEMIX 16 x 256 GB DDR5-6400 ECC RDIMM kit listed at $76,999 (hi-tech.ua,
     * early 2026, during the DRAM shortage): $4,812 a module */
    .usd_per_hour = 76999.0 / 16.0 / COST_TIER_LIFE_H,
    .price_date = "2026-01",
    .source = "JEDEC DDR5-6400 channel rate; price: NEMIX kit via hi-tech.ua (2026)",
};

/* NVMe flash: a Micron 9550 PRO, PCIe Gen5, 30.72 TB. */
static const cost_tier TIER_NVME = {
    .name = "nvme",
    .title = "Micron 9550 PRO 30.72 TB (PCIe 5)",
    .capacity_bytes = 30.72e12, /* Micron 9550 PRO capacities 3.84-30.72 TB */
    .bytes_per_s = 14e9,        /* Micron: 14,000 MB/s sequential read */
    /* average flash price $0.079 per GB (Computer Weekly's weekly Amazon survey,
     * late 2024, as reported by hytekgamer.com); 5-year warranty (StorageReview) */
    .usd_per_hour = 0.079 * 30.72e3 / COST_TIER_LIFE_H,
    .price_date = "2024-12",
    .source = "Micron 9550 product brief (via storagereview.com, windowsforum.com); "
              "price: Computer Weekly survey",
};

/* Hard disk: a Seagate Exos X24, 24 TB, 7,200 rpm. */
static const cost_tier TIER_HDD = {
    .name = "hdd",
    .title = "Seagate Exos X24 24 TB",
    .capacity_bytes = 24e12, /* Seagate: 24 TB (blocksandfiles.com, 2023-10-18) */
    .bytes_per_s = 285e6,    /* Seagate: max sustained data rate 285 MB/s */
    /* Backblaze's bulk purchases of large drives: $0.014 per GB (2022); 5-year
     * warranty (blocksandfiles.com) */
    .usd_per_hour = 0.014 * 24e3 / COST_TIER_LIFE_H,
    .price_date = "2022-12",
    .source = "Seagate via blocksandfiles.com (2023-10-18); price: Backblaze drive "
              "purchases (2022)",
};

static const cost_tier *const PRESETS[] = {&TIER_HBM, &TIER_DDR, &TIER_NVME, &TIER_HDD};

const cost_tier *const *cost_tier_presets(size_t *count)
{
    *count = sizeof PRESETS / sizeof PRESETS[0];
    return PRESETS;
}

const cost_tier *cost_tier_find(const char *name)
{
    size_t n;
    const cost_tier *const *all = cost_tier_presets(&n);
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(all[i]->name, name))
            return all[i];
    return NULL;
}
