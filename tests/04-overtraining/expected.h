/*
 * expected.h -- the expected values of chapter 04-overtraining's public tests, each
 * with its source. Generated from their derivations (closed forms, papers), which
 * only the instructor's copy of Chalk holds: the derivation is the exercise.
 */
#ifndef CHALK_EXPECTED_H
#define CHALK_EXPECTED_H

/* compute-optimal N at Gopher's 5.76e23 FLOPs, printed fit (Hoffmann et al. 2022, eq. 4; §4.3 (The compute-optimal frontier)) */
#define E_FRONTIER_GOPHER_PARAMS_HOFFMANN 32189859151.368168

/* its tokens, on the same budget (Hoffmann et al. 2022, eq. 4) */
#define E_FRONTIER_GOPHER_TOKENS_HOFFMANN 2982305686662.804

/* the model's exponent in C, unrounded Hoffmann fit (Hoffmann et al. 2022, eq. 4; Table 2 prints 0.46) */
#define E_FRONTIER_PARAMS_EXPONENT_UNROUNDED 0.45652591432554535

/* the data's exponent in C, unrounded Hoffmann fit (Hoffmann et al. 2022, eq. 4; Table 2 prints 0.54) */
#define E_FRONTIER_TOKENS_EXPONENT_UNROUNDED 0.5434740856744547

/* parameter term over data term on the frontier, unrounded Hoffmann fit (optimality condition of §4.3 (The compute-optimal frontier)) */
#define E_FRONTIER_TERM_RATIO_UNROUNDED 0.8400141356491614

/* the model's exponent in C, Besiroglu et al. 2024 Table 1's fit (its a, 0.5126) */
#define E_FRONTIER_PARAMS_EXPONENT_BESIROGLU 0.5126121076233184

/* the data's exponent in C, Besiroglu et al. 2024 Table 1's fit */
#define E_FRONTIER_TOKENS_EXPONENT_BESIROGLU 0.4873878923766816

/* compute-optimal tokens of a 1e300-parameter model, Besiroglu's fit (optimality condition of §4.3 (The compute-optimal frontier)) */
#define E_FRONTIER_TOKENS_FOR_1E300_PARAMS_BESIROGLU 1.0883756546119159e+287

/* tokens an 8B model needs for 2.1 nats, Besiroglu's fit (the law solved for D, §4.4 (Holding quality fixed)) */
#define E_ISO_TOKENS_8B_2_1_NATS_BESIROGLU 500753985925.67834

/* the least loss of a 1B model on unlimited data, printed fit (§4.4 (Holding quality fixed)) */
#define E_ISO_FLOOR_1B_HOFFMANN 2.043959602958151

/* tokens a 1-parameter model of the all-ones fit needs for 2.5 nats (the law solved for D, §4.4 (Holding quality fixed)) */
#define E_ISO_TOKENS_UNIT_FIT_N1_2_5_NATS 2.0

/* the loss of the compute-optimal model of 1e24 FLOPs, unrounded Hoffmann fit (Hoffmann et al. 2022, eq. 4 then eq. 2) */
#define E_ISO_FRONTIER_LOSS_1E24_FLOPS_UNROUNDED 1.899987951683964

/* that model's parameters (Hoffmann et al. 2022, eq. 4) */
#define E_ISO_FRONTIER_PARAMS_1E24_FLOPS_UNROUNDED 51919989957.114746

/* its tokens, 1e24 / (6 N) (Hoffmann et al. 2022, eq. 4) */
#define E_ISO_FRONTIER_TOKENS_1E24_FLOPS_UNROUNDED 3210067390312.117

/* the smallest model that can reach 2 nats, printed fit (§4.4 (Holding quality fixed)) */
#define E_ISO_MIN_PARAMS_2_NATS_HOFFMANN 1477026377.712217

/* parameter term of the compute-optimal model for 2 nats, Besiroglu's fit (closed form of §4.4 (Holding quality fixed)) */
#define E_ISO_PARAMS_TERM_2_NATS_BESIROGLU 0.09370549327354263

/* its data term (closed form of §4.4 (Holding quality fixed)) */
#define E_ISO_TOKENS_TERM_2_NATS_BESIROGLU 0.08909450672645743

/* falling over rising term at the minimum of 3 u^-0.35 + 5 u^1.15 (§4.6 (The equal-cost heuristic), by calculus on the example) */
#define E_HEURISTIC_TERM_RATIO_0_35_1_15 3.2857142857142843

/* the same for 2 u^-1.45 + 7 u^0.55, the falling term the steeper (§4.6 (The equal-cost heuristic), by calculus on the example) */
#define E_HEURISTIC_TERM_RATIO_1_45_0_55 0.37931034482758624

/* cost at equal terms over least cost, 1/u + u^2 (§4.6 (The equal-cost heuristic)) */
#define E_HEURISTIC_PENALTY_1_2 1.0582673679787997

/* the same for u^-0.5 + u^3 (§4.6 (The equal-cost heuristic)) */
#define E_HEURISTIC_PENALTY_0_5_3 1.3271461199290453

/* tokens a 20B model needs for 1.95 nats, printed fit (§4.4 (Holding quality fixed)) */
#define E_LIFETIME_TOKENS_20B_1_95_NATS_HOFFMANN 2969796861001.1445

/* least-lifetime-FLOPs N for 1.86 nats and the lecture's 2.6e14 served tokens, unrounded Hoffmann fit (the minimiser of the lifetime cost of §4.9 (Beyond the lecture: the inference-optimal model), to about 1e-15) */
#define E_INFERENCE_OPTIMAL_PARAMS_1_86_NATS_2_6E14_UNROUNDED 28512942295.78753

/* the same for 1.95 nats and 1e30 served tokens, Besiroglu's fit (the same minimiser, to about 1e-15) */
#define E_INFERENCE_OPTIMAL_PARAMS_1_95_NATS_1E30_BESIROGLU 17194016674.24879

/* the compute-optimal N at Gopher's 5.76e23 FLOPs, unrounded Hoffmann fit (Hoffmann et al. 2022, eq. 4) */
#define E_BUDGET_GOPHER_NO_DEMAND_PARAMS_UNROUNDED 40360938387.23629

/* its tokens (Hoffmann et al. 2022, eq. 4) */
#define E_BUDGET_GOPHER_NO_DEMAND_TOKENS_UNROUNDED 2378537363996.447

/* its loss (Hoffmann et al. 2022, eq. 2) */
#define E_BUDGET_GOPHER_NO_DEMAND_LOSS_UNROUNDED 1.9184120459968501

/* least-loss N for a lifetime of 1e25 FLOPs serving 1e13 tokens, printed fit (the minimiser of the loss of §4.10 (The best model a lifetime budget buys), to about 1e-15) */
#define E_BUDGET_PARAMS_1E25_FLOPS_1E13_HOFFMANN 81077248066.62592

/* its loss (§4.10 (The best model a lifetime budget buys)) */
#define E_BUDGET_LOSS_1E25_FLOPS_1E13_HOFFMANN 1.8502199434584967

#endif
