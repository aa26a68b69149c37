/*
 * hw.c -- accelerator presets, each number with its source.
 *
 * Abbreviations in the source notes (each source is named in full in the preset's
 * .source, which the book's appendix prints):
 *   DS   the vendor's datasheet or product page named in .source
 *   BTB  NVIDIA Blackwell Architecture Technical Brief (2024), per-GPU peaks of the
 *        HGX B200 (1,000 W) and the GB200 (1,200 W) variants of B200
 *   GC   Google Cloud TPU documentation, cloud.google.com/tpu/docs/<chip>
 *   SB   J. Austin et al., "How to Scale Your Model" (Google DeepMind, 2025), for
 *        interconnect figures per link and direction, which the vendors do not list
 *   CW   CoreWeave on-demand prices of 2024-02-07, as recorded in microsoft/vidur
 *        (vidur/config_optimizer/analyzer/constants.py)
 *   GCP  Google Cloud TPU on-demand list prices, February 2025
 * Peaks are dense: datasheets quote NVIDIA's tensor-core figures with 2:4 sparsity,
 * twice the dense rate, and the comments say so where they halve them.
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
    .scaleup_bytes_per_s = 300e9,  /* DS: NVLink 3, 600 GB/s both ways together */
    .scaleout_bytes_per_s = 25e9,  /* DGX A100 guide: one 200 Gb/s HDR NIC per GPU */
    .scaleup_domain_chips = 8,     /* one HGX/DGX tray */
    .usd_per_chip_hour = 2.21,
    .price_source = "CW 2024-02-07",
    .source = "NVIDIA A100 Tensor Core GPU datasheet; NVIDIA DGX A100 user guide",
};

static const cost_hw HW_H100_SXM = {
    .name = "h100-sxm",
    .title = "NVIDIA H100 SXM5 80 GB",
    .peak_flops_per_s = {
        [COST_BF16] = 989e12,   /* DS: 1,979 TFLOPS with sparsity, dense half */
        [COST_FP8] = 1979e12,   /* DS: 3,958 TFLOPS with sparsity */
        [COST_INT8] = 1979e12,  /* DS: 3,958 TOPS with sparsity */
    },
    .hbm_bytes = 80e9,            /* DS: 80 GB HBM3 */
    .hbm_bytes_per_s = 3.35e12,   /* DS: 3.35 TB/s */
    .scaleup_bytes_per_s = 450e9, /* DS: NVLink 4, 900 GB/s both ways together */
    .scaleout_bytes_per_s = 50e9, /* DGX H100 guide: one 400 Gb/s ConnectX-7 per GPU */
    .scaleup_domain_chips = 8,    /* DGX H100: 8 GPUs on NVSwitch */
    .usd_per_chip_hour = 4.25,
    .price_source = "CW 2024-02-07",
    .source = "NVIDIA H100 Tensor Core GPU datasheet; NVIDIA DGX H100 user guide",
};

static const cost_hw HW_H200 = {
    .name = "h200",
    .title = "NVIDIA H200 SXM 141 GB",
    .peak_flops_per_s = {
        [COST_BF16] = 989e12,  /* DS: 1,979 TFLOPS with sparsity (H100's die) */
        [COST_FP8] = 1979e12,  /* DS: 3,958 TFLOPS with sparsity */
        [COST_INT8] = 1979e12, /* DS: 3,958 TOPS with sparsity */
    },
    .hbm_bytes = 141e9,           /* DS: 141 GB HBM3e */
    .hbm_bytes_per_s = 4.8e12,    /* DS: 4.8 TB/s */
    .scaleup_bytes_per_s = 450e9, /* DS: NVLink 4, 900 GB/s both ways together */
    .scaleout_bytes_per_s = 50e9, /* DGX H200: one 400 Gb/s ConnectX-7 per GPU */
    .scaleup_domain_chips = 8,
    .source = "NVIDIA H200 Tensor Core GPU datasheet; NVIDIA DGX H200 user guide",
};

static const cost_hw HW_B200 = {
    .name = "b200",
    .title = "NVIDIA B200 (HGX, 1000 W)",
    .peak_flops_per_s = {
        [COST_BF16] = 2.25e15, /* BTB: 4.5 PFLOPS with sparsity */
        [COST_FP8] = 4.5e15,   /* BTB: 9 PFLOPS with sparsity */
        [COST_FP4] = 9.0e15,   /* BTB: 18 PFLOPS with sparsity */
    },
    .hbm_bytes = 192e9,           /* BTB: 192 GB HBM3e per package; HGX/DGX B200 systems
                                   * expose 180 GB per GPU (NVIDIA DGX B200 User Guide,
                                   * "1,440 GB total GPU memory", read 2026-11) */
    .hbm_bytes_per_s = 8.0e12,    /* BTB: 8 TB/s */
    .scaleup_bytes_per_s = 900e9, /* BTB: NVLink 5, 1.8 TB/s both ways together */
    .scaleout_bytes_per_s = 50e9, /* DGX B200: one 400 Gb/s ConnectX-7 per GPU */
    .scaleup_domain_chips = 8,
    .source = "NVIDIA Blackwell Architecture Technical Brief; NVIDIA DGX B200 datasheet",
};

/* One B200 GPU inside a GB200 NVL72 rack: 72 GPUs on one NVLink domain. */
static const cost_hw HW_GB200_NVL72 = {
    .name = "gb200-nvl72",
    .title = "NVIDIA GB200 NVL72 (per B200 GPU, 1200 W)",
    .peak_flops_per_s = {
        [COST_BF16] = 2.5e15,  /* DS: 360 PFLOPS per rack with sparsity, / 72 / 2 */
        [COST_FP8] = 5.0e15,   /* DS: 720 PFLOPS per rack with sparsity, / 72 / 2 */
        [COST_FP4] = 10e15,    /* DS: 1,440 PFLOPS per rack with sparsity, / 72 / 2 */
    },
    .hbm_bytes = 186e9,           /* DS: 13.4 TB per rack / 72; MLPerf systems: 186 GB */
    .hbm_bytes_per_s = 8.0e12,    /* DS: 576 TB/s per rack / 72 */
    .scaleup_bytes_per_s = 900e9, /* DS: NVLink 5, 130 TB/s per rack / 72 / 2 ways */
    .scaleout_bytes_per_s = 50e9, /* DGX GB200: one 400 Gb/s ConnectX-7 per GPU */
    .scaleup_domain_chips = 72,
    .source = "NVIDIA GB200 NVL72 product page (specifications); MLCommons "
              "Inference v6.1 GB200 system descriptions",
};

static const cost_hw HW_TPU_V5E = {
    .name = "tpu-v5e",
    .title = "Google TPU v5e",
    .peak_flops_per_s = {
        [COST_BF16] = 1.97e14, /* GC: 197 TFLOPs */
        [COST_INT8] = 3.93e14, /* GC: 393 TOPs */
    },
    .hbm_bytes = 16e9,            /* GC: 16 GB */
    .hbm_bytes_per_s = 8.2e11,    /* GC: 819 GB/s, to two figures */
    .scaleup_bytes_per_s = 1.8e11, /* SB: 4 ICI links x 4.5e10 one way (GC: 400 GB/s
                                    * both ways together, per chip) */
    .scaleout_bytes_per_s = 3.125e9, /* GC: 2 x 100 Gb/s NICs per host of 8 chips */
    .scaleup_domain_chips = 256,  /* GC: 256-chip pod, 2-D torus */
    .usd_per_chip_hour = 1.2,
    .price_source = "GCP list, Feb 2025",
    .source = "Google Cloud TPU v5e documentation; Austin et al., How to Scale Your "
              "Model (ICI per link)",
};

static const cost_hw HW_TPU_V5P = {
    .name = "tpu-v5p",
    .title = "Google TPU v5p",
    .peak_flops_per_s = {
        [COST_BF16] = 4.59e14, /* GC: 459 TFLOPs */
        [COST_INT8] = 9.18e14, /* SB: twice bf16 (GC lists bf16 only) */
    },
    .hbm_bytes = 95e9,            /* GC: 95 GB HBM2e */
    .hbm_bytes_per_s = 2.765e12,  /* GC: 2,765 GB/s */
    .scaleup_bytes_per_s = 5.4e11, /* SB: 6 ICI links (3-D torus) x 9e10 one way */
    .scaleout_bytes_per_s = 6.25e9, /* SB: data-centre network per chip */
    .scaleup_domain_chips = 8960, /* GC: 8,960-chip pod */
    .usd_per_chip_hour = 4.2,
    .price_source = "GCP list, Feb 2025",
    .source = "Google Cloud TPU v5p documentation; Austin et al., How to Scale Your "
              "Model (ICI per link, network per chip)",
};

static const cost_hw HW_TPU_V6E = {
    .name = "tpu-v6e",
    .title = "Google TPU v6e (Trillium)",
    .peak_flops_per_s = {
        [COST_BF16] = 9.18e14, /* GC: 918 TFLOPs */
        [COST_INT8] = 1.836e15, /* GC: 1,836 TOPs */
    },
    .hbm_bytes = 32e9,            /* GC: 32 GB */
    .hbm_bytes_per_s = 1.638e12,  /* GC: 1,638 GB/s */
    .scaleup_bytes_per_s = 3.6e11, /* SB: 4 ICI links x 9e10 one way (GC: 800 GB/s
                                    * both ways together, per chip) */
    .scaleout_bytes_per_s = 12.5e9, /* SB: data-centre network per chip */
    .scaleup_domain_chips = 256,  /* GC: 256-chip pod, 2-D torus */
    .source = "Google Cloud TPU v6e documentation; Austin et al., How to Scale Your "
              "Model (ICI per link, network per chip)",
};

/* Vera Rubin NVL72 (CES-2026 naming), per Rubin package. PRELIMINARY: the vendor's
 * announced intent, not a shipped product; use for illustration only. The lecture
 * rounds its HBM bandwidth to 20 TB/s. */
static const cost_hw HW_RUBIN_NVL72 = {
    .name = "rubin-nvl72",
    .title = "NVIDIA Vera Rubin NVL72 (per package; preliminary)",
    .peak_flops_per_s = {
        [COST_FP4] = 50e15,    /* NVIDIA: 50 PFLOPS NVFP4 inference (3.6 EF per rack / 72) */
    },
    .hbm_bytes = 288e9,           /* NVIDIA: 288 GB HBM4 per GPU (20.7 TB per rack / 72) */
    .hbm_bytes_per_s = 22e12,     /* NVIDIA: 22 TB/s per GPU */
    .scaleup_bytes_per_s = 1.8e12, /* NVIDIA: NVLink 6, 3.6 TB/s both ways together */
    .scaleup_domain_chips = 72,
    .preliminary = true,
    .source = "NVIDIA Rubin platform announcement, CES, January 2026 (preliminary)",
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
