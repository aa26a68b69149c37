/*
 * hw.c -- accelerator presets, each number with its source.
 *
 * Abbreviations in the source notes:
 *   SB   "How to Scale Your Model" (jax-ml/scaling-book), gpus.md and tpus.md tables
 *   DS   the vendor's datasheet
 *   GC   Google Cloud TPU documentation (docs.cloud.google.com/tpu/docs/<chip>)
 *   CW   CoreWeave on-demand prices of 2024-02-07, as recorded in microsoft/vidur
 *        (vidur/config_optimizer/analyzer/constants.py)
 *   GCP  Google Cloud list prices "as of February 2025", SB applied-inference.md
 */
#include "hw.h"

/* NVIDIA A100 SXM4 80 GB. Not in the lecture's list, but it is the generation the
 * lecture's "~300 has been stable since A100" claim starts from. */
static const cost_hw HW_A100_SXM = {
    .name = "a100-sxm",
    .title = "NVIDIA A100 SXM4 80 GB",
    .peak_flops_per_s = {
        [COST_BF16] = 312e12,  /* DS: 624 TFLOPS with sparsity, dense half */
        [COST_INT8] = 624e12,  /* DS: 1,248 TOPS with sparsity */
    },
    .hbm_bytes = 80e9,           /* DS: 80 GB HBM2e */
    .hbm_bytes_per_s = 2.039e12, /* DS: 2,039 GB/s (SXM4 80 GB) */
    .scaleup_bytes_per_s = 300e9,  /* DS: NVLink 3, 600 GB/s bidirectional */
    .scaleout_bytes_per_s = 25e9,  /* DGX A100: one 200 Gb/s HDR NIC per GPU */
    .scaleup_domain_chips = 8,     /* one HGX/DGX tray */
    .usd_per_chip_hour = 2.21,
    .price_source = "CW 2024-02-07",
    .source = "NVIDIA A100 datasheet; DGX A100 user guide",
};

static const cost_hw HW_H100_SXM = {
    .name = "h100-sxm",
    .title = "NVIDIA H100 SXM5 80 GB",
    .peak_flops_per_s = {
        [COST_BF16] = 989e12,   /* SB gpus.md: 9.9e14; DS 1,979 TFLOPS sparse */
        [COST_FP8] = 1979e12,   /* SB: 2.0e15; DS 3,958 sparse */
        [COST_INT8] = 1979e12,  /* DS: 3,958 TOPS with sparsity */
    },
    .hbm_bytes = 80e9,            /* SB: 80 GB HBM3 */
    .hbm_bytes_per_s = 3.35e12,   /* SB: 3.35e12 (its table rounds to 3.4e12) */
    .scaleup_bytes_per_s = 450e9, /* SB: NVLink 4, 18 links x 25 GB/s each way */
    .scaleout_bytes_per_s = 50e9, /* SB: DGX H100, one 400 Gb/s NIC per GPU */
    .scaleup_domain_chips = 8,    /* SB: DGX H100 node */
    .usd_per_chip_hour = 4.25,
    .price_source = "CW 2024-02-07",
    .source = "SB gpus.md; NVIDIA H100 datasheet",
};

static const cost_hw HW_H200 = {
    .name = "h200",
    .title = "NVIDIA H200 SXM 141 GB",
    .peak_flops_per_s = {
        [COST_BF16] = 989e12,  /* same die as H100 (SB) */
        [COST_FP8] = 1979e12,
        [COST_INT8] = 1979e12,
    },
    .hbm_bytes = 141e9,           /* DS: 141 GB HBM3e */
    .hbm_bytes_per_s = 4.8e12,    /* DS: 4.8 TB/s */
    .scaleup_bytes_per_s = 450e9, /* NVLink 4, as H100 */
    .scaleout_bytes_per_s = 50e9, /* one 400 Gb/s NIC per GPU, as DGX H100 */
    .scaleup_domain_chips = 8,
    .source = "NVIDIA H200 datasheet; SB gpus.md",
};

static const cost_hw HW_B200 = {
    .name = "b200",
    .title = "NVIDIA B200 (HGX, 1000 W)",
    .peak_flops_per_s = {
        [COST_BF16] = 2.25e15, /* SB gpus.md: 2.3e15; Lockwood 2.25e15 */
        [COST_FP8] = 4.5e15,   /* SB */
        [COST_FP4] = 9.0e15,   /* SB */
    },
    .hbm_bytes = 192e9,           /* SB: 192 GB nominal (DGX B200 exposes 180 GB) */
    .hbm_bytes_per_s = 8.0e12,    /* SB: 8e12 */
    .scaleup_bytes_per_s = 900e9, /* SB: NVLink 5, 18 links x 50 GB/s each way */
    .scaleout_bytes_per_s = 50e9, /* SB: DGX B200 node egress 400e9 / 8 GPUs */
    .scaleup_domain_chips = 8,
    .source = "SB gpus.md; glennklockwood.com/garden/processors/B200",
};

/* One B200 GPU inside a GB200 NVL72 rack: 72 GPUs on one NVLink domain. */
static const cost_hw HW_GB200_NVL72 = {
    .name = "gb200-nvl72",
    .title = "NVIDIA GB200 NVL72 (per B200 GPU, 1200 W)",
    .peak_flops_per_s = {
        [COST_BF16] = 2.5e15,  /* 180 PF rack / 72; Lockwood */
        [COST_FP8] = 5.0e15,   /* 720 PF FP8 rack (aiwiki quoting NVIDIA) / 72 */
        [COST_FP4] = 10e15,    /* 720 PF dense FP4 rack / 72 */
    },
    .hbm_bytes = 186e9,           /* MLPerf inference v6.1 GB200 system JSON */
    .hbm_bytes_per_s = 8.0e12,    /* 576 TB/s rack / 72 */
    .scaleup_bytes_per_s = 900e9, /* 1.8 TB/s bidirectional per GPU */
    .scaleout_bytes_per_s = 50e9, /* SB: 72 x 400 Gb/s ConnectX-7 = 3.6e12 per rack */
    .scaleup_domain_chips = 72,
    .source = "aiwiki.ai/wiki/nvidia_gb200_nvl72 (quoting NVIDIA); SB gpus.md",
};

static const cost_hw HW_TPU_V5E = {
    .name = "tpu-v5e",
    .title = "Google TPU v5e",
    .peak_flops_per_s = {
        [COST_BF16] = 1.97e14, /* SB tpus.md; GC 197 TFLOPS */
        [COST_INT8] = 3.94e14, /* SB; GC 393 TOPS */
    },
    .hbm_bytes = 16e9,            /* SB, GC: 16 GB */
    .hbm_bytes_per_s = 8.2e11,    /* SB (2026 edition); GC 819 GB/s */
    .scaleup_bytes_per_s = 1.8e11, /* SB: 4 ICI links (2-D torus) x 4.5e10 one way */
    .scaleout_bytes_per_s = 3.125e9, /* SB: DCN per v5e chip */
    .scaleup_domain_chips = 256,  /* SB: 16 x 16 pod */
    .usd_per_chip_hour = 1.2,
    .price_source = "GCP list, Feb 2025",
    .source = "SB tpus.md; GC docs/v5e",
};

static const cost_hw HW_TPU_V5P = {
    .name = "tpu-v5p",
    .title = "Google TPU v5p",
    .peak_flops_per_s = {
        [COST_BF16] = 4.59e14, /* SB */
        [COST_INT8] = 9.18e14, /* SB */
    },
    .hbm_bytes = 96e9,            /* SB: 96 GB (GC: 95 GiB) */
    .hbm_bytes_per_s = 2.8e12,    /* SB; GC 2,765 GB/s */
    .scaleup_bytes_per_s = 5.4e11, /* SB: 6 ICI links (3-D torus) x 9e10 one way */
    .scaleout_bytes_per_s = 6.25e9, /* SB: DCN per chip */
    .scaleup_domain_chips = 8960, /* SB: 16 x 20 x 28 pod */
    .usd_per_chip_hour = 4.2,
    .price_source = "GCP list, Feb 2025",
    .source = "SB tpus.md; GC docs/v5p",
};

static const cost_hw HW_TPU_V6E = {
    .name = "tpu-v6e",
    .title = "Google TPU v6e (Trillium)",
    .peak_flops_per_s = {
        [COST_BF16] = 9.20e14, /* SB; GC 918 TFLOPS */
        [COST_INT8] = 1.84e15, /* SB; GC 1,836 TOPS */
    },
    .hbm_bytes = 32e9,            /* SB, GC: 32 GB */
    .hbm_bytes_per_s = 1.6e12,    /* SB; GC 1,640 GB/s */
    .scaleup_bytes_per_s = 3.6e11, /* SB: 4 ICI links (2-D torus) x 9e10 one way */
    .scaleout_bytes_per_s = 12.5e9, /* SB: DCN per chip */
    .scaleup_domain_chips = 256,  /* SB: 16 x 16 pod */
    .source = "SB tpus.md; GC docs/v6e",
};

/* Vera Rubin NVL72 (CES-2026 naming), per Rubin package. PRELIMINARY: vendor intent,
 * conflicting reports; use for illustration only. The lecture rounds its HBM bandwidth
 * to 20 TB/s. */
static const cost_hw HW_RUBIN_NVL72 = {
    .name = "rubin-nvl72",
    .title = "NVIDIA Vera Rubin NVL72 (per package; preliminary)",
    .peak_flops_per_s = {
        [COST_FP4] = 50e15,    /* CES-2026: 3.6 EF NVFP4 inference rack / 72 */
    },
    .hbm_bytes = 288e9,           /* 288 GB HBM4 per package (20.7 TB / 72) */
    .hbm_bytes_per_s = 22e12,     /* CES-2026 report; GTC-2025 said ~13 TB/s */
    .scaleup_bytes_per_s = 1.8e12, /* NVLink 6: 3.6 TB/s bidirectional per GPU */
    .scaleup_domain_chips = 72,
    .preliminary = true,
    .source = "CES-2026 coverage (jp.imgtag.co.kr); regantih.github.io ch.14",
};

static const cost_hw *const PRESETS[] = {
    &HW_A100_SXM, &HW_H100_SXM, &HW_H200, &HW_B200, &HW_GB200_NVL72,
    &HW_TPU_V5E, &HW_TPU_V5P, &HW_TPU_V6E, &HW_RUBIN_NVL72,
};

const cost_hw *const *cost_hw_presets(size_t *count)
{
    *count = sizeof PRESETS / sizeof PRESETS[0];
    return PRESETS;
}

const cost_hw *cost_hw_find(const char *name)
{
    size_t n;
    const cost_hw *const *all = cost_hw_presets(&n);
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(all[i]->name, name))
            return all[i];
    return NULL;
}

bool cost_hw_supports(const cost_hw *hw, cost_dtype dtype)
{
    return dtype >= 0 && dtype < COST_DTYPE_COUNT && hw->peak_flops_per_s[dtype] > 0.0;
}

double cost_hw_peak_flops_per_s(const cost_hw *hw, cost_dtype dtype)
{
    COST_ASSERT(cost_hw_supports(hw, dtype) && "chip has no peak for this precision");
    return hw->peak_flops_per_s[dtype];
}

bool cost_hw_has_price(const cost_hw *hw)
{
    return hw->usd_per_chip_hour > 0.0;
}

double cost_hw_hbm_drain_s(const cost_hw *hw)
{
    COST_ASSERT(hw->hbm_bytes_per_s > 0.0 && "need a bandwidth");
    return hw->hbm_bytes / hw->hbm_bytes_per_s;
}
