/*
 * test_moe.c -- Chapter 2 tests: an MoE layer laid out across a rack.
 *
 * Built against exercises/02-moe/moe.c (yours) and, in the instructor's copy,
 * against the reference solution. Each test states one fact; the comment
 * above it names where the expected value comes from. Expected values come from
 * published inputs, never from output: the one-star exercises' from the formula the
 * book states, the two- and three-star exercises' from expected.h (E_ names), whose
 * derivations, each with its source, are the instructor's. The routing simulation
 * is random, so its tests hold it to the closed forms of §2.7 (Routing is random)
 * within five standard errors.
 *
 * Published inputs used below:
 *   DeepSeek-V3   d_model 7,168; 256 routed experts + 1 shared, 8 per token, expert
 *                 width 2,048; 61 layers, the first 3 dense, so 58 MoE layers
 *                 (inference/configs/config_671B.json); 671e9 total, 37e9 active
 *                 (DeepSeek-V3 README)
 *   Mixtral 8x7B  d_model 4,096; 8 experts, 2 per token, width 14,336; 32 layers
 *                 (config.json); 46.7e9 total, 12.9e9 active (Mistral AI)
 *   DeepSeek-V2   160 routed experts (DeepSeek-V2 report, arXiv:2405.04434)
 *   Qwen1.5-MoE   60 routed experts (Qwen1.5-MoE-A2.7B config.json)
 *   GB200 NVL72   72 GPUs; per GPU 10e15 dense fp4 FLOP/s, 8e12 B/s HBM,
 *                 186e9 B HBM, NVLink 5 900e9 B/s each way, one 400 Gb/s NIC
 *                 (50e9 B/s) (NVIDIA; scaling book gpus.md)
 *   H100 / DGX    8 GPUs, 80e9 B HBM each (scaling book gpus.md)
 *   TPU v5e       1.97e14 bf16 FLOP/s, 8.2e11 B/s (scaling book tpus.md)
 *   SplitMix64    first outputs from state 0 (Vigna, prng.di.unimi.it/splitmix64.c)
 *
 * Edge cases use deployments whose numbers are powers of two (exact in binary), so
 * that a tie the contract states is a tie in doubles too. Section marks such as
 * §2.4 (Three roofs) are the book's (chapter 2 of chalk.pdf); "the lecture at 33:37" is
 * a time in the lecture's recording (Reiner Pope, Dwarkesh Podcast, 2026).
 */
#include "../test_util.h"

#include "expected.h"
#include "moe.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* Passes when lo <= actual <= hi; on failure prints what assert_close prints,
 * with the middle of the interval as the expected value. */
#define assert_between(actual, lo, hi, unit)                                          \
    assert_close((actual), ((lo) + (hi)) / 2.0, ((hi) - (lo)) / ((lo) + (hi)), (unit))

/* DeepSeek-V3 in fp4 on the 64 GPUs of a GB200 NVL72 that hold its 256 experts, with
 * activations crossing NVLink in fp4 too. */
static moe_deploy deepseek_on_nvl72(void)
{
    moe_deploy d = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 35136.0, /* MLA latent in fp8: 61 x (512 + 64) x 1 */
        .d_model = 7168, .moe_layers = 58, .experts = 256, .top_k = 8,
        .act_bytes = 0.5, .gpus = 64, .racks = 1,
        .flops_per_s = 10e15, .hbm_bytes_per_s = 8e12,
        .scaleup_bytes_per_s = 900e9, .scaleout_bytes_per_s = 50e9,
    };
    return d;
}

/* ---- 2.1 expert_params ------------------------------------------------------- */

/* DeepSeek-V3 config: a SwiGLU expert is gate, up and down, 3 x 7,168 x 2,048. */
static void a_swiglu_expert_is_three_matrices(void **state)
{
    (void)state;
    assert_close(moe_expert_params(7168, 2048), 3.0 * 7168 * 2048, TIGHT, "params");
    assert_close(moe_expert_params(7168, 2048), 44040192.0, TIGHT, "params");
}

/* DeepSeek-V3 config: a layer holds 256 + 1 experts and a 7,168 x 256 router; a token
 * multiplies through 8 + 1 experts and the router. */
static void a_layer_holds_every_expert_and_a_token_uses_k_plus_shared(void **state)
{
    (void)state;
    moe_shape s = {.d_model = 7168, .d_ff = 2048, .experts = 256, .experts_shared = 1,
                   .top_k = 8};
    moe_layer_count c = moe_layer_params(&s);
    double expert = 3.0 * 7168 * 2048, router = 7168.0 * 256;
    assert_close(c.total, 257 * expert + router, TIGHT, "params");
    assert_close(c.active, 9 * expert + router, TIGHT, "params");
    assert_close(c.router, router, TIGHT, "params");
}

/* Published totals: the experts a token skips are the whole gap between total and
 * active. Mixtral: 46.7e9 - 12.9e9 = 33.8e9 = 32 layers x 6 idle experts; DeepSeek-V3:
 * 671e9 - 37e9 = 634e9 = 58 layers x 248 idle experts (to the published rounding). */
static void total_minus_active_is_the_experts_a_token_skips(void **state)
{
    (void)state;
    moe_shape mixtral = {.d_model = 4096, .d_ff = 14336, .experts = 8, .top_k = 2};
    moe_layer_count m = moe_layer_params(&mixtral);
    assert_close(32 * (m.total - m.active), 46.7e9 - 12.9e9, 0.005, "params");
    moe_shape deepseek = {.d_model = 7168, .d_ff = 2048, .experts = 256,
                          .experts_shared = 1, .top_k = 8};
    moe_layer_count d = moe_layer_params(&deepseek);
    assert_close(58 * (d.total - d.active), 671e9 - 37e9, 0.005, "params");
}

/* ---- 2.2 expert_placement ---------------------------------------------------- */

/* The lecture at 33:37: DeepSeek's 256 experts on a 72-GPU rack use 64 GPUs, 4 experts each,
 * and leave 8 GPUs without experts. */
static void deepseek_on_nvl72_uses_64_gpus_with_4_experts_each(void **state)
{
    (void)state;
    moe_placement p = moe_place_experts(256, 72);
    assert_int_equal(p.gpus_used, 64);
    assert_int_equal(p.experts_per_gpu, 4);
    assert_int_equal(p.gpus_idle, 8);
}

/* The largest divisor of E at most the domain, which need not be a power of two:
 * DeepSeek-V2's 160 experts use 40 of 72 GPUs (4 each); Qwen1.5-MoE's 60 use 60. */
static void gpus_used_is_the_largest_divisor_not_a_power_of_two(void **state)
{
    (void)state;
    moe_placement v2 = moe_place_experts(160, 72);
    assert_int_equal(v2.gpus_used, 40);
    assert_int_equal(v2.experts_per_gpu, 4);
    moe_placement qwen = moe_place_experts(60, 72);
    assert_int_equal(qwen.gpus_used, 60);
    assert_int_equal(qwen.experts_per_gpu, 1);
    assert_int_equal(qwen.gpus_idle, 12);
    moe_placement tray = moe_place_experts(256, 8); /* an 8-GPU Hopper tray */
    assert_int_equal(tray.gpus_used, 8);
    assert_int_equal(tray.experts_per_gpu, 32);
    assert_int_equal(tray.gpus_idle, 0);
}

/* ceil(256 / 72) = 4: spreading over all 72 GPUs leaves some with 4 experts, so the
 * busiest GPU is no lighter than with 64; ceil(160 / 72) = 3 would be. */
static void using_all_72_gpus_does_not_lighten_the_busiest(void **state)
{
    (void)state;
    moe_placement p = moe_place_experts(256, 72);
    assert_int_equal(p.busiest_if_all, 4);
    assert_int_equal(p.busiest_if_all, p.experts_per_gpu);
    assert_int_equal(moe_place_experts(160, 72).busiest_if_all, 3);
}

/* DeepSeek-V3 on a GB200 NVL72, fp4: 4 experts on each of 64 GPUs, in 58 MoE layers of
 * 3 x 7,168 x 2,048 parameters at half a byte: 4 x 58 x 44,040,192 x 0.5 bytes. */
static void a_gpu_holds_its_experts_in_every_layer(void **state)
{
    (void)state;
    moe_placement p = moe_place_experts(256, 72);
    double bytes = moe_expert_bytes_per_gpu(&p, 58, 7168, 2048, 0.5);
    assert_close(bytes, 4.0 * 58 * 3.0 * 7168 * 2048 * 0.5, TIGHT, "bytes");
    assert_close(bytes, 5.108662272e9, TIGHT, "bytes");
}

/* Fewer experts than GPUs: one expert a GPU, the rest idle; as many as GPUs: all
 * used; a prime count above the domain (257) fits evenly on 1 GPU only, and
 * spreading it over all 72 would leave ceil(257 / 72) = 4 on the busiest. */
static void fewer_experts_than_gpus_put_one_on_each(void **state)
{
    (void)state;
    moe_placement mixtral = moe_place_experts(8, 72);
    assert_int_equal(mixtral.gpus_used, 8);
    assert_int_equal(mixtral.experts_per_gpu, 1);
    assert_int_equal(mixtral.gpus_idle, 64);
    assert_int_equal(mixtral.busiest_if_all, 1);
    moe_placement full = moe_place_experts(72, 72);
    assert_int_equal(full.gpus_used, 72);
    assert_int_equal(full.gpus_idle, 0);
    assert_int_equal(full.busiest_if_all, 1);
    moe_placement prime = moe_place_experts(257, 72);
    assert_int_equal(prime.gpus_used, 1);
    assert_int_equal(prime.experts_per_gpu, 257);
    assert_int_equal(prime.busiest_if_all, 4);
}


/* ---- 2.3 a2a_bytes ----------------------------------------------------------- */

/* The lecture at 33:37: out to k experts and back, k x d_model x bytes each way:
 * 2 x 8 x 7,168 x 1 = 114,688 bytes per token per layer in fp8. */
static void a_token_sends_k_copies_out_and_gets_k_back(void **state)
{
    (void)state;
    assert_close(moe_a2a_bytes_per_token(7168, 8, 1.0), 2.0 * 8 * 7168 * 1.0, TIGHT, "B");
    assert_close(moe_a2a_bytes_per_token(7168, 8, 1.0), 114688.0, TIGHT, "B");
    assert_close(moe_a2a_bytes_per_token(4096, 2, 2.0), 2.0 * 2 * 4096 * 2.0, TIGHT, "B");
}

/* With experts spread evenly over n GPUs a copy stays home with chance 1/n. */
static void the_share_leaving_the_gpu_is_one_minus_one_over_n(void **state)
{
    (void)state;
    assert_close(moe_a2a_remote_fraction(64), 63.0 / 64.0, TIGHT, "");
    assert_close(moe_a2a_remote_fraction(8), 7.0 / 8.0, TIGHT, "");
    assert_close(moe_a2a_remote_fraction(1), 0.0, TIGHT, "");
}

/* ---- 2.4 three_roofs --------------------------------------------------------- */

/* §2.4 (Three roofs): DeepSeek-V3 on the NVL72 above, 2,048 sequences of 4,096 tokens:
 * its compute roof, weight fetch, KV fetch, and memory roof (the two fetches). */
static void deepseek_on_nvl72_compute_and_memory_roofs(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step s = moe_step_at(&d, 2048, 4096);
    assert_close(s.compute_s, E_V3_COMPUTE_S_B2048, TIGHT, "s");
    assert_close(s.weights_s, E_V3_WEIGHTS_S, TIGHT, "s");
    assert_close(s.kv_s, E_V3_KV_S_B2048_L4096, TIGHT, "s");
    assert_close(s.memory_s, s.weights_s + s.kv_s, TIGHT, "s");
}

/* The lecture at 33:37 and §2.3 (The all-to-all): the same deployment's network roof at 2,048
 * sequences with fp4 activations on the wire, then bf16; and the dispatch of one
 * layer alone in bf16. */
static void deepseek_on_nvl72_network_roof(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    assert_close(moe_step_at(&d, 2048, 0).a2a_s, E_V3_A2A_S_B2048_FP4, TIGHT, "s");
    d.act_bytes = 2.0; /* bf16 on the wire */
    assert_close(moe_step_at(&d, 2048, 0).a2a_s, E_V3_A2A_S_B2048_BF16, TIGHT, "s");
    assert_close(moe_step_at(&d, 2048, 0).a2a_dispatch_s_per_layer,
                 E_V3_DISPATCH_S_PER_LAYER_B2048_BF16, TIGHT, "s");
}

/* moe.h: the bytes a step reads from HBM, all GPUs together, at 2,048 sequences of
 * 4,096 tokens. */
static void a_step_reads_what_the_gpus_hbm_holds(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step s = moe_step_at(&d, 2048, 4096);
    assert_close(s.hbm_bytes, E_V3_HBM_BYTES_B2048_L4096, TIGHT, "bytes");
}

/* moe.h: the step is the largest roof, and each roof is reached: memory at 64
 * sequences, compute at 20,000, the network at 20,000 with bf16 activations. */
static void step_is_the_largest_of_three_roofs(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step small = moe_step_at(&d, 64, 0);
    assert_roof(small.bound, MOE_BOUND_MEMORY);
    assert_close(small.step_s, E_V3_STEP_S_B64, TIGHT, "s");
    moe_step big = moe_step_at(&d, 20000, 0);
    assert_roof(big.bound, MOE_BOUND_COMPUTE);
    assert_close(big.step_s, E_V3_STEP_S_B20000_FP4, TIGHT, "s");
    d.act_bytes = 2.0;
    moe_step net = moe_step_at(&d, 20000, 0);
    assert_roof(net.bound, MOE_BOUND_NETWORK);
    assert_close(net.step_s, E_V3_STEP_S_B20000_BF16, TIGHT, "s");
    assert_true(net.step_s < net.compute_s + net.memory_s + net.a2a_s);
}

/* moe.h: memory_s is weights_s + kv_s. At 8,000 sequences of 2,048 tokens compute
 * lies between the weight fetch and the memory roof: the step is memory-bound. */
static void kv_fetch_counts_against_the_memory_roof(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step s = moe_step_at(&d, 8000, 2048);
    assert_close(s.memory_s, E_V3_MEMORY_S_B8000_L2048, TIGHT, "s");
    assert_true(s.compute_s > s.weights_s && s.compute_s < s.memory_s);
    assert_roof(s.bound, MOE_BOUND_MEMORY);
    assert_close(s.step_s, s.memory_s, TIGHT, "s");
}

/* §2.4 (Three roofs): network over compute with fp4 activations, then fp8, and the
 * same ratio at 100 and at 50,000 sequences. */
static void network_over_compute_does_not_depend_on_the_batch(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    assert_close(moe_network_over_compute(&d), E_V3_NET_OVER_COMPUTE_FP4, TIGHT, "x");
    moe_step a = moe_step_at(&d, 100, 0), b = moe_step_at(&d, 50000, 0);
    assert_close(a.a2a_s / a.compute_s, b.a2a_s / b.compute_s, TIGHT, "x");
    d.act_bytes = 1.0;
    assert_close(moe_network_over_compute(&d), E_V3_NET_OVER_COMPUTE_FP8, TIGHT, "x");
}

/* §2.4 (Three roofs): the knee of DeepSeek-V3 on the NVL72 with fp4 activations, then
 * bf16 at no context and at 1,024 tokens, and the roof that binds past it. */
static void deepseek_on_nvl72_knee_in_fp4_and_bf16(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_knee k = moe_knee_batch(&d, 0);
    assert_true(k.exists);
    assert_int_equal(k.after, MOE_BOUND_COMPUTE);
    assert_close(k.batch, E_V3_KNEE_FP4, TIGHT, "sequences");
    d.act_bytes = 2.0;
    moe_knee n = moe_knee_batch(&d, 0);
    assert_true(n.exists);
    assert_int_equal(n.after, MOE_BOUND_NETWORK);
    assert_close(n.batch, E_V3_KNEE_BF16, TIGHT, "sequences");
    assert_close(moe_knee_batch(&d, 1024).batch, E_V3_KNEE_BF16_L1024, TIGHT, "sequences");
}

/* moe.h's no-knee rule at DeepSeek-V3's boundary context on the NVL72 (§2.4 (Three
 * roofs)): a knee 1% below it, none 1% above, where memory binds at every batch. */
static void no_knee_when_the_kv_fetch_outgrows_both_roofs(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    double ctx = E_V3_NO_KNEE_CONTEXT;
    assert_true(moe_knee_batch(&d, 0.99 * ctx).exists);
    assert_false(moe_knee_batch(&d, 1.01 * ctx).exists);
    assert_int_equal(moe_step_at(&d, 1e6, 1.01 * ctx).bound, MOE_BOUND_MEMORY);
}

/* A deployment whose every number is a power of two, so that ties are exact. */
static moe_deploy exact_toy(void)
{
    moe_deploy d = {
        .params_total = 4, .params_active = 1, .bytes_per_param = 1,
        .kv_bytes_per_token = 1, .d_model = 1, .moe_layers = 1, .experts = 2,
        .top_k = 1, .act_bytes = 0.5, .gpus = 1, .racks = 1, .flops_per_s = 2,
        .hbm_bytes_per_s = 1, .scaleup_bytes_per_s = 1, .scaleout_bytes_per_s = 1,
    };
    return d;
}

static const char *bound_name(int b)
{
    return moe_bound_name((moe_bound)b);
}

/* moe.h: the three names, and "?" for a value that is not a roof. */
static void bound_names_are_the_three_roofs(void **state)
{
    (void)state;
    assert_string_equal(moe_bound_name(MOE_BOUND_COMPUTE), "compute");
    assert_string_equal(moe_bound_name(MOE_BOUND_MEMORY), "memory");
    assert_string_equal(moe_bound_name(MOE_BOUND_NETWORK), "network");
    assert_string_equal(moe_bound_name((moe_bound)7), "?");
}

/* moe.h's tie rules on the toy with no context: at the batch where the three roofs
 * are equal the bound is COMPUTE (the network must be strictly larger); with twice
 * the activation bytes the network is strictly larger: NETWORK. At half that batch
 * compute is below memory: MEMORY. */
static void ties_between_roofs_go_to_compute(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    moe_step tie = moe_step_at(&d, E_TOY_TIE_BATCH, 0);
    assert_close(tie.compute_s, E_TOY_ROOF_S_AT_TIE, TIGHT, "s");
    assert_close(tie.memory_s, E_TOY_ROOF_S_AT_TIE, TIGHT, "s");
    assert_close(tie.a2a_s, E_TOY_ROOF_S_AT_TIE, TIGHT, "s");
    assert_named(tie.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(tie.step_s, E_TOY_ROOF_S_AT_TIE, TIGHT, "s");
    assert_named(moe_step_at(&d, E_TOY_TIE_BATCH / 2, 0).bound, MOE_BOUND_MEMORY, bound_name);
    d.act_bytes = 1.0;
    moe_step net = moe_step_at(&d, E_TOY_TIE_BATCH, 0);
    assert_named(net.bound, MOE_BOUND_NETWORK, bound_name);
    assert_close(net.step_s, E_TOY_NETWORK_S_AT_TIE_ACT1, TIGHT, "s");
}

/* moe.h: a step of no sequences reads the weights and nothing else: MEMORY. */
static void an_empty_batch_only_reads_the_weights(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    moe_step s = moe_step_at(&d, 0, 1000);
    assert_close(s.compute_s, 0.0, TIGHT, "s");
    assert_close(s.kv_s, 0.0, TIGHT, "s");
    assert_close(s.a2a_s, 0.0, TIGHT, "s");
    assert_close(s.step_s, E_TOY_WEIGHTS_S, TIGHT, "s");
    assert_named(s.bound, MOE_BOUND_MEMORY, bound_name);
}

/* moe.h's knee ties on the toy, whose compute and network roofs grow equally fast (a
 * tie that counts as COMPUTE past the knee): its knee at no context and at half a
 * token; at the context where the KV fetch grows exactly as fast, no knee (a tie is
 * no knee), batch 0, and memory binds at every batch. */
static void knee_ties_go_to_compute_and_to_no_knee(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    assert_close(moe_network_over_compute(&d), E_TOY_NET_OVER_COMPUTE, TIGHT, "x");
    moe_knee k = moe_knee_batch(&d, 0);
    assert_true(k.exists);
    assert_named(k.after, MOE_BOUND_COMPUTE, bound_name);
    assert_close(k.batch, E_TOY_KNEE_L0, TIGHT, "sequences");
    assert_close(moe_knee_batch(&d, 0.5).batch, E_TOY_KNEE_L05, TIGHT, "sequences");
    moe_knee none = moe_knee_batch(&d, E_TOY_NO_KNEE_CONTEXT);
    assert_false(none.exists);
    assert_close(none.batch, 0.0, TIGHT, "sequences");
    assert_named(moe_step_at(&d, 1e6, E_TOY_NO_KNEE_CONTEXT).bound, MOE_BOUND_MEMORY,
                 bound_name);
}

/* A model with no MoE layer sends nothing: network over compute is 0, and at 100
 * sequences the toy is compute-bound. */
static void no_moe_layer_means_no_network(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    d.moe_layers = 0;
    assert_close(moe_network_over_compute(&d), 0.0, TIGHT, "x");
    moe_step s = moe_step_at(&d, 100, 0);
    assert_close(s.a2a_s, 0.0, TIGHT, "s");
    assert_close(s.a2a_dispatch_s_per_layer, 0.0, TIGHT, "s");
    assert_close(s.compute_s, E_TOY_COMPUTE_S_B100, TIGHT, "s");
    assert_named(s.bound, MOE_BOUND_COMPUTE, bound_name);
}


/* ---- 2.5 two_racks ----------------------------------------------------------- */

/* §2.5 (Two racks): three racks over the lecture's scale-out link, 8x slower than
 * NVLink (the lecture at 36:47): the share of copies that cross, and the slowdown
 * overlapped and serial. */
static void three_racks_over_the_lectures_8x_slower_link(void **state)
{
    (void)state;
    moe_racks r = moe_span_racks(3, 800e9, 100e9);
    assert_close(r.scaleup_over_scaleout, 8.0, TIGHT, "x");
    assert_close(r.cross_fraction, E_RACKS3_CROSS, TIGHT, "");
    assert_close(r.slowdown_overlap, E_RACKS3_LECTURE_OVERLAP, TIGHT, "x");
    assert_close(r.slowdown_serial, E_RACKS3_LECTURE_SERIAL, TIGHT, "x");
}

/* §2.5 (Two racks): the GB200 presets (NVLink 900e9 B/s, a 50e9 B/s NIC) on four
 * racks. */
static void gb200_nics_over_four_racks(void **state)
{
    (void)state;
    moe_racks four = moe_span_racks(4, 900e9, 50e9);
    assert_close(four.cross_fraction, E_RACKS4_CROSS, TIGHT, "");
    assert_close(four.slowdown_overlap, E_RACKS4_GB200_OVERLAP, TIGHT, "x");
    assert_close(four.slowdown_serial, E_RACKS4_GB200_SERIAL, TIGHT, "x");
}

/* moe.h: one rack crosses nothing; §2.5 (Two racks): two racks joined by a scale-out
 * link as fast as NVLink. */
static void one_rack_or_an_equal_link_costs_nothing_extra(void **state)
{
    (void)state;
    moe_racks one = moe_span_racks(1, 900e9, 50e9);
    assert_close(one.cross_fraction, 0.0, TIGHT, "");
    assert_close(one.slowdown_overlap, 1.0, TIGHT, "x");
    assert_close(one.slowdown_serial, 1.0, TIGHT, "x");
    moe_racks equal = moe_span_racks(2, 900e9, 900e9);
    assert_close(equal.slowdown_overlap, E_RACKS2_EQUAL_OVERLAP, TIGHT, "x");
    assert_close(equal.slowdown_serial, E_RACKS2_EQUAL_SERIAL, TIGHT, "x");
}

/* §2.5 (Two racks), moe.h: the slowest scale-out link at which three racks of GPUs with
 * NVLink 5 (900e9 B/s) cost nothing extra (a slowdown of 1), overlapped and serial;
 * moe_span_racks over that link gives the slowdown asked for. */
static void the_link_at_which_three_racks_cost_nothing_extra(void **state)
{
    (void)state;
    moe_link o = moe_scaleout_for_slowdown(3, 900e9, 1.0, false);
    assert_true(o.exists);
    assert_close(o.scaleout_bytes_per_s, E_LINK_R3_FREE_OVERLAP, TIGHT, "B/s");
    assert_close(moe_span_racks(3, 900e9, o.scaleout_bytes_per_s).slowdown_overlap, 1.0,
                 TIGHT, "x");
    moe_link s = moe_scaleout_for_slowdown(3, 900e9, 1.0, true);
    assert_true(s.exists);
    assert_close(s.scaleout_bytes_per_s, E_LINK_R3_FREE_SERIAL, TIGHT, "B/s");
    assert_close(moe_span_racks(3, 900e9, s.scaleout_bytes_per_s).slowdown_serial, 1.0,
                 TIGHT, "x");
}

/* §2.5 (Two racks), moe.h: the slowest link at which four racks of those GPUs take at
 * most twice one rack's all-to-all, overlapped and serial; the GB200's own NIC
 * (50e9 B/s) is slower than either. */
static void the_link_for_twice_one_racks_time_on_four_racks(void **state)
{
    (void)state;
    moe_link o = moe_scaleout_for_slowdown(4, 900e9, 2.0, false);
    assert_true(o.exists);
    assert_close(o.scaleout_bytes_per_s, E_LINK_R4_X2_OVERLAP, TIGHT, "B/s");
    moe_link s = moe_scaleout_for_slowdown(4, 900e9, 2.0, true);
    assert_true(s.exists);
    assert_close(s.scaleout_bytes_per_s, E_LINK_R4_X2_SERIAL, TIGHT, "B/s");
    assert_close(moe_span_racks(4, 900e9, s.scaleout_bytes_per_s).slowdown_serial, 2.0,
                 TIGHT, "x");
    assert_true(moe_span_racks(4, 900e9, 50e9).slowdown_overlap > 2.0);
}

/* moe.h's no-answer rule, on four racks with W_up = 2^30 B/s (exact in doubles): a
 * target of 1/4 overlapped has a link; 1/8 overlapped, and 1/4 serial, have none
 * (exists false, W_out 0). */
static void targets_no_link_can_meet_have_no_answer(void **state)
{
    (void)state;
    moe_link edge = moe_scaleout_for_slowdown(4, 0x1p30, 0.25, false);
    assert_true(edge.exists);
    assert_close(edge.scaleout_bytes_per_s, E_LINK_R4_QUARTER_OVERLAP, TIGHT, "B/s");
    moe_link below = moe_scaleout_for_slowdown(4, 0x1p30, 0.125, false);
    assert_false(below.exists);
    assert_close(below.scaleout_bytes_per_s, 0.0, TIGHT, "B/s");
    moe_link serial = moe_scaleout_for_slowdown(4, 0x1p30, 0.25, true);
    assert_false(serial.exists);
    assert_close(serial.scaleout_bytes_per_s, 0.0, TIGHT, "B/s");
}

/* moe.h: on one rack nothing crosses: a target of 1 needs no link (exists, W_out 0),
 * overlapped and serial; a target of 1/2 has no answer. */
static void one_rack_needs_no_link(void **state)
{
    (void)state;
    for (int serial = 0; serial <= 1; serial++) {
        moe_link l = moe_scaleout_for_slowdown(1, 900e9, 1.0, serial);
        assert_true(l.exists);
        assert_close(l.scaleout_bytes_per_s, 0.0, TIGHT, "B/s");
        assert_false(moe_scaleout_for_slowdown(1, 900e9, 0.5, serial).exists);
    }
}

/* §2.4 (Three roofs) and §2.5 (Two racks): DeepSeek-V3 on two GB200 racks of 64 GPUs
 * (128 experts a rack) at 8,192 sequences: compute, network, network over compute,
 * and the roof that binds. */
static void deepseek_on_two_racks_of_64(void **state)
{
    (void)state;
    moe_deploy two = deepseek_on_nvl72();
    two.racks = 2;
    two.gpus = 64;
    moe_step s2 = moe_step_at(&two, 8192, 0);
    assert_close(s2.compute_s, E_V3_2R_COMPUTE_S_B8192, TIGHT, "s");
    assert_close(s2.a2a_s, E_V3_2R_A2A_S_B8192, TIGHT, "s");
    assert_close(moe_network_over_compute(&two), E_V3_2R_NET_OVER_COMPUTE, TIGHT, "x");
    assert_roof(s2.bound, MOE_BOUND_NETWORK);
}

/* ---- 2.6 expert_batch -------------------------------------------------------- */

/* Each expert sees B k / E tokens: at a batch of 2,048, DeepSeek's experts see 64. */
static void an_expert_sees_batch_times_k_over_e_tokens(void **state)
{
    (void)state;
    assert_close(moe_tokens_per_expert(2048, 256, 8), 64.0, TIGHT, "tokens");
    assert_close(moe_tokens_per_expert(1000, 8, 2), 250.0, TIGHT, "tokens");
}

/* B k / E >= r: DeepSeek on GB200 in fp4 (r = 312.5) needs 312.5 x 32 = 10,000
 * sequences, almost twice chapter 1's r s = 312.5 x 671 / 37 = 5,667. */
static void deepseek_experts_need_10000_sequences_on_gb200(void **state)
{
    (void)state;
    double r = 10e15 / 2 * 0.5 / 8e12;
    assert_close(moe_min_batch(r, 256, 8), 10000.0, TIGHT, "sequences");
    assert_close(moe_tokens_per_expert(moe_min_batch(r, 256, 8), 256, 8), r, TIGHT, "tokens");
    assert_true(moe_min_batch(r, 256, 8) > r * 671e9 / 37e9);
}

/* Scaling book transformers.md Q8: int8 weights with bf16 arithmetic on TPU v5e need
 * B > 120 E / k, 3,840 tokens for DeepSeek (r = 1.97e14 / 2 x 1 / 8.2e11 = 120.1). */
static void scaling_book_v5e_deepseek_needs_3840_tokens(void **state)
{
    (void)state;
    double r = 1.97e14 / 2 * 1.0 / 8.2e11;
    assert_close(moe_min_batch(r, 256, 8), 3840.0, 0.002, "sequences");
}

/* Dense routing (k = E): every expert sees every token, so it needs r sequences,
 * chapter 1's balance batch with sparsity 1; no batch gives no tokens. */
static void dense_routing_sends_every_token_to_every_expert(void **state)
{
    (void)state;
    assert_close(moe_tokens_per_expert(1000, 8, 8), 1000.0, TIGHT, "tokens");
    assert_close(moe_tokens_per_expert(0, 256, 8), 0.0, TIGHT, "tokens");
    assert_close(moe_min_batch(312.5, 8, 8), 312.5, TIGHT, "sequences");
}


/* ---- 2.7 rng ----------------------------------------------------------------- */

/* Vigna's splitmix64.c from state 0: the published first four outputs. */
static void splitmix64_matches_its_published_outputs(void **state)
{
    (void)state;
    uint64_t s = 0;
    assert_int_equal(moe_rng_next(&s), UINT64_C(0xE220A8397B1DCDAF));
    assert_int_equal(moe_rng_next(&s), UINT64_C(0x6E789E6AA1B965F4));
    assert_int_equal(moe_rng_next(&s), UINT64_C(0x06C45D188009454F));
    assert_int_equal(moe_rng_next(&s), UINT64_C(0xF88BB8A8724C81EC));
    assert_int_equal(s, UINT64_C(4) * UINT64_C(0x9E3779B97F4A7C15));
}

/* A fair die: 60,000 rolls stay in [0, 6) and each face comes up 10,000 times give
 * or take 5 standard deviations (sqrt(60,000 x 1/6 x 5/6) = 91). */
static void rng_below_is_in_range_and_uniform(void **state)
{
    (void)state;
    uint64_t s = 12345;
    long face[6] = {0};
    for (int i = 0; i < 60000; i++) {
        uint64_t x = moe_rng_below(&s, 6);
        assert_true(x < 6);
        face[x]++;
    }
    double sd = sqrt(60000 * (1.0 / 6) * (5.0 / 6));
    for (int f = 0; f < 6; f++)
        assert_between((double)face[f], 10000 - 5 * sd, 10000 + 5 * sd, "rolls");
    assert_int_equal(moe_rng_below(&s, 1), 0);
}

/* n = 3 x 2^62: 2^64 mod n = 2^62, so x % n without rejection lands below 2^62 half
 * the time instead of a third (5 sd of 30,000 draws = 0.0136). */
static void rng_below_has_no_modulo_bias(void **state)
{
    (void)state;
    uint64_t s = 7, n = UINT64_C(3) << 62, quarter = UINT64_C(1) << 62;
    long low = 0;
    for (int i = 0; i < 30000; i++)
        low += moe_rng_below(&s, n) < quarter;
    double sd = sqrt(30000 * (1.0 / 3) * (2.0 / 3)) / 30000;
    assert_between(low / 30000.0, 1.0 / 3 - 5 * sd, 1.0 / 3 + 5 * sd, "");
}

/* ---- 2.8 load_closed_forms --------------------------------------------------- */

/* Ten fair coins, counted by hand: P(X > 7) and P(X > 4); and moe.h's edges. */
static void binomial_tail_of_ten_fair_coins(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(10, 0.5, 7), E_TAIL_N10_HALF_GT7, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, 4), E_TAIL_N10_HALF_GT4, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, -1), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, 10), 0.0, TIGHT, "");
}

/* By hand, §2.7 (Routing is random): 4 tokens, 4 experts, 2 each; the expected drop
 * fraction at capacities 2 and 3, and moe.h's ends (0 drops all, the batch none). */
static void expected_drops_of_four_tokens_on_four_experts(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(4, 4, 2, 2), E_DROP_B4_E4_K2_C2, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 3), E_DROP_B4_E4_K2_C3, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 0), 1.0, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 4), 0.0, TIGHT, "");
}

/* The same case: the smallest capacity under 20%, 5% and 1% drops. */
static void capacity_for_a_drop_target_is_the_smallest_that_meets_it(void **state)
{
    (void)state;
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.20), E_CAP_B4_E4_K2_DROP20);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.05), E_CAP_B4_E4_K2_DROP5);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.01), E_CAP_B4_E4_K2_DROP1);
}

/* By hand, §2.7 (Routing is random): 2 tokens, 2 experts, 1 each: both bounds on the
 * busiest expert's expected load and one load's standard deviation; and that
 * deviation for DeepSeek's routing (256 experts, 8 each) at 8,192 tokens. */
static void busiest_expert_bounds_of_two_tokens_on_two_experts(void **state)
{
    (void)state;
    moe_max_bounds m = moe_expected_max_load(2, 2, 1);
    assert_close(m.lower, E_MAX_B2_E2_K1_LOWER, TIGHT, "tokens");
    assert_close(m.upper, E_MAX_B2_E2_K1_UPPER, TIGHT, "tokens");
    assert_close(m.sd, E_MAX_B2_E2_K1_SD, TIGHT, "tokens");
    assert_close(moe_expected_max_load(8192, 256, 8).sd, E_MAX_B8192_E256_K8_SD, TIGHT,
                 "tokens");
}

/* moe.h's edges of the tail: the top value alone, past the top, below zero, p = 0
 * and p = 1, no trials. */
static void binomial_tail_at_its_edges(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(10, 0.25, 9), E_TAIL_N10_QUARTER_GT9, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, 10), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, 1000), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, -5), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.0, 0), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 1.0, 9), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(0, 0.5, 0), 0.0, TIGHT, "");
}

/* moe.h's accuracy far in the tail: 100 fair coins, 99 or more heads and all 100
 * (about 1e-28 and 1e-30). */
static void a_tail_of_1e_minus_30_is_accurate(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(100, 0.5, 99), E_TAIL_N100_HALF_GT99, 1e-9, "");
    assert_close(moe_binomial_tail(100, 0.5, 98), E_TAIL_N100_HALF_GT98, 1e-9, "");
}

/* moe.h: with top_k = experts every expert receives every token. 10 tokens at
 * capacities 7, 10 and 25; the capacity for 1% of 100 tokens (strictly below) and
 * for 1.01%. */
static void dense_routing_drops_and_capacity(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(10, 4, 4, 7), E_DROP_DENSE_B10_C7, TIGHT, "");
    assert_close(moe_expected_drop_fraction(10, 4, 4, 10), 0.0, TIGHT, "");
    assert_close(moe_expected_drop_fraction(10, 4, 4, 25), 0.0, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(100, 4, 4, 0.01), E_CAP_DENSE_B100_DROP1);
    assert_int_equal(moe_capacity_for_drop(100, 4, 4, 0.0101), E_CAP_DENSE_B100_DROP101);
}

/* moe.h's "strictly below", on the hand case above: a target equal to capacity 2's
 * expected drops, and one a hair above them. */
static void a_drop_equal_to_the_target_is_not_enough(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(4, 4, 2, 2), E_DROP_B4_E4_K2_C2, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, E_DROP_B4_E4_K2_C2),
                     E_CAP_B4_E4_K2_AT_C2_DROPS);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.1876), E_CAP_B4_E4_K2_JUST_ABOVE);
}

/* moe.h: with top_k = experts both bounds are the batch. */
static void dense_routing_makes_both_bounds_the_batch(void **state)
{
    (void)state;
    moe_max_bounds m = moe_expected_max_load(5, 3, 3);
    assert_close(m.lower, 5.0, TIGHT, "tokens");
    assert_close(m.upper, 5.0, TIGHT, "tokens");
}


/* ---- 2.9 routing_simulation -------------------------------------------------- */

/* moe.h: each token adds 1 to k different experts: loads sum to B k, and with k = E
 * every expert gets every token. */
static void each_token_visits_k_distinct_experts(void **state)
{
    (void)state;
    uint64_t s = 1;
    int load[256];
    moe_route_batch(&s, 1000, 256, 8, load);
    long sum = 0;
    for (int j = 0; j < 256; j++) {
        assert_true(load[j] >= 0 && load[j] <= 1000);
        sum += load[j];
    }
    assert_int_equal(sum, 1000 * 8);
    moe_route_batch(&s, 300, 16, 16, load);
    for (int j = 0; j < 16; j++)
        assert_int_equal(load[j], 300);
}

/* Every expert equally likely: with E = 4, k = 2, over 40 batches of 10,000 each
 * expert's mean load is 5,000 (§2.6 (Tokens per expert)) within 5 standard errors
 * (one load's sd, §2.7 (Routing is random), over sqrt(40)). */
static void every_expert_is_equally_likely(void **state)
{
    (void)state;
    uint64_t s = 2;
    int load[4];
    double sum[4] = {0};
    for (int t = 0; t < 40; t++) {
        moe_route_batch(&s, 10000, 4, 2, load);
        for (int j = 0; j < 4; j++)
            sum[j] += load[j];
    }
    double se = E_SIM_LOAD_SD_B10000_E4_K2 / sqrt(40);
    for (int j = 0; j < 4; j++)
        assert_between(sum[j] / 40, 5000 - 5 * se, 5000 + 5 * se, "tokens");
}

/* §2.7 (Routing is random): one expert's load at 100 tokens, 4 experts, 2 each, has
 * the variance that section derives; over 4,000 batches, within 5 standard errors
 * of a sample variance (var x sqrt(2 / 3999) each). Picking with replacement gives
 * a variance half as large again. */
static void one_experts_load_has_the_variance_of_2_7(void **state)
{
    (void)state;
    uint64_t s = 3;
    int load[4];
    double sum = 0, sum2 = 0;
    const int trials = 4000;
    for (int run = 0; run < trials; run++) {
        moe_route_batch(&s, 100, 4, 2, load);
        sum += load[0];
        sum2 += (double)load[0] * load[0];
    }
    double mean = sum / trials, var = (sum2 - trials * mean * mean) / (trials - 1);
    double want = E_SIM_LOAD_VAR_B100_E4_K2, tol = want * 5 * sqrt(2.0 / (trials - 1));
    assert_between(var, want - tol, want + tol, "tokens^2");
}

/* DeepSeek's routing at B = 4,096 (mean 128): the busiest expert's mean load lies
 * between the bounds of §2.7 (Routing is random), give or take 5 standard errors
 * (a load's sd over sqrt(400 trials) bounds the max's). */
static void busiest_expert_lies_between_the_closed_form_bounds(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(42, 256, 8, 4096, 400, 1.0);
    assert_true(m.ok);
    assert_close(m.mean_load, 128.0, TIGHT, "tokens");
    double se = E_SIM_LOAD_SD_B4096 / sqrt(400);
    assert_between(m.max_load_over_mean, (E_SIM_MAX_LOWER_B4096 - 5 * se) / 128,
                   (E_SIM_MAX_UPPER_B4096 + 5 * se) / 128, "x");
}

/* Drops at capacity factor 1 (capacity 128) match the exact expectation of §2.7
 * (Routing is random) within 3% (5 standard errors); the simulated 1% capacity is
 * the exact one, +-1 token. */
static void simulated_drops_match_the_binomial_expectation(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(7, 256, 8, 4096, 400, 1.0);
    assert_true(m.ok);
    assert_int_equal(m.capacity, 128);
    assert_close(m.drop_fraction, E_SIM_DROP_B4096_C128, 0.03, "");
    double c99 = E_SIM_CAP_1PCT_B4096;
    assert_between(m.capacity_factor_p99, (c99 - 1) / 128, (c99 + 1) / 128, "x");
}

/* A seeded generator repeats itself: the same seed, the same loads; another seed,
 * other loads. */
static void the_same_seed_gives_the_same_routing(void **state)
{
    (void)state;
    int a[256], b[256], c[256];
    uint64_t s1 = 99, s2 = 99, s3 = 100;
    moe_route_batch(&s1, 2048, 256, 8, a);
    moe_route_batch(&s2, 2048, 256, 8, b);
    moe_route_batch(&s3, 2048, 256, 8, c);
    int same = 1, differ = 0;
    for (int j = 0; j < 256; j++) {
        same &= a[j] == b[j];
        differ |= a[j] != c[j];
    }
    assert_true(same);
    assert_true(differ);
    moe_imbalance x = moe_simulate(5, 256, 8, 1024, 20, 1.25);
    moe_imbalance y = moe_simulate(5, 256, 8, 1024, 20, 1.25);
    assert_close(x.max_load_over_mean, y.max_load_over_mean, 0.0, "x");
}

/* The law of large numbers: the busiest expert's excess over the mean shrinks as
 * the batch grows; at 65,536 tokens (mean 2,048) it lies between the bounds of §2.7
 * (Routing is random), give or take 5 standard errors. */
static void imbalance_shrinks_as_the_batch_grows(void **state)
{
    (void)state;
    moe_imbalance small = moe_simulate(11, 256, 8, 256, 200, 1.0);
    moe_imbalance large = moe_simulate(11, 256, 8, 65536, 20, 1.0);
    assert_true(small.max_load_over_mean > large.max_load_over_mean);
    double se = E_SIM_LOAD_SD_B65536 / sqrt(20);
    assert_between(large.max_load_over_mean, (E_SIM_MAX_LOWER_B65536 - 5 * se) / 2048,
                   (E_SIM_MAX_UPPER_B65536 + 5 * se) / 2048, "x");
}
/* moe.h: load has exactly `experts` entries; they are zeroed first, whatever they
 * held, and no other element is touched (the guards past the end keep their value). */
static void routing_writes_exactly_the_experts_loads(void **state)
{
    (void)state;
    int load[10];
    for (int j = 0; j < 10; j++)
        load[j] = 12345;
    uint64_t s = 4;
    moe_route_batch(&s, 0, 8, 2, load);
    for (int j = 0; j < 8; j++)
        assert_int_equal(load[j], 0);
    assert_int_equal(load[8], 12345);
    assert_int_equal(load[9], 12345);
    moe_route_batch(&s, 50, 8, 8, load);
    for (int j = 0; j < 8; j++)
        assert_int_equal(load[j], 50);
    assert_int_equal(load[8], 12345);
}

/* moe.h's rounding rule: 16 experts, 8 per token, 200 tokens: a mean load of 100.
 * 1.15 x 100 is 114.99999999999999 in doubles and 0.29 x 100 is 28.999999999999996,
 * but the capacities are 115 and 29 tokens. Factor 0 drops every assignment; a
 * factor of 10 is capped at the batch, 200, and drops none. */
static void capacity_rounds_the_factor_times_the_mean_down_forgivingly(void **state)
{
    (void)state;
    assert_int_equal(moe_simulate(1, 16, 8, 200, 2, 1.15).capacity, 115);
    assert_int_equal(moe_simulate(1, 16, 8, 200, 2, 0.29).capacity, 29);
    moe_imbalance zero = moe_simulate(1, 16, 8, 200, 2, 0.0);
    assert_int_equal(zero.capacity, 0);
    assert_close(zero.drop_fraction, 1.0, TIGHT, "");
    moe_imbalance big = moe_simulate(1, 16, 8, 200, 2, 10.0);
    assert_int_equal(big.capacity, 200);
    assert_close(big.drop_fraction, 0.0, TIGHT, "");
}

/* Dense routing: every load is the batch, 100, and so is the busiest; a capacity of
 * 99 drops exactly 1% of the assignments, not fewer, so the 1% capacity is 100, a
 * factor of 1.00. */
static void dense_routing_needs_every_token_of_capacity_for_1_percent(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(9, 4, 4, 100, 3, 1.0);
    assert_true(m.ok);
    assert_close(m.mean_load, 100.0, TIGHT, "tokens");
    assert_close(m.max_load_over_mean, 1.0, TIGHT, "x");
    assert_int_equal(m.capacity, 100);
    assert_close(m.drop_fraction, 0.0, TIGHT, "");
    assert_close(m.capacity_factor_p99, 1.0, TIGHT, "x");
}



/* ---- 2.10 rack_capacity ------------------------------------------------------ */

/* The lecture at 44:58: 8 Hoppers hold 8 x 80 GB = 640 GB; a GB200 NVL72 72 x 186 GB. */
static void hopper_tray_holds_640_gb_and_an_nvl72_13_tb(void **state)
{
    (void)state;
    assert_close(moe_domain_hbm_bytes(8, 80e9), 640e9, TIGHT, "B");
    assert_close(moe_domain_hbm_bytes(72, 186e9), 13.392e12, TIGHT, "B");
}

/* §2.8 (Why a rack is the unit): the largest fp4 model a GB200 NVL72 holds with no
 * context, and beside its batch's caches of 4,096 tokens of DeepSeek-V3's MLA cache
 * (37e9 active, r = 312.5): parameters, sparsity, batch and the caches' bytes. */
static void largest_model_on_an_nvl72_with_and_without_context(void **state)
{
    (void)state;
    double h = 72 * 186e9, r = 312.5;
    moe_largest bare = moe_largest_model(h, 0.5, r, 0, 35136.0, 37e9);
    assert_true(bare.exists);
    assert_close(bare.params_total, E_NVL72_FP4_PARAMS_NO_CONTEXT, TIGHT, "params");
    moe_largest kv = moe_largest_model(h, 0.5, r, 4096, 35136.0, 37e9);
    assert_true(kv.exists);
    assert_close(kv.params_total, E_NVL72_FP4_PARAMS_L4096, TIGHT, "params");
    assert_close(kv.sparsity, E_NVL72_FP4_SPARSITY_L4096, TIGHT, "");
    assert_close(kv.batch, E_NVL72_FP4_BATCH_L4096, TIGHT, "sequences");
    assert_close(kv.kv_bytes, E_NVL72_FP4_KV_BYTES_L4096, TIGHT, "B");
}

/* moe.h's no-answer rule: 8 x 80 GB cannot hold N_active = 400e9 in bf16, and can
 * hold 300e9. */
static void no_model_fits_when_even_the_active_part_overflows(void **state)
{
    (void)state;
    assert_false(moe_largest_model(640e9, 2.0, 295, 0, 0, 400e9).exists);
    assert_true(moe_largest_model(640e9, 2.0, 295, 0, 0, 300e9).exists);
}

/* moe.h's boundary: with no context, HBM of exactly N_active x bytes holds the model
 * with nothing to spare, sparsity 1 and the batch r; one byte less holds nothing,
 * and then every number is 0. */
static void a_domain_exactly_full_of_active_weights_is_an_answer(void **state)
{
    (void)state;
    moe_largest m = moe_largest_model(2e9, 1.0, 295, 0, 0, 2e9);
    assert_true(m.exists);
    assert_close(m.params_total, 2e9, TIGHT, "params");
    assert_close(m.sparsity, 1.0, TIGHT, "");
    assert_close(m.batch, 295.0, TIGHT, "sequences");
    moe_largest none = moe_largest_model(2e9 - 1, 1.0, 295, 0, 0, 2e9);
    assert_false(none.exists);
    assert_close(none.params_total, 0.0, TIGHT, "params");
    assert_close(none.sparsity, 0.0, TIGHT, "");
    assert_close(none.batch, 0.0, TIGHT, "sequences");
    assert_close(none.kv_bytes, 0.0, TIGHT, "B");
}

/* ---- 2.11 routed_scaling ----------------------------------------------------- */

/* The lecture at 27:40 (Clark et al. 2022): 64 experts at 370M active ~ a dense 1.3B; the
 * cube root of 64 is 4, so 370M x 4 = 1.48e9, within 15% of 1.3e9. */
static void sixty_four_experts_at_370m_match_about_a_dense_1_3b(void **state)
{
    (void)state;
    assert_close(moe_dense_equivalent_params(370e6, 64), 370e6 * 4, TIGHT, "params");
    assert_close(moe_dense_equivalent_params(370e6, 64), 1.3e9, 0.15, "params");
    assert_close(moe_dense_equivalent_params(1e9, 1), 1e9, TIGHT, "params");
}

/* The lecture at 27:40: halving active parameters at equal quality costs 8x the experts. */
static void halving_active_parameters_costs_8x_the_experts(void **state)
{
    (void)state;
    assert_close(moe_expert_multiplier(0.5), 8.0, TIGHT, "x");
    assert_close(moe_expert_multiplier(0.25), 64.0, TIGHT, "x");
    assert_close(moe_expert_multiplier(1.0), 1.0, TIGHT, "x");
}

/* ---- 2.12 cheapest_layout ---------------------------------------------------- */

/* A toy model in powers of two (exact in binary): 2^33 weights of one byte, 2^30
 * active, 8 experts of which each token visits 2, one MoE layer of d_model 1,024
 * sending one byte an element, 2^20 bytes of cache a token. Per GPU: 2^40 FLOP/s,
 * 2^36 B/s of HBM, 2^36 B/s of NVLink and of NIC, 2^32 bytes of HBM, $3.60 an hour.
 * Racks of 8 GPUs, one rack, a step of at most 1/8 s, no context. */
static moe_layout_query toy_query(void)
{
    moe_layout_query q = {
        .model = {
            .params_total = 0x1p33, .params_active = 0x1p30, .bytes_per_param = 1,
            .kv_bytes_per_token = 0x1p20, .d_model = 1024, .moe_layers = 1,
            .experts = 8, .top_k = 2, .act_bytes = 1, .gpus = 0, .racks = 0,
            .flops_per_s = 0x1p40, .hbm_bytes_per_s = 0x1p36,
            .scaleup_bytes_per_s = 0x1p36, .scaleout_bytes_per_s = 0x1p36,
        },
        .context_tokens = 0, .hbm_bytes = 0x1p32, .domain_chips = 8, .max_racks = 1,
        .usd_per_gpu_hour = 3.6, .max_step_s = 0x1p-3,
    };
    return q;
}

/* §2.10 (The cheapest layout for a latency target): the toy as it is, no context
 * (one GPU cannot hold its weights; two fill their HBM exactly, which fits). */
static void toy_model_with_no_context(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_FOUND);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_NOCTX_GPUS);
    assert_int_equal(l.experts_per_gpu, E_LAYOUT_NOCTX_EXPERTS_PER_GPU);
    assert_close(l.batch, E_LAYOUT_NOCTX_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(l.step.step_s, 0x1p-3, TIGHT, "s");
    assert_close(l.tokens_per_s, E_LAYOUT_NOCTX_TOKENS_PER_S, TIGHT, "tokens/s");
    assert_close(l.usd_per_token, E_LAYOUT_NOCTX_USD_PER_TOKEN, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target), moe.h's "filling it exactly fits"
 * with caches: 1,024 tokens of context, racks of 2 GPUs of 2^32 + 2^31 bytes, whose
 * HBM the weights and the batch's caches fill exactly (every number a power of two
 * or a sum of two, exact in doubles in any order). */
static void caches_that_fill_the_hbm_exactly_fit(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.context_tokens = 1024;
    q.hbm_bytes = 0x1p32 + 0x1p31;
    q.domain_chips = 2;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, 2);
    assert_close(l.batch, E_LAYOUT_FULL_HBM_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_MEMORY, bound_name);
    assert_close(l.step.step_s, E_LAYOUT_FULL_HBM_STEP_S, TIGHT, "s");
    assert_close(l.usd_per_token, E_LAYOUT_FULL_HBM_USD_PER_TOKEN, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target): the toy at 1,024 tokens of
 * context (a GiB of cache a sequence) on GPUs of 2^34 bytes. */
static void toy_model_at_long_context(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.context_tokens = 1024;
    q.hbm_bytes = 0x1p34;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_LONG_GPUS);
    assert_int_equal(l.experts_per_gpu, 8 / E_LAYOUT_LONG_GPUS);
    assert_close(l.batch, E_LAYOUT_LONG_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_MEMORY, bound_name);
    assert_close(l.step.step_s, 0x1p-3, TIGHT, "s");
    assert_close(l.usd_per_token, E_LAYOUT_LONG_USD_PER_TOKEN, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target) and §2.5 (Two racks): GPUs of 2^30
 * bytes, so that all 8 are needed to hold the weights, in racks of 4, up to 2 racks,
 * with a NIC of 2^19 B/s; then with one rack allowed, where no layout fits. */
static void toy_model_whose_weights_need_two_racks(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.hbm_bytes = 0x1p30;
    q.domain_chips = 4;
    q.max_racks = 2;
    q.model.scaleout_bytes_per_s = 0x1p19;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, E_LAYOUT_2R_RACKS);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_2R_GPUS_PER_RACK);
    assert_int_equal(l.experts_per_gpu, 1);
    assert_close(l.batch, E_LAYOUT_2R_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_NETWORK, bound_name);
    assert_close(l.usd_per_token, E_LAYOUT_2R_USD_PER_TOKEN, TIGHT, "USD");
    q.max_racks = 1;
    assert_false(moe_cheapest_layout(&q).exists);
}

/* moe.h's second tie rule: GPUs of 2^30 bytes (8 of them hold the weights), racks of
 * 8, up to 8 racks, a NIC as fast as NVLink. One rack of 8, 2 of 4, 4 of 2 and 8 of 1
 * use the same GPUs at the same cost: the fewest racks win. */
static void the_same_gpus_in_fewer_racks_win_a_tie(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.hbm_bytes = 0x1p30;
    q.max_racks = 8;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_TIE_GPUS);
    assert_close(l.batch, E_LAYOUT_TIE_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
}

/* The running example, §2.10 (The cheapest layout for a latency target): DeepSeek-V3
 * (671e9 and 37e9 parameters, published) in fp4 on GB200 GPUs (10e15 FLOP/s, 8e12
 * B/s, 186e9 B), 1,024 tokens of fp4 MLA cache (61 x 576 x 0.5 = 17,568 B a token),
 * $2 a GPU-hour, a 20 ms step, one rack. Several layouts cost the same but for
 * rounding: only the contract's 1e-9 tie rule picks the answer. */
static void deepseek_at_a_20_ms_step_on_one_rack(void **state)
{
    (void)state;
    moe_layout_query q = {
        .model = deepseek_on_nvl72(),
        .context_tokens = 1024, .hbm_bytes = 186e9, .domain_chips = 72,
        .max_racks = 1, .usd_per_gpu_hour = 2.0, .max_step_s = 0.020,
    };
    q.model.kv_bytes_per_token = 17568.0;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_V3_GPUS);
    assert_int_equal(l.experts_per_gpu, E_LAYOUT_V3_EXPERTS_PER_GPU);
    assert_close(l.batch, E_LAYOUT_V3_BATCH, 1e-12, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(l.usd_per_token, E_LAYOUT_V3_USD_PER_TOKEN, 1e-12, "USD");
}

/* moe.h's rounding rule. One GPU, 3e9 parameters, all active, at 1e15 FLOP/s (the
 * weights take 1 ms), at targets of 45 ms and 15 ms: in exact arithmetic 7,500 and
 * 2,500 sequences meet them exactly, but a quotient computed in doubles can land a
 * hair below 7,500 (7499.999999999999), and 2,500 sequences take 0.015000000000000001 s
 * in doubles. The contract's test is moe_step_at's own step time, so the batch B must
 * pass it and B + 1 must fail. */
static void a_batch_quotient_a_hair_off_a_whole_number_is_checked(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.model.params_total = 3e9;
    q.model.params_active = 3e9;
    q.model.flops_per_s = 1e15;
    q.model.hbm_bytes_per_s = 3e12;
    q.hbm_bytes = 1e12;
    q.domain_chips = 1;
    const double targets[] = {0.045, 0.015};
    const double near[] = {E_LAYOUT_QUOTIENT_BATCH_45MS, E_LAYOUT_QUOTIENT_BATCH_15MS};
    for (int i = 0; i < 2; i++) {
        q.max_step_s = targets[i];
        moe_layout l = moe_cheapest_layout(&q);
        assert_true(l.exists);
        assert_int_equal(l.gpus_per_rack, 1);
        assert_close(l.batch, near[i], 1.0 / 2000, "sequences");
        assert_close(l.batch, floor(l.batch), 0.0, "sequences");
        moe_deploy d = q.model;
        d.gpus = 1;
        d.racks = 1;
        assert_true(moe_step_at(&d, l.batch, 0).step_s <= targets[i]);
        assert_false(moe_step_at(&d, l.batch + 1, 0).step_s <= targets[i]);
    }
}

/* moe.h's no-answer rule: the toy at a target of 1/128 s has no layout (exists false,
 * why NONE_FITS, every number 0); at 1/64 s, met exactly (at most, not below), it
 * has one. */
static void no_layout_for_a_target_too_short(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.max_step_s = 0x1p-7;
    moe_layout l = moe_cheapest_layout(&q);
    assert_false(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_NONE_FITS);
    assert_int_equal(l.racks, 0);
    assert_int_equal(l.gpus_per_rack, 0);
    assert_close(l.batch, 0.0, TIGHT, "sequences");
    assert_close(l.usd_per_token, 0.0, TIGHT, "USD");
    q.max_step_s = 0x1p-6;
    moe_layout edge = moe_cheapest_layout(&q);
    assert_true(edge.exists);
    assert_int_equal(edge.gpus_per_rack, E_LAYOUT_EDGE_GPUS);
    assert_close(edge.batch, E_LAYOUT_EDGE_BATCH, TIGHT, "sequences");
    assert_close(edge.step.step_s, 0x1p-6, TIGHT, "s");
}

/* Fails unless a batch is exactly the whole number expected, printed in full (assert_close's
 * %.6g cannot tell 2^53 from 2^53 - 1). */
#define assert_batch_exactly(actual, expected, why)                                       \
    do {                                                                                  \
        double got_ = (actual), want_ = (expected);                                       \
        if (!(got_ == want_)) {                                                           \
            print_error("%s = %.17g sequences, expected exactly %.17g (%s)\n", #actual,   \
                        got_, want_, (why));                                              \
            _fail(__FILE__, __LINE__);                                                    \
        }                                                                                 \
    } while (0)

/* moe.h's cap, B <= 2^53, at exactly the cap and one double past it. One GPU, one
 * rack, one active parameter at F = 2^54 FLOP/s, no cache, no MoE layer, weights
 * read in 1e-12 s. Without the cap the largest batch would be:
 *   t = 1 s:          2^53 exactly, the target met exactly: not capped, and not
 *                     2^53 - 1 (JavaScript's MAX_SAFE_INTEGER is not the cap);
 *   t = 1 + 2^-52 s:  2^53 + 2, the next double past 2^53: capped at 2^53;
 *   t = 2 s:          2^54, far past: capped at 2^53. */
static void the_batch_reaches_2_to_the_53_and_stops_there(void **state)
{
    (void)state;
    const double cap = 9007199254740992.0; /* 2^53, moe.h */
    moe_layout_query q = {
        .model = {
            .params_total = 1, .params_active = 1, .bytes_per_param = 1,
            .kv_bytes_per_token = 0, .d_model = 1, .moe_layers = 0, .experts = 1,
            .top_k = 1, .act_bytes = 1, .flops_per_s = 0x1p54, .hbm_bytes_per_s = 1e12,
            .scaleup_bytes_per_s = 1e12, .scaleout_bytes_per_s = 1e12,
        },
        .context_tokens = 0, .hbm_bytes = 1e9, .domain_chips = 1, .max_racks = 1,
        .usd_per_gpu_hour = 1.0, .max_step_s = 1.0,
    };
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_batch_exactly(l.batch, cap, "2^53: the target met exactly, not capped");
    assert_close(l.step.step_s, 1.0, TIGHT, "s");
    q.max_step_s = 1.0 + 0x1p-52; /* uncapped: 2^53 + 2 */
    l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_batch_exactly(l.batch, cap, "one double past 2^53: capped at 2^53");
    q.max_step_s = 2.0; /* uncapped: 2^54 */
    l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_batch_exactly(l.batch, cap, "2^54 uncapped: capped at 2^53");
}

/* moe.h's ranges: a target, price or HBM of 0 or NaN, no GPU, no rack, or two racks
 * with no scale-out network: no answer, why BAD_QUERY. */
static void a_query_out_of_range_has_no_layout(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.max_step_s = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.usd_per_gpu_hour = NAN;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.hbm_bytes = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.domain_chips = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.max_racks = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.max_racks = 2;
    q.model.scaleout_bytes_per_s = 0;
    moe_layout l = moe_cheapest_layout(&q);
    assert_false(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_BAD_QUERY);
    assert_close(l.batch, 0.0, TIGHT, "sequences");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(expert_params, a_swiglu_expert_is_three_matrices),
        CHALK_TEST(expert_params, a_layer_holds_every_expert_and_a_token_uses_k_plus_shared),
        CHALK_TEST(expert_params, total_minus_active_is_the_experts_a_token_skips),
        CHALK_TEST(expert_placement, deepseek_on_nvl72_uses_64_gpus_with_4_experts_each),
        CHALK_TEST(expert_placement, gpus_used_is_the_largest_divisor_not_a_power_of_two),
        CHALK_TEST(expert_placement, using_all_72_gpus_does_not_lighten_the_busiest),
        CHALK_TEST(expert_placement, a_gpu_holds_its_experts_in_every_layer),
        CHALK_TEST(expert_placement, fewer_experts_than_gpus_put_one_on_each),
        CHALK_TEST(a2a_bytes, a_token_sends_k_copies_out_and_gets_k_back),
        CHALK_TEST(a2a_bytes, the_share_leaving_the_gpu_is_one_minus_one_over_n),
        CHALK_TEST(three_roofs, deepseek_on_nvl72_compute_and_memory_roofs),
        CHALK_TEST(three_roofs, deepseek_on_nvl72_network_roof),
        CHALK_TEST(three_roofs, a_step_reads_what_the_gpus_hbm_holds),
        CHALK_TEST(three_roofs, step_is_the_largest_of_three_roofs),
        CHALK_TEST(three_roofs, kv_fetch_counts_against_the_memory_roof),
        CHALK_TEST(three_roofs, network_over_compute_does_not_depend_on_the_batch),
        CHALK_TEST(three_roofs, deepseek_on_nvl72_knee_in_fp4_and_bf16),
        CHALK_TEST(three_roofs, no_knee_when_the_kv_fetch_outgrows_both_roofs),
        CHALK_TEST(three_roofs, bound_names_are_the_three_roofs),
        CHALK_TEST(three_roofs, ties_between_roofs_go_to_compute),
        CHALK_TEST(three_roofs, an_empty_batch_only_reads_the_weights),
        CHALK_TEST(three_roofs, knee_ties_go_to_compute_and_to_no_knee),
        CHALK_TEST(three_roofs, no_moe_layer_means_no_network),
        CHALK_TEST(two_racks, three_racks_over_the_lectures_8x_slower_link),
        CHALK_TEST(two_racks, gb200_nics_over_four_racks),
        CHALK_TEST(two_racks, one_rack_or_an_equal_link_costs_nothing_extra),
        CHALK_TEST(two_racks, the_link_at_which_three_racks_cost_nothing_extra),
        CHALK_TEST(two_racks, the_link_for_twice_one_racks_time_on_four_racks),
        CHALK_TEST(two_racks, targets_no_link_can_meet_have_no_answer),
        CHALK_TEST(two_racks, one_rack_needs_no_link),
        CHALK_TEST(two_racks, deepseek_on_two_racks_of_64),
        CHALK_TEST(expert_batch, an_expert_sees_batch_times_k_over_e_tokens),
        CHALK_TEST(expert_batch, deepseek_experts_need_10000_sequences_on_gb200),
        CHALK_TEST(expert_batch, scaling_book_v5e_deepseek_needs_3840_tokens),
        CHALK_TEST(expert_batch, dense_routing_sends_every_token_to_every_expert),
        CHALK_TEST(rng, splitmix64_matches_its_published_outputs),
        CHALK_TEST(rng, rng_below_is_in_range_and_uniform),
        CHALK_TEST(rng, rng_below_has_no_modulo_bias),
        CHALK_TEST(load_closed_forms, binomial_tail_of_ten_fair_coins),
        CHALK_TEST(load_closed_forms, expected_drops_of_four_tokens_on_four_experts),
        CHALK_TEST(load_closed_forms, capacity_for_a_drop_target_is_the_smallest_that_meets_it),
        CHALK_TEST(load_closed_forms, busiest_expert_bounds_of_two_tokens_on_two_experts),
        CHALK_TEST(load_closed_forms, binomial_tail_at_its_edges),
        CHALK_TEST(load_closed_forms, a_tail_of_1e_minus_30_is_accurate),
        CHALK_TEST(load_closed_forms, dense_routing_drops_and_capacity),
        CHALK_TEST(load_closed_forms, a_drop_equal_to_the_target_is_not_enough),
        CHALK_TEST(load_closed_forms, dense_routing_makes_both_bounds_the_batch),
        CHALK_TEST(routing_simulation, each_token_visits_k_distinct_experts),
        CHALK_TEST(routing_simulation, every_expert_is_equally_likely),
        CHALK_TEST(routing_simulation, one_experts_load_has_the_variance_of_2_7),
        CHALK_TEST(routing_simulation, busiest_expert_lies_between_the_closed_form_bounds),
        CHALK_TEST(routing_simulation, simulated_drops_match_the_binomial_expectation),
        CHALK_TEST(routing_simulation, the_same_seed_gives_the_same_routing),
        CHALK_TEST(routing_simulation, imbalance_shrinks_as_the_batch_grows),
        CHALK_TEST(routing_simulation, routing_writes_exactly_the_experts_loads),
        CHALK_TEST(routing_simulation, capacity_rounds_the_factor_times_the_mean_down_forgivingly),
        CHALK_TEST(routing_simulation, dense_routing_needs_every_token_of_capacity_for_1_percent),
        CHALK_TEST(rack_capacity, hopper_tray_holds_640_gb_and_an_nvl72_13_tb),
        CHALK_TEST(rack_capacity, largest_model_on_an_nvl72_with_and_without_context),
        CHALK_TEST(rack_capacity, no_model_fits_when_even_the_active_part_overflows),
        CHALK_TEST(rack_capacity, a_domain_exactly_full_of_active_weights_is_an_answer),
        CHALK_TEST(routed_scaling, sixty_four_experts_at_370m_match_about_a_dense_1_3b),
        CHALK_TEST(routed_scaling, halving_active_parameters_costs_8x_the_experts),
        CHALK_TEST(cheapest_layout, toy_model_with_no_context),
        CHALK_TEST(cheapest_layout, caches_that_fill_the_hbm_exactly_fit),
        CHALK_TEST(cheapest_layout, toy_model_at_long_context),
        CHALK_TEST(cheapest_layout, toy_model_whose_weights_need_two_racks),
        CHALK_TEST(cheapest_layout, the_same_gpus_in_fewer_racks_win_a_tie),
        CHALK_TEST(cheapest_layout, deepseek_at_a_20_ms_step_on_one_rack),
        CHALK_TEST(cheapest_layout, a_batch_quotient_a_hair_off_a_whole_number_is_checked),
        CHALK_TEST(cheapest_layout, no_layout_for_a_target_too_short),
        CHALK_TEST(cheapest_layout, the_batch_reaches_2_to_the_53_and_stops_there),
        CHALK_TEST(cheapest_layout, a_query_out_of_range_has_no_layout),
    };
    return cmocka_run_group_tests_name("02-moe", tests, NULL, NULL);
}
