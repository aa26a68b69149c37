/*
 * test_moe.c -- Chapter 2 tests: an MoE layer laid out across a rack. This file holds
 * the layer and its network, exercises 2.1 to 2.6 (expert_params, expert_placement,
 * a2a_bytes, three_roofs, two_racks, expert_batch), and main(), which runs them, then
 * test_moe_routing.c's (2.7 to 2.11: the generator, the loads, the simulation, the
 * domain, the scaling law), then test_moe_layout.c's (2.12: the cheapest layout), in
 * that order: one binary (the registry of tests/test_util.h).
 *
 * Built against exercises/02-moe/moe.c (yours) and, in the instructor's copy,
 * against the reference solution. Each test states one fact; the comment
 * above it names where the expected value comes from. Expected values come from
 * published inputs, never from output: the one-star exercises' from the formula the
 * book states, the two- and three-star exercises' from expected.h (E_ names), whose
 * derivations, each with its source, are the instructor's (test_moe_routing.c says
 * how the random routing simulation is held to its closed forms).
 *
 * Published inputs used in the three files:
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
#include "fixtures.h"
#include "moe.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* DeepSeek-V3 in fp4 on the 64 GPUs of a GB200 NVL72 that hold its 256 experts, with
 * activations crossing NVLink in fp4 too. Shared (fixtures.h). */
moe_deploy deepseek_on_nvl72(void)
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

/* A roof's name for assert_named. Shared (fixtures.h). */
const char *bound_name(int b)
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

/* moe.h's no-answer rule, on four racks with W_up = 2^30 B/s (exact in doubles): the
 * targets 1/4 and 1/8 overlapped and 1/4 serial, each the link of expected.h where
 * one exists, else exists false and W_out 0. */
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

/* moe.h's rules in doubles, on 49 racks with W_up = 2^30 B/s, overlapped: the link for a
 * target of 1, for the target 1.0 / 49 (a double, not exactly 1/49) and for the next
 * double below it, each as expected.h gives it or none; moe_span_racks over the link
 * returned gives that target back, and over a link 2^10 times faster than NVLink gives
 * exactly the double 1.0 / 49 (its rounding rule). */
static void the_in_rack_part_in_doubles_decides_the_boundary(void **state)
{
    (void)state;
    assert_close(moe_span_racks(49, 0x1p30, 0x1p40).slowdown_overlap, 1.0 / 49, 0.0, "x");
    moe_link no_cost = moe_scaleout_for_slowdown(49, 0x1p30, 1.0, false);
    assert_close(no_cost.scaleout_bytes_per_s, E_LINK_R49_FREE_OVERLAP, TIGHT, "B/s");
    double edge_s = 1.0 / 49;
    moe_link edge = moe_scaleout_for_slowdown(49, 0x1p30, edge_s, false);
    assert_close(edge.scaleout_bytes_per_s, E_LINK_R49_EDGE_OVERLAP, TIGHT, "B/s");
    assert_true(edge.exists);
    assert_close(moe_span_racks(49, 0x1p30, edge.scaleout_bytes_per_s).slowdown_overlap,
                 edge_s, TIGHT, "x");
    moe_link below = moe_scaleout_for_slowdown(49, 0x1p30, nextafter(edge_s, 0.0), false);
    assert_false(below.exists);
    assert_close(below.scaleout_bytes_per_s, 0.0, TIGHT, "B/s");
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

CHALK_PART(basics) = {
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
    CHALK_TEST(two_racks, the_in_rack_part_in_doubles_decides_the_boundary),
    CHALK_TEST(two_racks, one_rack_needs_no_link),
    CHALK_TEST(two_racks, deepseek_on_two_racks_of_64),
    CHALK_TEST(expert_batch, an_expert_sees_batch_times_k_over_e_tokens),
    CHALK_TEST(expert_batch, deepseek_experts_need_10000_sequences_on_gb200),
    CHALK_TEST(expert_batch, scaling_book_v5e_deepseek_needs_3840_tokens),
    CHALK_TEST(expert_batch, dense_routing_sends_every_token_to_every_expert),
};
CHALK_PART_END(basics);

CHALK_PART_DECLARE(routing); /* test_moe_routing.c */
CHALK_PART_DECLARE(layout);  /* test_moe_layout.c */

int main(void)
{
    return chalk_run_parts("02-moe", CHALK_PART_REF(basics), CHALK_PART_REF(routing),
                           CHALK_PART_REF(layout));
}
