/*
 * expected.h -- the expected values of chapter 05-long-context's public tests, each
 * with its source. Generated from their derivations (closed forms, papers), which
 * only the instructor's copy of Chalk holds: the derivation is the exercise.
 */
#ifndef CHALK_EXPECTED_H
#define CHALK_EXPECTED_H

/* DeepSeek-V3 on a GB200 NVL72, batch 20,000: closed form of §5.1 (The roofline against context) */
#define E_KINK_DSV3_B20000_TOKENS 1969.240980398215

/* the same without attention's arithmetic (the lecture at 1:32:56) */
#define E_KINK_DSV3_NO_ATTN_B20000_TOKENS 1207.4510473588343

/* the same at an unbounded batch (§5.1 (The roofline against context)) */
#define E_KINK_DSV3_UNBOUNDED_BATCH_TOKENS 2747.8860586817755

/* toy: 2 B of weights, 1 active parameter, 1 B a token, 1 FLOP/s, 1 B/s, batch 2: closed form of §5.1 (The roofline against context) */
#define E_KINK_TOY_B2_TOKENS 1.0

/* toy: 1 active parameter, 1 B a token, 0.5 attention FLOPs a token, 1 FLOP/s, 1 B/s, unbounded batch: closed form of §5.1 (The roofline against context) */
#define E_KINK_TOY_HALF_ATTN_TOKENS 4.0

/* DeepSeek-V3, NVL72, batch 64, 8,192 tokens, a one-token pass: the memory term of §5.1 (the lecture at 1:41:33) */
#define E_PASS_DSV3_DECODE_B64_L8192_S 9.600731965277779e-06

/* the same, a 4,096-token pass: the compute floor of §5.4 (the lecture at 1:41:33) */
#define E_PASS_DSV3_COMPUTE_L8192_S 2.960885888e-07

/* DeepSeek-V3, NVL72, 32,768 tokens: compute per new token of any pass (§5.4 (Output against input price)) */
#define E_PASS_DSV3_COMPUTE_L32768_S 8.760210218666666e-07

/* DeepSeek-V3, NVL72, batch 2,048, 50,000 tokens, a one-token pass: the memory term of §5.1 (The roofline against context) */
#define E_PASS_DSV3_MEMORY_B2048_L50000_S 3.3344068739149307e-06

/* DeepSeek-V3, NVL72, batch 256, 32,768 tokens: memory per new token of a pass of 1 (the lecture at 1:41:33, §5.4 (Output against input price)) */
#define E_PASS_DSV3_MEMORY_B256_L32768_P1_S 4.274102991319445e-06

/* the same, a pass of 4 */
#define E_PASS_DSV3_MEMORY_B256_L32768_P4_S 1.0685257478298612e-06

/* the same, a pass of 16 */
#define E_PASS_DSV3_MEMORY_B256_L32768_P16_S 2.671314369574653e-07

/* the same, a pass of 64 */
#define E_PASS_DSV3_MEMORY_B256_L32768_P64_S 6.678285923936632e-08

/* DeepSeek-V3, NVL72, batch 1,024, 8,192 tokens: the balanced pass, closed form of §5.4 (Output against input price) */
#define E_PASS_BALANCED_DSV3_B1024_L8192_TOKENS 3.6088042168745043

/* the same without attention's arithmetic (the lecture at 1:41:33) */
#define E_PASS_BALANCED_DSV3_NO_ATTN_B1024_L8192_TOKENS 10.396466735641892

/* output at 5x input: decode MFU over prefill MFU (the lecture at 1:41:33 and its flashcard on output prices) */
#define E_PRICE_RATIO_5_DECODE_MFU 0.2

/* output at 5x input: the balanced pass it implies (the lecture at 1:41:33) */
#define E_PRICE_RATIO_5_PASS_TOKENS 5.0

/* Gemini 3.1 Pro's $12 / $2 (lib/price.c): decode MFU over prefill MFU (§5.4 (Output against input price)) */
#define E_PRICE_RATIO_6_DECODE_MFU 0.16666666666666666

/* equal prices: a balanced decode (§5.4 (Output against input price)) */
#define E_PRICE_RATIO_1_PASS_TOKENS 1.0

/* free drafts, a = 0.8, the 5 s toy: the fastest q (Leviathan et al. 2023, eq. 1; §5.4 (Output against input price)) */
#define E_DRAFT_FREE_A08_Q 4

/* tokens it keeps a step (eq. 1) */
#define E_DRAFT_FREE_A08_TOKENS 3.3616

/* seconds a token (§5.4 (Output against input price)) */
#define E_DRAFT_FREE_A08_S_PER_TOKEN 1.487386958591147

/* over the 5 s plain step (§5.4 (Output against input price)) */
#define E_DRAFT_FREE_A08_SPEEDUP 3.3616

/* drafts at 0.1 of a plain step, a = 0.8, the 20 s toy: the fastest q (Leviathan et al. 2023, eq. 1; §5.4 (Output against input price)) */
#define E_DRAFT_COSTLY_A08_Q 6

/* seconds a token at that q (§5.4 (Output against input price)) */
#define E_DRAFT_COSTLY_A08_S_PER_TOKEN 8.098346317681928

/* over the 20 s plain step (§5.4 (Output against input price)) */
#define E_DRAFT_COSTLY_A08_SPEEDUP 2.4696400000000005

/* a = 1 on the 5 s toy: the fastest q, the smaller on a tie (§5.4 (Output against input price), the contract) */
#define E_DRAFT_ALL_ACCEPTED_Q 4

/* seconds a token at that q (§5.4 (Output against input price)) */
#define E_DRAFT_ALL_ACCEPTED_S_PER_TOKEN 1.0

/* over the 5 s plain step (§5.4 (Output against input price)) */
#define E_DRAFT_ALL_ACCEPTED_SPEEDUP 5.0

/* free drafts, a = 0.8, a batch of 4 at 10 tokens of context on the toy: the fastest q (Leviathan et al. 2023, eq. 1; §5.4 (Output against input price)) */
#define E_DRAFT_BATCH4_L10_A08_Q 6

/* tokens a sequence keeps a step at that q (eq. 1) */
#define E_DRAFT_BATCH4_L10_A08_TOKENS 3.9514240000000003

/* seconds between a sequence's tokens at that q (§5.4 (Output against input price)) */
#define E_DRAFT_BATCH4_L10_A08_S_PER_TOKEN 15.184399345653617

/* over plain decode at that batch and context (§5.4 (Output against input price)) */
#define E_DRAFT_BATCH4_L10_A08_SPEEDUP 3.9514240000000003

/* Rubin, 288 GB at 20 TB/s (the lecture) */
#define E_DRAIN_RUBIN_S 0.0144

/* a 256 GB DIMM on a DDR5-6400 channel (JEDEC) */
#define E_DRAIN_DDR5_6400_S 5.0

/* Micron 9550 PRO (data sheet) */
#define E_DRAIN_MICRON_9550_S 2194.285714285714

/* Seagate Exos X24 (data sheet) */
#define E_DRAIN_EXOS_X24_S 84210.52631578948

/* toy device: 96 B, 12 B/s, $2,700 an hour, a byte held 3 s (§5.5 (Cache hits and memory tiers)) */
#define E_TIER_TOY_HOLD_3S_USD_PER_B 0.0625

/* the same, held 20 s (§5.5 (Cache hits and memory tiers)) */
#define E_TIER_TOY_HOLD_20S_USD_PER_B 0.15625

/* a second toy device: 64 B, 16 B/s, $7,200 an hour, a byte held its 4 s drain time (§5.5 (Cache hits and memory tiers)) */
#define E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B 0.125

/* B200 HBM at $2 an hour, held 10 ms (§5.5 (Cache hits and memory tiers), lib/tier.c) */
#define E_TIER_HBM_10MS_USD_PER_B 6.944444444444444e-17

/* B200 HBM at $2 an hour, held 10 s (§5.5 (Cache hits and memory tiers)) */
#define E_TIER_HBM_10S_USD_PER_B 2.9868578255675026e-14

/* DDR5-6400 RDIMM, held 1 s (§5.5 (Cache hits and memory tiers), lib/tier.c) */
#define E_TIER_DDR_1S_USD_PER_B 5.956911800762733e-16

/* Micron 9550, held 5 minutes (§5.5 (Cache hits and memory tiers), lib/tier.c) */
#define E_TIER_NVME_300S_USD_PER_B 1.0986169507730082e-15

/* Micron 9550, held an hour (§5.5 (Cache hits and memory tiers), lib/tier.c) */
#define E_TIER_NVME_3600S_USD_PER_B 1.8024184348619664e-15

/* Exos X24, held a day (§5.5 (Cache hits and memory tiers), lib/tier.c) */
#define E_TIER_HDD_86400S_USD_PER_B 7.665982203969884e-15

/* index of the cheapest of HBM, DDR, NVMe, HDD (lib/tier.c order) for this hold (§5.5 (Cache hits and memory tiers)) */
#define E_CHEAPEST_TIER_10MS 0

/* index of the cheapest of HBM, DDR, NVMe, HDD (lib/tier.c order) for this hold (§5.5 (Cache hits and memory tiers)) */
#define E_CHEAPEST_TIER_1S 1

/* index of the cheapest of HBM, DDR, NVMe, HDD (lib/tier.c order) for this hold (§5.5 (Cache hits and memory tiers)) */
#define E_CHEAPEST_TIER_300S 2

/* index of the cheapest of HBM, DDR, NVMe, HDD (lib/tier.c order) for this hold (§5.5 (Cache hits and memory tiers)) */
#define E_CHEAPEST_TIER_3600S 2

/* index of the cheapest of HBM, DDR, NVMe, HDD (lib/tier.c order) for this hold (§5.5 (Cache hits and memory tiers)) */
#define E_CHEAPEST_TIER_86400S 3

/* recomputing one token of DeepSeek-V3 at $2 a chip-hour (the lecture at 1:48:58, §5.5 (Cache hits and memory tiers)) */
#define E_REMAT_DSV3_1_TOKEN_USD_PER_B 1.1700566686905485e-13

/* recomputing 131,072 tokens of DeepSeek-V3 at $2 a chip-hour (§5.5 (Cache hits and memory tiers)) */
#define E_REMAT_DSV3_131072_TOKENS_USD_PER_B 1.877564284153006e-12

/* one request, Claude Opus 4.6 (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_ONE_REQUEST_USD 5.0

/* three requests 4 minutes apart, Claude Opus 4.6 (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_4_MIN_APART_USD 7.25

/* three requests half an hour apart (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_HALF_HOUR_3_USD 11.0

/* two requests half an hour apart (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_HALF_HOUR_2_USD 1e+01

/* two requests 300 s apart (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_300S_APART_USD 6.75

/* two requests 300.5 s apart (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_300_5S_APART_USD 1e+01

/* four requests 4 minutes apart (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_EVERY_4_MIN_FOR_12_USD 7.75

/* two pairs a minute apart, 2,000 s between them (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_PAIR_PAUSE_PAIR_USD 11.5

/* two requests 100 s apart, $0.90 in, $1.40 write, $0.40 hit (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_TIE_USD 1.8

/* the same with the write $1.8e-8 cheaper (§5.8 (A conversation's cache bill)) */
#define E_SCHEDULE_PAST_TIE_USD 1.799999982

/* three requests on GPT-5's list, $1.25 in, no writes (lib/price.c) */
#define E_SCHEDULE_GPT5_3_USD 3.75

/* toy, 1,000 B of HBM, step and price free (§5.6 (Why context stopped near 200k)) */
#define E_REACH_TOY_HBM_ONLY_TOKENS 9e+02

/* its batch (contract: the cheapest, the smallest on a tie) */
#define E_REACH_TOY_HBM_ONLY_BATCH 1.0

/* its step */
#define E_REACH_TOY_HBM_ONLY_STEP_S 1e+01

/* its cost per million generated tokens */
#define E_REACH_TOY_HBM_ONLY_USD_PER_MTOK 1e+07

/* toy, a price of 2e6 USD/Mtok (§5.6 (Why context stopped near 200k)) */
#define E_REACH_TOY_PRICE_TOKENS 1.8e+02

/* its batch (contract: the cheapest, the smallest on a tie) */
#define E_REACH_TOY_PRICE_BATCH 5.0

/* its step */
#define E_REACH_TOY_PRICE_STEP_S 1e+01

/* its cost per million generated tokens */
#define E_REACH_TOY_PRICE_USD_PER_MTOK 2e+06

/* toy, a step of 4 s (§5.6 (Why context stopped near 200k)) */
#define E_REACH_TOY_STEP_TOKENS 3e+02

/* its batch (contract: the cheapest, the smallest on a tie) */
#define E_REACH_TOY_STEP_BATCH 1.0

/* its step */
#define E_REACH_TOY_STEP_STEP_S 4.0

/* its cost per million generated tokens */
#define E_REACH_TOY_STEP_USD_PER_MTOK 4e+06

/* toy, a window of 20 tokens (§5.6 (Why context stopped near 200k)) */
#define E_REACH_TOY_WINDOW_20_TOKENS 2e+01

/* its batch (contract: the cheapest, the smallest on a tie) */
#define E_REACH_TOY_WINDOW_20_BATCH 2.0

/* its step */
#define E_REACH_TOY_WINDOW_20_STEP_S 2.0

/* its cost per million generated tokens */
#define E_REACH_TOY_WINDOW_20_USD_PER_MTOK 1e+06

/* toy, a window of 50 tokens (§5.6 (Why context stopped near 200k)) */
#define E_REACH_TOY_WINDOW_50_TOKENS 5e+01

/* its batch (contract: the cheapest, the smallest on a tie) */
#define E_REACH_TOY_WINDOW_50_BATCH 2.0

/* its step */
#define E_REACH_TOY_WINDOW_50_STEP_S 2.0

/* its cost per million generated tokens */
#define E_REACH_TOY_WINDOW_50_USD_PER_MTOK 1e+06

/* toy, 101 B of HBM (§5.6 (Why context stopped near 200k)) */
#define E_REACH_TOY_HBM_101_TOKENS 1.0

/* its batch (contract: the cheapest, the smallest on a tie) */
#define E_REACH_TOY_HBM_101_BATCH 1.0

/* its step */
#define E_REACH_TOY_HBM_101_STEP_S 1.01

/* its cost per million generated tokens */
#define E_REACH_TOY_HBM_101_USD_PER_MTOK 1.01e+06

/* DeepSeek-V3, GB200 NVL72, fp4/fp8, $2 a chip-hour, 50 ms, DeepSeek's $1.10: the batch at its 131,072-token window (§5.6 (Why context stopped near 200k)) */
#define E_REACH_DSV3_BATCH 2835.0

/* its step (§5.1 (The roofline against context)) */
#define E_REACH_DSV3_STEP_S 0.023249401597777778

/* its cost per million generated tokens (§5.1 (The roofline against context)) */
#define E_REACH_DSV3_USD_PER_MTOK 0.3280338849774642

/* toy A (public test), one tier of $25 in and $100 out: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_A_FLAT_TOKENS 42

/* toy A, the first token generated after a one-token prompt, USD per million tokens at the toy's rent: §5.1 (The roofline against context) */
#define E_WINDOW_TOY_A_1_TOKEN_USD_PER_MTOK 18.0

/* toy B (public test), one tier of $100 in and $400 out, met exactly at the window: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_B_FLAT_TOKENS 68

/* toy A, $25 in / $100 out up to 50 tokens, $50 / $200 above: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_A_GAP_TOKENS 42

/* toy A, $25 in / $100 out up to 40 tokens, $50 / $200 above: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_A_LONG_TOKENS 92

/* toy A, one tier of no input price and $100 out: the token bills at its output price alone (contract); closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_A_NO_INPUT_TOKENS 42

/* toy A, $25 in / $100 out up to 40 tokens, no input price / $200 out above: the token bills at its output price alone (contract); closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_A_LONG_NO_INPUT_TOKENS 92

/* toy A, one tier of $25 in and $2,000,000,000,001 out, the contract's relative 1e-9 included: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_TOY_A_TRILLION_TOKENS 1000000000992LL

/* DeepSeek-V3, GB200 NVL72, fp4/fp8, batch 512, $2 a chip-hour, DeepSeek's own list: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_DSV3_B512_TOKENS 432170

/* the model of the Gemini figure, NVL72, batch 65,536, $2 a chip-hour, Gemini 3.1 Pro's list, a window of a million tokens: closed form of §5.1 (The roofline against context) and §5.7 (Price lists as data) */
#define E_WINDOW_GEMINI_FIGURE_TOKENS 1000000

#endif
