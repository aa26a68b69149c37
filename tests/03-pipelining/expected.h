/*
 * expected.h -- the expected values of chapter 03-pipelining's public tests, each
 * with its source. Generated from their derivations (closed forms, papers), which
 * only the instructor's copy of Chalk holds: the derivation is the exercise.
 */
#ifndef CHALK_EXPECTED_H
#define CHALK_EXPECTED_H

/* forwards before the first backward, 1F1B, P = 4, M = 8 (Narayanan et al. 2021, section 2.2.1 and figure 4; §3.4.2 (A schedule simulator)) */
#define E_1F1B_P4_M8_STAGE0_FORWARDS_FIRST 4

/* forwards before the first backward, 1F1B, P = 4, M = 8 (Narayanan et al. 2021, section 2.2.1 and figure 4; §3.4.2 (A schedule simulator)) */
#define E_1F1B_P4_M8_STAGE1_FORWARDS_FIRST 3

/* forwards before the first backward, 1F1B, P = 4, M = 8 (Narayanan et al. 2021, section 2.2.1 and figure 4; §3.4.2 (A schedule simulator)) */
#define E_1F1B_P4_M8_STAGE2_FORWARDS_FIRST 2

/* forwards before the first backward, 1F1B, P = 4, M = 8 (Narayanan et al. 2021, section 2.2.1 and figure 4; §3.4.2 (A schedule simulator)) */
#define E_1F1B_P4_M8_STAGE3_FORWARDS_FIRST 1

/* forwards before the first backward of stage 0, p = 4, m = 8, v = 2 (Megatron-LM schedules.py, Narayanan et al. 2021 figure 4) */
#define E_INTERLEAVED_P4_M8_V2_STAGE0_FORWARDS_FIRST 11

/* warm-up of the last stage, p = 4, m = 8, v = 2 (Megatron-LM schedules.py) */
#define E_INTERLEAVED_P4_M8_V2_LAST_STAGE_WARMUP 4

/* position of stage 0's first backward, p = 2, m = 4, v = 3 (Megatron-LM schedules.py) */
#define E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD0_AT 7

/* chunk of that backward (Megatron-LM schedules.py) */
#define E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD0_CHUNK 2

/* position of stage 0's third backward, p = 2, m = 4, v = 3 (Megatron-LM schedules.py) */
#define E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD2_AT 11

/* chunk of that backward (Megatron-LM schedules.py) */
#define E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD2_CHUNK 1

/* GPipe batch, p = 4, m = 8, t_F = 1, t_B = 2 (Huang et al. 2019, section 2.3) */
#define E_SIM_P4_M8_GPIPE_MAKESPAN_S 33.0

/* work per stage, the same batch */
#define E_SIM_P4_M8_BUSY_S 24.0

/* idle time per stage (Huang et al. 2019, section 2.3) */
#define E_SIM_P4_M8_GPIPE_IDLE_S 9.0

/* bubble of GPipe and 1F1B, p = 4, m = 8 (Huang et al. 2019; Narayanan et al. 2021, section 2.2.1) */
#define E_SIM_P4_M8_BUBBLE_FRACTION 0.2727272727272727

/* bubble over the ideal time, p = 4, m = 8 (Narayanan et al. 2021, eq. 1) */
#define E_SIM_P4_M8_BUBBLE_OVER_IDEAL 0.375

/* interleaved batch, p = 4, m = 8, v = 2 (Narayanan et al. 2021, section 2.2.2) */
#define E_SIM_P4_M8_V2_MAKESPAN_S 28.5

/* its idle share (Narayanan et al. 2021, section 2.2.2) */
#define E_SIM_P4_M8_V2_BUBBLE_FRACTION 0.15789473684210525

/* its bubble over the ideal time (Narayanan et al. 2021, section 2.2.2) */
#define E_SIM_P4_M8_V2_BUBBLE_OVER_IDEAL 0.1875

/* GPipe's peak micro-batches in flight (Narayanan et al. 2021, section 2.2.1) */
#define E_SIM_P4_M8_GPIPE_PEAK 8.0

/* 1F1B's peak (Narayanan et al. 2021, section 2.2.1) */
#define E_SIM_P4_M8_1F1B_PEAK 4.0

/* interleaved peak (Megatron-LM schedules.py) */
#define E_SIM_P4_M8_V2_PEAK 5.5

/* 1F1B's peak, 2 micro-batches on 8 stages (Narayanan et al. 2021, section 2.2.1) */
#define E_SIM_P8_M2_1F1B_PEAK 2.0

/* time between tokens, 20 ms over 4 racks, 2 ms hops (§3.5 (Decode is a loop)) */
#define E_DECODE_P4_TOKEN_S 0.028

/* what the hops add (§3.5 (Decode is a loop)) */
#define E_DECODE_P4_HOPS_S 0.008

/* micro-batches in flight, the same loop (§3.5 (Decode is a loop)) */
#define E_DECODE_P4_MICROBATCHES 6

/* tokens per second, the same loop, micro-batches of 2,048 (§3.5 (Decode is a loop)) */
#define E_DECODE_P4_TOKENS_PER_S 4.096e+05

/* micro-batches, 4 stages of 2 ms, hops of 2 ms (§3.5 (Decode is a loop)) */
#define E_DECODE_P4_STAGE_2MS_MICROBATCHES 8

/* 2 stages of 10 ms, hops of 2 ms (§3.5 (Decode is a loop)) */
#define E_DECODE_P2_TOKEN_S 0.024

/* micro-batches, the same loop (§3.5 (Decode is a loop)) */
#define E_DECODE_P2_MICROBATCHES 3

/* weights per GPU, 1 TB on 64 GPUs a stage (§3.6 (The capacity equation)) */
#define E_CAP_WEIGHTS_PER_GPU_P1 1.5625e+10

/* weights per GPU, 1 TB on 64 GPUs a stage (§3.6 (The capacity equation)) */
#define E_CAP_WEIGHTS_PER_GPU_P2 7.8125e+09

/* weights per GPU, 1 TB on 64 GPUs a stage (§3.6 (The capacity equation)) */
#define E_CAP_WEIGHTS_PER_GPU_P4 3.90625e+09

/* weights per GPU, 1 TB on 64 GPUs a stage (§3.6 (The capacity equation)) */
#define E_CAP_WEIGHTS_PER_GPU_P8 1.953125e+09

/* KV per GPU of the lecture's model with P micro-batches on P stages (§3.6 (The capacity equation), lecture 70:40-72:48) */
#define E_CAP_KV_PER_GPU 1.28e+10

/* KV per GPU with one micro-batch on 4 stages (§3.6 (The capacity equation)) */
#define E_CAP_KV_PER_GPU_ONE_MICROBATCH_P4 3.2e+09

/* fewest stages on 20 GB GPUs (§3.6 (The capacity equation)) */
#define E_CAP_STAGES_20GB 3

/* the HBM that 5 stages fill exactly (§3.6 (The capacity equation)) */
#define E_CAP_HBM_FIVE_STAGES_EXACTLY 1.5925e+10

/* the HBM that 1,000 stages fill exactly (§3.6 (The capacity equation)) */
#define E_CAP_HBM_THOUSAND_STAGES_EXACTLY 1.2815625e+10

/* fewest stages on 72 GPUs of 14.85 GB (§3.6 (The capacity equation)) */
#define E_CAP_STAGES_72_CHIPS 4

/* fewest stages with 8 bytes of HBM left over (§3.6 (The capacity equation)) */
#define E_CAP_STAGES_8_BYTES_LEFT 1953125000

/* fewest stages on 5 GB GPUs without KV cache (§3.6 (The capacity equation)) */
#define E_CAP_STAGES_WEIGHTS_ALONE_5GB 4

/* the model on one rack of 64 GPUs, one micro-batch (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_ONE_RACK_BYTES_PER_GPU 2.8425e+10

/* bytes per GPU, 60 layers on 20 GB GPUs without hops (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_NO_HOPS_BYTES_PER_GPU 18008333333.333332

/* fewest stages, 60 layers on 20 GB GPUs without hops (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_NO_HOPS_STAGES 3

/* 61 layers, 1 TB on 8 GPUs of 80 GB (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_61_STAGES 2

/* layers of the fullest stage, the same split */
#define E_SPLIT_61_FULLEST 31

/* micro-batches in flight, the same split (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_61_MICROBATCHES 2

/* time between tokens, the same split */
#define E_SPLIT_61_TOKEN_S 0.0202

/* bytes per GPU, the same split (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_61_BYTES_PER_GPU 63537295081.96722

/* 61 layers, 1 TB on 8 GPUs of 40 GB, at least 15 layers a stage (§3.7 (The best split of a model over racks)) */
#define E_SPLIT_61_MIN15_STAGES 4

/* layers of the fullest stage, the same split */
#define E_SPLIT_61_MIN15_FULLEST 16

/* bytes per GPU, the same split */
#define E_SPLIT_61_MIN15_BYTES_PER_GPU 32786885245.90164

/* 10 layers of 2 ms on 4 stages: every cut counted (§3.7.1 (Layers of unequal cost), the contract's ties) */
#define E_BALANCE_EQUAL_SLOWEST_NS 6000000

/* stage 1's first layer of the same cut */
#define E_BALANCE_EQUAL_FIRST_LAYER_1 3

/* stage 2's first layer of the same cut */
#define E_BALANCE_EQUAL_FIRST_LAYER_2 6

/* stage 3's first layer of the same cut */
#define E_BALANCE_EQUAL_FIRST_LAYER_3 9

/* DeepSeek-V3's 3 dense and 58 MoE layers at 300 and 400 us on 4 stages: every cut counted (§3.7.1 (Layers of unequal cost)) */
#define E_BALANCE_DENSE_MOE_SLOWEST_NS 6100000

/* stage 1's first layer of the same cut */
#define E_BALANCE_DENSE_MOE_FIRST_LAYER_1 16

/* stage 2's first layer of the same cut */
#define E_BALANCE_DENSE_MOE_FIRST_LAYER_2 31

/* stage 3's first layer of the same cut */
#define E_BALANCE_DENSE_MOE_FIRST_LAYER_3 46

/* 8 layers of 1 ms and an output layer of 5 ms on 4 stages: every cut counted (§3.7.1 (Layers of unequal cost)) */
#define E_BALANCE_HEAD_SLOWEST_NS 5000000

/* stage 1's first layer of the same cut */
#define E_BALANCE_HEAD_FIRST_LAYER_1 5

/* stage 2's first layer of the same cut */
#define E_BALANCE_HEAD_FIRST_LAYER_2 7

/* stage 3's first layer of the same cut */
#define E_BALANCE_HEAD_FIRST_LAYER_3 8

/* 126 layers of the test's profile on 16 stages: the least slowest stage over every cut (§3.7.1 (Layers of unequal cost)) */
#define E_BALANCE_PROFILE_SLOWEST_NS 8434000

/* stage 1's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_1 8

/* stage 2's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_2 16

/* stage 3's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_3 24

/* stage 4's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_4 31

/* stage 5's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_5 39

/* stage 6's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_6 47

/* stage 7's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_7 55

/* stage 8's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_8 62

/* stage 9's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_9 70

/* stage 10's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_10 78

/* stage 11's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_11 86

/* stage 12's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_12 94

/* stage 13's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_13 102

/* stage 14's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_14 110

/* stage 15's first layer of the same cut */
#define E_BALANCE_PROFILE_FIRST_LAYER_15 118

/* most sequences a micro-batch, 4 stages of 64 GPUs of 20 GB, no hops (§3.6 (The capacity equation), §3.5 (Decode is a loop)) */
#define E_MAXMB_P4_SEQS 2514

/* micro-batches in flight, 4 stages, 2 ms hops (§3.5 (Decode is a loop)) */
#define E_MAXMB_P4_HOPS_MICROBATCHES 6

/* most sequences a micro-batch, the same, 2 ms hops (§3.6 (The capacity equation), §3.5 (Decode is a loop)) */
#define E_MAXMB_P4_HOPS_SEQS 1676

/* most sequences a micro-batch on one rack of 64 GPUs of 20 GB (§3.6 (The capacity equation)) */
#define E_MAXMB_P1_SEQS 683

/* the same on 2 stages, no hops */
#define E_MAXMB_P2_SEQS 1904

/* the same on 8 stages, no hops */
#define E_MAXMB_P8_SEQS 2819

/* micro-batches, 6 stages, 2 ms hops (§3.5 (Decode is a loop)) */
#define E_MAXMB_P6_HOPS_MICROBATCHES 10

/* HBM that 1,001 sequences a micro-batch fill exactly on 6 stages, 2 ms hops */
#define E_MAXMB_HBM_P6_1001_EXACTLY 1.32815e+10

/* HBM that 2,000 sequences a micro-batch fill exactly on 4 stages, 2 ms hops */
#define E_MAXMB_HBM_P4_2000_EXACTLY 2.310625e+10

/* HBM that the weights' share fills exactly on 4 stages (§3.6 (The capacity equation)) */
#define E_MAXMB_HBM_P4_WEIGHTS_ONLY 3.90625e+09

/* HBM that one sequence a micro-batch fills exactly on 4 stages, no hops */
#define E_MAXMB_HBM_P4_ONE_SEQ_EXACTLY 3.91265e+09

#endif
