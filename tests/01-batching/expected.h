/*
 * expected.h -- the expected values of chapter 01-batching's public tests, each
 * with its source. Generated from their derivations (closed forms, papers), which
 * only the instructor's copy of Chalk holds: the derivation is the exercise.
 */
#ifndef CHALK_EXPECTED_H
#define CHALK_EXPECTED_H

/* parameters a batch of 3 reads, toy MoE k = 1 of E = 4 (closed form of section 1.3, checked by hand) */
#define E_FETCHED_TOY_B3 6.03979776e+09

/* the same at batch 2 (checked by hand) */
#define E_FETCHED_TOY_B2 4831838208.0

/* the same at batch 2.5 (the expectation is smooth in the batch) */
#define E_FETCHED_TOY_B2_5 5479181780.895721

/* DeepSeek-V3 (k = 8 of E = 256, config_671B.json), idle share 1% (closed form of section 1.3) */
#define E_ALL_EXPERTS_DEEPSEEK_1PCT 146

/* k = 1 of E = 4, idle share 27/64 (closed form of section 1.3, exact in binary) */
#define E_ALL_EXPERTS_K1_E4_EXACT 3

/* k = 1 of E = 4, idle share 27/64 x 0.999 (closed form of section 1.3) */
#define E_ALL_EXPERTS_K1_E4_BELOW 4

/* DeepSeek-V3 on GB200 NVL72 at no context (closed form of section 1.5) */
#define E_BALANCE_DEEPSEEK_CTX0 5667.22972972973

/* DeepSeek-V3 on GB200 NVL72 at 256 tokens (closed form of 1.5.1) */
#define E_BALANCE_DEEPSEEK_CTX256 8141.155157847656

/* max balanced context of Llama 3 70B on H100s, tokens (closed form of 1.5.1) */
#define E_MAX_CTX_LLAMA_H100 1459.5980591190596

/* max balanced context of DeepSeek-V3 on GB200 in fp4, tokens (closed form of 1.5.1) */
#define E_MAX_CTX_DEEPSEEK_NVL72 842.4408014571949

/* max balanced context of the power-of-two toy, tokens (closed form of 1.5.1) */
#define E_MAX_CTX_TOY 2048.0

/* Llama 3 70B on 8 H100s at a context 1e-6 below its max balanced context (closed form of 1.5.1, to first order) */
#define E_BALANCE_LLAMA_1E6_BELOW 295223880.5970149

/* Llama 3 70B on 8 x 80 GB at 8,192 tokens (closed form of 1.6) */
#define E_MAX_BATCH_HBM_LLAMA_8K 185

/* DeepSeek-V3 in fp4 on 72 x 186 GB at 8,192 tokens (closed form of 1.6) */
#define E_MAX_BATCH_HBM_DEEPSEEK_8K 22680

/* DeepSeek-V3 on GB200 NVL72 at 4,096 tokens within 15 ms (closed form of 1.6) */
#define E_MAX_BATCH_LAT_DEEPSEEK_4K_15MS 28851

/* DeepSeek-V3 on GB200 NVL72 at 256 tokens within 15 ms (closed form of 1.6) */
#define E_MAX_BATCH_LAT_DEEPSEEK_256_15MS 145945

/* the step of one DeepSeek-V3 sequence at 1,024 tokens on GB200 NVL72, s (1.2) */
#define E_STEP_ONE_DEEPSEEK_1K 0.0005825902057777778

/* power-of-two toy, no cache, target at the floor 2^-10 s (closed form of 1.6) */
#define E_MAX_BATCH_TOY_FLOOR_NO_CACHE 2048

/* power-of-two toy with 2^32 + 2^21 B a chip at 1,024 tokens (closed form of 1.6) */
#define E_MAX_BATCH_TOY_HBM_2_21 2

/* the normal batch of the ideal-roofline case: 2.5 x DeepSeek-V3's knee */
#define E_FAST_IDEAL_NORMAL_BATCH 14168.074324324323

/* the normal batch of the ideal-roofline case: 5 x DeepSeek-V3's knee */
#define E_FAST_IDEAL_FAR_NORMAL_BATCH 28336.148648648646

/* its fast batch at speedup 2.5 (closed form of section 1.9) */
#define E_FAST_IDEAL_FAR_BATCH 11334.45945945946

/* DeepSeek-V3 at 32,768 tokens, normal batch 8,000, speedup 2.5 (1.9) */
#define E_FAST_KV_BATCH 3112.579854329427

/* its fast step, s */
#define E_FAST_KV_STEP 0.01302561331111111

/* its cost per token over normal */
#define E_FAST_KV_COST_RATIO 1.0280860732131825

/* Llama 3 70B on 8 H100s at 4,096 tokens, normal batch 2: the speedup that leaves room for 1.5 */
#define E_FAST_SPEEDUP_ROOM_1_5 1.0046859390831493

/* the same, room for 0.5 sequences */
#define E_FAST_SPEEDUP_ROOM_0_5 1.0141908118088012

/* the fast batch at the first of those speedups */
#define E_FAST_ROOM_1_5_BATCH 1.5

/* power-of-two toy at 4,096 tokens, normal batch 1,026 at speedup 2: its fast step, s */
#define E_FAST_TOY_ONE_STEP 0.0009775161743164062

/* its cost per token over normal (batch 1) */
#define E_FAST_TOY_ONE_COST_RATIO 513.0

/* DeepSeek-V3 at no context from 2.5 x its knee: the speedup whose fast step is a batch of 64's (1.3, 1.9) */
#define E_FAST_MOE_SPEEDUP_TO_64 2.866483340313112

/* that fast step, s */
#define E_FAST_MOE_STEP_64 0.0005079963919432319

/* its cost per token over normal */
#define E_FAST_MOE_COST_RATIO_64 77.22918120758594

/* DeepSeek-V3 at 4,096 tokens from batch 200: the speedup whose fast step is a batch of 12's */
#define E_FAST_MOE_SPEEDUP_200_TO_12 3.401256667841868

/* that fast step, s */
#define E_FAST_MOE_STEP_12 0.00020034215534890366

/* its cost per token over normal */
#define E_FAST_MOE_COST_RATIO_12 4.900149648877229

/* DeepSeek-V3 at 4,096 tokens from batch 100: the speedup whose fast step is one sequence's */
#define E_FAST_MOE_SPEEDUP_100_TO_1 18.661306001571706

/* Llama 3 70B on 8 H100s at no context, normal batch 100, no speedup: the fast batch (1.9) */
#define E_FAST_KNEE_BATCH 295.22388059701495

/* its step, s */
#define E_FAST_KNEE_STEP 0.00526865671641791

/* its cost per token over normal */
#define E_FAST_KNEE_COST_RATIO 0.33872598584428715

/* Llama 3 70B on H100s at 1,024 tokens within 30 ms: chips (1.10) */
#define E_CHEAP_1K_30MS_CHIPS 6

/* its batch */
#define E_CHEAP_1K_30MS_BATCH 1009

/* its step, s */
#define E_CHEAP_1K_30MS_STEP 0.02400923491742501

/* a token's arithmetic on H100s at $4.25, USD per million tokens (1.4) */
#define E_CHEAP_H100_ARITHMETIC_USD 0.16854847769913492

/* the same within 20 ms: chips (1.10) */
#define E_CHEAP_1K_20MS_CHIPS 8

/* its batch */
#define E_CHEAP_1K_20MS_BATCH 1120

/* Llama 3 70B at 32,768 tokens within 50 ms, 8 A100s: batch (1.10) */
#define E_CHEAP_32K_BATCH 46

/* its step, s */
#define E_CHEAP_32K_STEP 0.038935828778813145

/* its USD per million tokens */
#define E_CHEAP_32K_USD 4.156916985564108

/* power-of-two toy, one sequence of 1,024 tokens on 4 chips: step, s */
#define E_CHEAP_TOY_STEP 0.0009768009185791016

/* its USD per million tokens */
#define E_CHEAP_TOY_USD 1.0853343539767795

/* Llama 3 70B at 1,024 tokens within 10 us, H100s or A100s, up to 2^31 - 1 each: chips (1.10) */
#define E_CHEAP_10US_CHIPS 14135

/* its batch */
#define E_CHEAP_10US_BATCH 990

/* the largest sparsity of DeepSeek-V3's 37e9 active parameters in fp4 on a GB200 NVL72 at 512 tokens (closed form of section 1.8 on 1.5.1 and 1.6) */
#define E_SPARSITY_DEEPSEEK_512 283.94092084733376

/* its balance batch at that sparsity, sequences (closed form of section 1.8; GB200 NVL72 spec sheet) */
#define E_SPARSITY_DEEPSEEK_512_BATCH 226216.2162162162

/* the same at no context (closed form of section 1.8 on 1.5.1 and 1.6) */
#define E_SPARSITY_DEEPSEEK_CTX0 723.8918918918919

/* its balance batch at that sparsity, sequences (closed form of section 1.8; GB200 NVL72 spec sheet) */
#define E_SPARSITY_DEEPSEEK_CTX0_BATCH 226216.2162162162

/* the largest sparsity of Llama 3 70B's 70.6e9 active parameters in bf16 on 8 H100s at 1,024 tokens (closed form of section 1.8 on 1.5.1 and 1.6) */
#define E_SPARSITY_LLAMA_1K 1.3526889305688494

/* its balance batch at that sparsity, sequences (closed form of section 1.8; H100 SXM spec sheet) */
#define E_SPARSITY_LLAMA_1K_BATCH 1338.1252378334955

/* the HBM per H100 at which 8 of them hold a dense Llama 3 70B (sparsity exactly 1) at its balance batch at 120 tokens, bytes (1.8) */
#define E_SPARSITY_EXACT_HBM_LLAMA_120 19231071266.550526

/* power-of-two toy at 1,024 tokens with 4 x 2^30 B of HBM: sparsity exactly 1, its balance batch */
#define E_SPARSITY_TOY_EXACT_BATCH 512.0

/* power-of-two toy at 1,024 tokens with its 4 x (2^32 + 2^20) B (1.8) */
#define E_SPARSITY_TOY 4.0009765625

/* its balance batch at that sparsity, sequences (checked by hand, exact in binary) */
#define E_SPARSITY_TOY_BATCH 2048.5

#endif
