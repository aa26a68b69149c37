/*
 * expected.h -- the expected values of chapter 06-revnets's public tests, each
 * with its source. Generated from their derivations (closed forms, papers), which
 * only the instructor's copy of Chalk holds: the derivation is the exercise.
 */
#ifndef CHALK_EXPECTED_H
#define CHALK_EXPECTED_H

/* one RevNet block, one number a stream (Gomez et al. 2017, eq. 2), the chain rule by hand */
#define E_CHAIN_LOSS 0.23755712840415674

/* one RevNet block, one number a stream (Gomez et al. 2017, eq. 2), the chain rule by hand */
#define E_CHAIN_GRAD_X1 0.03739363309937843

/* one RevNet block, one number a stream (Gomez et al. 2017, eq. 2), the chain rule by hand */
#define E_CHAIN_GRAD_X2 -0.5912671220077389

/* one RevNet block, one number a stream (Gomez et al. 2017, eq. 2), the chain rule by hand */
#define E_CHAIN_GRAD_WF -0.018529978484451246

/* one RevNet block, one number a stream (Gomez et al. 2017, eq. 2), the chain rule by hand */
#define E_CHAIN_GRAD_WG 0.1871364940793203

/* GPT-3, one undivided layer (Korthikanti et al. 2022, eq. 1, section 5) */
#define E_ACT_GPT3 2868903936.0

/* GPT-3, tensor parallelism t = 8 (Korthikanti et al. 2022, eq. 2) */
#define E_ACT_GPT3_TP8 578813952.0

/* GPT-3, tensor and sequence parallelism t = 8 (Korthikanti et al. 2022, eq. 4) */
#define E_ACT_GPT3_TP8_SP 358612992.0

/* GPT-3's 96 layers on the first pipeline stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, eq. 5) */
#define E_ACT_GPT3_TP8_SP_MODEL 34426847232.0

/* MT-NLG, t = 8 (Korthikanti et al. 2022, eq. 2, Table 3) */
#define E_ACT_MTNLG_TP8 8.8080384e+08

/* MT-NLG, t = 8, selective recomputation (Korthikanti et al. 2022, Table 2) */
#define E_ACT_MTNLG_TP8_SELECTIVE 5.4525952e+08

/* MT-NLG, t = 8, sequence parallelism and selective recomputation (Korthikanti et al. 2022, eq. 6) */
#define E_ACT_MTNLG_TP8_SP_SELECTIVE 1.7825792e+08

/* GPT-3, full recomputation without sequence parallelism (Korthikanti et al. 2022, section 5 and Table 2) */
#define E_ACT_GPT3_FULL 50331648.0

/* GPT-3's 96 layers under full recomputation (Korthikanti et al. 2022, Table 2) */
#define E_ACT_GPT3_FULL_MODEL 4831838208.0

/* GPT-3, full recomputation with sequence parallelism t = 8 (Korthikanti et al. 2022, Table 2; Megatron-LM, megatron/model/transformer.py) */
#define E_ACT_GPT3_FULL_TP8_SP 6291456.0

/* full recomputation (Korthikanti et al. 2022, Appendix A) */
#define E_RECOMPUTE_FULL 0.3333333333333333

/* GPT-3, selective recomputation (Korthikanti et al. 2022, Appendix A) */
#define E_RECOMPUTE_SELECTIVE_GPT3 0.009009009009009009

/* GPT-3's attention core in an undivided layer (Korthikanti et al. 2022, eq. 1) */
#define E_ATTENTION_CORE_SHARE_GPT3 0.7017543859649122

/* GPT-3, t = 8: eq. 2 over eq. 6 (Korthikanti et al. 2022, section 6.1) */
#define E_SP_SELECTIVE_SAVING_GPT3 5.411764705882353

/* GPT-3 175e9 parameters, mixed-precision Adam (ZeRO, section 3.1) on t = 8, p = 8 (Korthikanti et al. 2022, Table 3) */
#define E_MODEL_STATE_GPT3_T8_P8 4.375e+10

/* 1e9 parameters, mixed-precision Adam on one GPU (ZeRO, section 3.1) */
#define E_MODEL_STATE_1B 1.6e+10

/* 8 layers of 4 B, checkpoints of 1 B, budget 32 B: section 6.8's model by hand */
#define E_PLAN_ALL_FIT_STORED 8

/* 8 layers of 4 B, checkpoints of 1 B, budget 32 B: section 6.8's model by hand */
#define E_PLAN_ALL_FIT_SEGMENT 0

/* 8 layers of 4 B, checkpoints of 1 B, budget 32 B: section 6.8's model by hand */
#define E_PLAN_ALL_FIT_SEGMENTS 0

/* 8 layers of 4 B, checkpoints of 1 B, budget 32 B: section 6.8's model by hand */
#define E_PLAN_ALL_FIT_PEAK 32.0

/* 8 layers of 4 B, checkpoints of 1 B, budget 32 B: section 6.8's model by hand */
#define E_PLAN_ALL_FIT_EXTRA 0.0

/* 8 layers of 4 B, checkpoints of 1 B, budget 31 B: section 6.8's model by hand */
#define E_PLAN_ONE_SHORT_STORED 7

/* 8 layers of 4 B, checkpoints of 1 B, budget 31 B: section 6.8's model by hand */
#define E_PLAN_ONE_SHORT_SEGMENT 1

/* 8 layers of 4 B, checkpoints of 1 B, budget 31 B: section 6.8's model by hand */
#define E_PLAN_ONE_SHORT_SEGMENTS 1

/* 8 layers of 4 B, checkpoints of 1 B, budget 31 B: section 6.8's model by hand */
#define E_PLAN_ONE_SHORT_PEAK 29.0

/* 8 layers of 4 B, checkpoints of 1 B, budget 31 B: section 6.8's model by hand */
#define E_PLAN_ONE_SHORT_EXTRA 0.041666666666666664

/* 4 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_LEAST_PEAK_STORED 2

/* 4 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_LEAST_PEAK_SEGMENT 2

/* 4 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_LEAST_PEAK_SEGMENTS 1

/* 4 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_LEAST_PEAK_PEAK 5.0

/* 4 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_LEAST_PEAK_EXTRA 0.16666666666666666

/* 7 layers of 2 B, checkpoints of 1 B, budget 8 B: section 6.8's model by hand */
#define E_PLAN_TIE_STORED 3

/* 7 layers of 2 B, checkpoints of 1 B, budget 8 B: section 6.8's model by hand */
#define E_PLAN_TIE_SEGMENT 2

/* 7 layers of 2 B, checkpoints of 1 B, budget 8 B: section 6.8's model by hand */
#define E_PLAN_TIE_SEGMENTS 2

/* 7 layers of 2 B, checkpoints of 1 B, budget 8 B: section 6.8's model by hand */
#define E_PLAN_TIE_PEAK 8.0

/* 7 layers of 2 B, checkpoints of 1 B, budget 8 B: section 6.8's model by hand */
#define E_PLAN_TIE_EXTRA 0.19047619047619047

/* 5 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_ROUND_UP_STORED 2

/* 5 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_ROUND_UP_SEGMENT 2

/* 5 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_ROUND_UP_SEGMENTS 2

/* 5 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_ROUND_UP_PEAK 6.0

/* 5 layers of 2 B, checkpoints of 1 B, budget 6 B: section 6.8's model by hand */
#define E_PLAN_ROUND_UP_EXTRA 0.2

/* 2 layers of 2 B, checkpoints of 1 B, budget 3 B: section 6.8's model by hand */
#define E_PLAN_FREES_STORED 1

/* 2 layers of 2 B, checkpoints of 1 B, budget 3 B: section 6.8's model by hand */
#define E_PLAN_FREES_SEGMENT 1

/* 2 layers of 2 B, checkpoints of 1 B, budget 3 B: section 6.8's model by hand */
#define E_PLAN_FREES_SEGMENTS 1

/* 2 layers of 2 B, checkpoints of 1 B, budget 3 B: section 6.8's model by hand */
#define E_PLAN_FREES_PEAK 3.0

/* 2 layers of 2 B, checkpoints of 1 B, budget 3 B: section 6.8's model by hand */
#define E_PLAN_FREES_EXTRA 0.16666666666666666

/* 4 layers of 4 B, checkpoints of 1 B, budget 7 B: section 6.8's model by hand */
#define E_PLAN_LEAST_STORED 1

/* 4 layers of 4 B, checkpoints of 1 B, budget 7 B: section 6.8's model by hand */
#define E_PLAN_LEAST_SEGMENT 1

/* 4 layers of 4 B, checkpoints of 1 B, budget 7 B: section 6.8's model by hand */
#define E_PLAN_LEAST_SEGMENTS 3

/* 4 layers of 4 B, checkpoints of 1 B, budget 7 B: section 6.8's model by hand */
#define E_PLAN_LEAST_PEAK 7.0

/* 4 layers of 4 B, checkpoints of 1 B, budget 7 B: section 6.8's model by hand */
#define E_PLAN_LEAST_EXTRA 0.25

/* GPT-3's first stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, eq. 4 and section 5), budget 96 checkpoints and one layer: section 6.8's model */
#define E_PLAN_GPT3_STORED 1

/* GPT-3's first stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, eq. 4 and section 5), budget 96 checkpoints and one layer: section 6.8's model */
#define E_PLAN_GPT3_SEGMENT 1

/* GPT-3's first stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, eq. 4 and section 5), budget 96 checkpoints and one layer: section 6.8's model */
#define E_PLAN_GPT3_SEGMENTS 95

/* GPT-3's first stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, eq. 4 and section 5), budget 96 checkpoints and one layer: section 6.8's model */
#define E_PLAN_GPT3_PEAK 956301312.0

/* GPT-3's first stage, t = 8 with sequence parallelism (Korthikanti et al. 2022, eq. 4 and section 5), budget 96 checkpoints and one layer: section 6.8's model */
#define E_PLAN_GPT3_EXTRA 0.3298611111111111

/* 10^6 identical steps of 4096 B, checkpoints of 4096 B, budget 1999 x 4096 B: section 6.8's model, the closed form n = 1000 derived above */
#define E_PLAN_CHAIN_1000_STORED 1000

/* 10^6 identical steps of 4096 B, checkpoints of 4096 B, budget 1999 x 4096 B: section 6.8's model, the closed form n = 1000 derived above */
#define E_PLAN_CHAIN_1000_SEGMENT 1000

/* 10^6 identical steps of 4096 B, checkpoints of 4096 B, budget 1999 x 4096 B: section 6.8's model, the closed form n = 1000 derived above */
#define E_PLAN_CHAIN_1000_SEGMENTS 999

/* 10^6 identical steps of 4096 B, checkpoints of 4096 B, budget 1999 x 4096 B: section 6.8's model, the closed form n = 1000 derived above */
#define E_PLAN_CHAIN_1000_PEAK 8187904.0

/* 10^6 identical steps of 4096 B, checkpoints of 4096 B, budget 1999 x 4096 B: section 6.8's model, the closed form n = 1000 derived above */
#define E_PLAN_CHAIN_1000_EXTRA 0.333

/* 8 layers, 6 stored under selective recomputation at s = 2048, h = 12288: section 6.8, FLOPs of Korthikanti et al. 2022, Appendix A */
#define E_PLAN_FLOPS_SELECTIVE 0.09009009009009009

/* 8 layers, 2 recomputed in segments and 6 stored under full recomputation: each of the 8 runs its forward once more, a forward being a third of a step (Korthikanti et al. 2022, Appendix A; section 6.6) */
#define E_PLAN_FLOPS_FULL 0.3333333333333333

/* an A100's 80 GB less GPT-3's model state on t = 8, p = 8 (ZeRO section 3.1, Korthikanti et al. 2022 Table 3) */
#define E_LONGEST_BUDGET_GPT3 3.625e+10

/* GPT-3's first stage, t = 8, every layer stored (Korthikanti et al. 2022, eq. 2 and 5), solved for S */
#define E_LONGEST_GPT3_TP8 1508

/* GPT-3's first stage, t = 8, sequence parallelism and selective recomputation (Korthikanti et al. 2022, eq. 6), solved for S */
#define E_LONGEST_GPT3_TP8_SP_SELECTIVE 7230

/* reversible GPT-3 layers, t = 8 with sequence parallelism: one layer's bytes (Korthikanti et al. 2022, eq. 4), solved for S */
#define E_LONGEST_GPT3_TP8_SP_REVERSIBLE 24148

/* reversible GPT-3 layers, t = 8, sequence parallelism, selective recomputation: one layer's bytes (Korthikanti et al. 2022, eq. 6), solved for S */
#define E_LONGEST_GPT3_TP8_SP_SELECTIVE_REVERSIBLE 694125

/* one GPT-3 layer at S = 2048 on t = 8 (Korthikanti et al. 2022, eq. 2): a budget met exactly at a whole S */
#define E_LONGEST_GPT3_TP8_LAYER_2048 578813952.0

/* a budget just below 30 x 1.5e14 bytes: an answer near 2^47 tokens */
#define E_LONGEST_TINY_FULL_BUDGET 4499999999999999LL

/* 5 tiny layers (d_model = 3) under full recomputation, 30 S bytes (Korthikanti et al. 2022, section 5), solved for S in integers */
#define E_LONGEST_TINY_FULL 149999999999999LL

/* one tiny layer (d_model = 5, n_h = 2) at S = 75925008 (Korthikanti et al. 2022, eq. 1): a budget met exactly at a whole S */
#define E_LONGEST_TINY_EXACT_BUDGET 57646081305252000LL

/* one tiny layer (d_model = 5, n_h = 2), that budget solved for S in integers */
#define E_LONGEST_TINY_EXACT 75925008

/* window of shifts, tolerance 0.3: exact avalanche of a linear mixer, flips of bit j = min(r + 1, 64 - j) */
#define E_ROUNDS_WINDOW_TOL_0_3 14

/* window of shifts, tolerance 0.1 (as above) */
#define E_ROUNDS_WINDOW_TOL_0_1 34

/* window of shifts, tolerance 0.01 (as above) */
#define E_ROUNDS_WINDOW_TOL_0_01 52

/* ramp of rotations, span 2e9, tolerance 1/16: the family's definition in test_revnets.c, c / 64 exact for c rotations */
#define E_ROUNDS_RAMP_2E9_TOL_1_16 1741935484

/* ramp of rotations, span 40000, tolerance 1/16 (as above) */
#define E_ROUNDS_COSTLY_RAMP_4E4_TOL_1_16 34839

#endif
