/*
 * expected.h -- the expected values of chapter 02-moe's public tests, each
 * with its source. Generated from their derivations (closed forms, papers), which
 * only the instructor's copy of Chalk holds: the derivation is the exercise.
 */
#ifndef CHALK_EXPECTED_H
#define CHALK_EXPECTED_H

/* DeepSeek-V3 on 64 GB200s, B = 2,048: compute roof (closed form of §2.4) */
#define E_V3_COMPUTE_S_B2048 0.0002368

/* DeepSeek-V3 fp4 weights read by 64 GB200s (closed form of §2.4) */
#define E_V3_WEIGHTS_S 0.0006552734375

/* B = 2,048 caches of 4,096 tokens read by 64 GB200s (closed form of §2.4) */
#define E_V3_KV_S_B2048_L4096 0.000575668224

/* bytes read in that step: weights and caches (closed form of §2.4) */
#define E_V3_HBM_BYTES_B2048_L4096 630242130688.0

/* all-to-all of B = 2,048, fp4 on NVLink (the lecture at 33:37; closed form of §2.3) */
#define E_V3_A2A_S_B2048_FP4 0.00011825607111111111

/* the same in bf16 (the lecture at 33:37; closed form of §2.3) */
#define E_V3_A2A_S_B2048_BF16 0.00047302428444444446

/* one layer's dispatch, B = 2,048, bf16 (closed form of §2.3) */
#define E_V3_DISPATCH_S_PER_LAYER_B2048_BF16 4.077795555555556e-06

/* B = 64, no context: the step (closed form of §2.4) */
#define E_V3_STEP_S_B64 0.0006552734375

/* B = 20,000, fp4 activations: the step (closed form of §2.4) */
#define E_V3_STEP_S_B20000_FP4 0.0023125

/* B = 20,000, bf16 activations: the step (closed form of §2.4) */
#define E_V3_STEP_S_B20000_BF16 0.004619377777777778

/* B = 8,000 at 2,048 tokens: memory roof (closed form of §2.4) */
#define E_V3_MEMORY_S_B8000_L2048 0.0017796254375

/* network over compute, fp4 activations (closed form of §2.4) */
#define E_V3_NET_OVER_COMPUTE_FP4 0.49939219219219216

/* network over compute, fp8 activations (closed form of §2.4) */
#define E_V3_NET_OVER_COMPUTE_FP8 0.9987843843843843

/* knee, fp4 activations, no context (closed form of §2.4) */
#define E_V3_KNEE_FP4 5667.22972972973

/* knee, bf16 activations, no context (closed form of §2.4) */
#define E_V3_KNEE_BF16 2837.0636437326816

/* knee, bf16 activations, 1,024 tokens (closed form of §2.4) */
#define E_V3_KNEE_BF16_L1024 4077.698342704553

/* the context past which no knee exists, fp4 (closed form of §2.4) */
#define E_V3_NO_KNEE_CONTEXT 1684.8816029143898

/* exact toy: the batch at which the three roofs tie (closed form of §2.4) */
#define E_TOY_TIE_BATCH 4.0

/* exact toy: each roof at that batch (closed form of §2.4) */
#define E_TOY_ROOF_S_AT_TIE 4.0

/* exact toy, one byte an activation: the network roof (closed form of §2.4) */
#define E_TOY_NETWORK_S_AT_TIE_ACT1 8.0

/* exact toy: the weights (closed form of §2.4) */
#define E_TOY_WEIGHTS_S 4.0

/* exact toy: network over compute (closed form of §2.4) */
#define E_TOY_NET_OVER_COMPUTE 1.0

/* exact toy: knee at no context (§2.4) */
#define E_TOY_KNEE_L0 4.0

/* exact toy: knee at 0.5 tokens (§2.4) */
#define E_TOY_KNEE_L05 8.0

/* exact toy: the context at which KV grows as fast as compute (§2.4) */
#define E_TOY_NO_KNEE_CONTEXT 1.0

/* exact toy: compute of 100 sequences (§2.4) */
#define E_TOY_COMPUTE_S_B100 1e+02

/* 3 racks: the share crossing (closed form of §2.5) */
#define E_RACKS3_CROSS 0.6666666666666666

/* 3 racks, the lecture's 8x slower link (36:47), overlapped (closed form of §2.5) */
#define E_RACKS3_LECTURE_OVERLAP 5.333333333333333

/* the same, one part after the other (closed form of §2.5) */
#define E_RACKS3_LECTURE_SERIAL 5.666666666666666

/* 4 racks: the share crossing (closed form of §2.5) */
#define E_RACKS4_CROSS 0.75

/* 4 racks, NVLink 5 over a 400 Gb/s NIC, overlapped (closed form of §2.5) */
#define E_RACKS4_GB200_OVERLAP 13.5

/* the same, serial (closed form of §2.5) */
#define E_RACKS4_GB200_SERIAL 13.75

/* 2 racks, a NIC as fast as NVLink, overlapped (closed form of §2.5) */
#define E_RACKS2_EQUAL_OVERLAP 0.5

/* the same, serial (closed form of §2.5) */
#define E_RACKS2_EQUAL_SERIAL 1.0

/* 3 racks cost nothing extra (s = 1), NVLink 5, overlapped (closed form of §2.5) */
#define E_LINK_R3_FREE_OVERLAP 6e+11

/* the same, serial (closed form of §2.5) */
#define E_LINK_R3_FREE_SERIAL 9e+11

/* 4 racks at twice one rack's all-to-all, NVLink 5, overlapped (closed form of §2.5) */
#define E_LINK_R4_X2_OVERLAP 3.375e+11

/* the same, serial (closed form of §2.5) */
#define E_LINK_R4_X2_SERIAL 385714285714.2857

/* 4 racks, W_up 2^30 B/s, a target of 1/4, overlapped (closed form of §2.5) */
#define E_LINK_R4_QUARTER_OVERLAP 3221225472.0

/* 49 racks, W_up 2^30 B/s, at no cost (s = 1), overlapped (closed form of §2.5) */
#define E_LINK_R49_FREE_OVERLAP 1051828725.5510204

/* 49 racks, W_up 2^30 B/s, the target 1.0 / 49 in doubles, overlapped (closed form of §2.5) */
#define E_LINK_R49_EDGE_OVERLAP 51539607552.00001

/* DeepSeek-V3 on 2 racks of 64 GB200s, B = 8,192: compute (§2.4, §2.5) */
#define E_V3_2R_COMPUTE_S_B8192 0.0004736

/* the same: all-to-all, fp4 (closed form of §2.5) */
#define E_V3_2R_A2A_S_B8192 0.0021286092800000002

/* the same: network over compute (closed form of §2.5) */
#define E_V3_2R_NET_OVER_COMPUTE 4.49452972972973

/* P(X > 7), X ~ Binomial(10, 1/2): ten fair coins, counted by hand */
#define E_TAIL_N10_HALF_GT7 0.0546875

/* P(X > 4), the same, counted by hand */
#define E_TAIL_N10_HALF_GT4 0.623046875

/* P(X > 9), Binomial(10, 1/4), by hand */
#define E_TAIL_N10_QUARTER_GT9 9.5367431640625e-07

/* P(X > 99), Binomial(100, 1/2), by hand */
#define E_TAIL_N100_HALF_GT99 7.888609052210118e-31

/* P(X > 98), Binomial(100, 1/2): 100 fair coins, counted by hand */
#define E_TAIL_N100_HALF_GT98 7.967495142732219e-29

/* expected drops, 4 tokens, 4 experts, k 2, capacity 2 (by hand, §2.7) */
#define E_DROP_B4_E4_K2_C2 0.1875

/* the same, capacity 3 (by hand, §2.7) */
#define E_DROP_B4_E4_K2_C3 0.03125

/* the smallest capacity under 20% drops, same case (by hand, §2.7) */
#define E_CAP_B4_E4_K2_DROP20 2

/* the same under 5% (by hand, §2.7) */
#define E_CAP_B4_E4_K2_DROP5 3

/* the same under 1% (by hand, §2.7) */
#define E_CAP_B4_E4_K2_DROP1 4

/* the same for a target equal to capacity 2's drops (strictly below, moe.h) */
#define E_CAP_B4_E4_K2_AT_C2_DROPS 3

/* the same for a target a hair above capacity 2's drops (moe.h) */
#define E_CAP_B4_E4_K2_JUST_ABOVE 2

/* dense routing (k = E), 10 tokens, capacity 7 (§2.7) */
#define E_DROP_DENSE_B10_C7 0.3

/* dense, 100 tokens, under 1% (strictly, moe.h) */
#define E_CAP_DENSE_B100_DROP1 100

/* dense, 100 tokens, under 1.01% (§2.7) */
#define E_CAP_DENSE_B100_DROP101 99

/* E[max] lower bound, 2 tokens on 2 experts (by hand, §2.7) */
#define E_MAX_B2_E2_K1_LOWER 1.375

/* E[max] upper bound, the same (by hand, §2.7) */
#define E_MAX_B2_E2_K1_UPPER 1.5

/* a load's sd, the same (§2.7) */
#define E_MAX_B2_E2_K1_SD 0.7071067811865476

/* a load's sd, DeepSeek routing at 8,192 tokens (§2.7) */
#define E_MAX_B8192_E256_K8_SD 15.748015748023622

/* one load's sd, 10,000 tokens, 4 experts, k 2 (§2.7) */
#define E_SIM_LOAD_SD_B10000_E4_K2 5e+01

/* one load's variance, 100 tokens, 4 experts, k 2 (§2.7) */
#define E_SIM_LOAD_VAR_B100_E4_K2 25.0

/* E[max] lower bound, DeepSeek, 4,096 tokens (§2.7) */
#define E_SIM_MAX_LOWER_B4096 160.56000438798995

/* E[max] upper bound, the same (§2.7) */
#define E_SIM_MAX_UPPER_B4096 162.27351686674157

/* one load's sd, the same (§2.7) */
#define E_SIM_LOAD_SD_B4096 11.135528725660043

/* expected drops, the same, capacity 128 (§2.7) */
#define E_SIM_DROP_B4096_C128 0.034683898810063694

/* the smallest capacity under 1% drops, the same (§2.7) */
#define E_SIM_CAP_1PCT_B4096 138

/* E[max] lower bound, DeepSeek, 65,536 tokens (§2.7) */
#define E_SIM_MAX_LOWER_B65536 2175.021688552729

/* E[max] upper bound, the same (§2.7) */
#define E_SIM_MAX_UPPER_B65536 2181.4771520189597

/* one load's sd, the same (§2.7) */
#define E_SIM_LOAD_SD_B65536 44.54211490264017

/* fp4 parameters an NVL72 holds with no cache (closed form of §2.8) */
#define E_NVL72_FP4_PARAMS_NO_CONTEXT 2.6784e+13

/* the same beside its balance batch's caches, 4,096 tokens (closed form of §2.8) */
#define E_NVL72_FP4_PARAMS_L4096 7806399084476.687

/* its sparsity (§2.8) */
#define E_NVL72_FP4_SPARSITY_L4096 210.98375903991044

/* its balance batch (§2.8) */
#define E_NVL72_FP4_BATCH_L4096 65932.42469997202

/* the caches of that batch, 4,096 tokens each (§2.8) */
#define E_NVL72_FP4_KV_BYTES_L4096 9488800457761.656

/* toy, no context: GPUs (closed form of §2.10) */
#define E_LAYOUT_NOCTX_GPUS 2

/* its experts per GPU (§2.10) */
#define E_LAYOUT_NOCTX_EXPERTS_PER_GPU 4

/* its batch (§2.10) */
#define E_LAYOUT_NOCTX_BATCH 128.0

/* its throughput (§2.10) */
#define E_LAYOUT_NOCTX_TOKENS_PER_S 1024.0

/* its cost (§2.10) */
#define E_LAYOUT_NOCTX_USD_PER_TOKEN 1.953125e-06

/* toy, caches that fill the HBM: its batch (closed form of §2.10) */
#define E_LAYOUT_FULL_HBM_BATCH 4.0

/* its step (§2.10) */
#define E_LAYOUT_FULL_HBM_STEP_S 0.09375

/* its cost (§2.10) */
#define E_LAYOUT_FULL_HBM_USD_PER_TOKEN 4.6875e-05

/* toy at long context: GPUs (closed form of §2.10) */
#define E_LAYOUT_LONG_GPUS 8

/* its batch (§2.10) */
#define E_LAYOUT_LONG_BATCH 56.0

/* its cost (§2.10) */
#define E_LAYOUT_LONG_USD_PER_TOKEN 1.785714285714286e-05

/* toy on racks of 4: racks (closed form of §2.10) */
#define E_LAYOUT_2R_RACKS 2

/* its GPUs per rack (§2.10) */
#define E_LAYOUT_2R_GPUS_PER_RACK 4

/* its batch (§2.5, §2.10) */
#define E_LAYOUT_2R_BATCH 256.0

/* its cost (§2.10) */
#define E_LAYOUT_2R_USD_PER_TOKEN 3.90625e-06

/* toy, GPUs of 2^30 bytes, racks of 8: GPUs (§2.10) */
#define E_LAYOUT_TIE_GPUS 8

/* its batch (§2.10) */
#define E_LAYOUT_TIE_BATCH 512.0

/* DeepSeek-V3 at a 20 ms step: GPUs (closed form of §2.10) */
#define E_LAYOUT_V3_GPUS 4

/* its experts per GPU (§2.10) */
#define E_LAYOUT_V3_EXPERTS_PER_GPU 64

/* its batch (§2.10) */
#define E_LAYOUT_V3_BATCH 1.081e+04

/* its cost (§2.10) */
#define E_LAYOUT_V3_USD_PER_TOKEN 4.111111111111111e-09

/* one GPU, 3e9 active parameters, 1e15 FLOP/s, a 45 ms target: its batch in exact arithmetic (§2.4, §2.10) */
#define E_LAYOUT_QUOTIENT_BATCH_45MS 7.5e+03

/* the same at 15 ms, in exact arithmetic (moe.h's test in doubles may keep one less) */
#define E_LAYOUT_QUOTIENT_BATCH_15MS 2.5e+03

/* toy at a 2^-6 s target: GPUs (closed form of §2.10) */
#define E_LAYOUT_EDGE_GPUS 8

/* its batch (§2.10) */
#define E_LAYOUT_EDGE_BATCH 64.0

#endif
