/*
 * test_moe.c -- Chapter 2 tests: an MoE layer laid out across a rack.
 *
 * Built against exercises/02-moe/moe.c (yours) and, in the instructor's copy,
 * against the reference solution. Each test states one fact; the comment
 * above it names where the expected value comes from. Expected values are closed
 * forms with published inputs, never copied from output. The routing simulation
 * is random, so its tests hold it to closed forms (binomial mean, variance, tails
 * and bounds) within five standard errors, computed in the test.
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
 * §2.4 (Three roofs) are the book's (chapter 2 of chalk.pdf); "lecture §2.2" is
 * ../shared/reference/lecture-notes.md.
 */
#include "../test_util.h"

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

/* Per-sequence slopes and the weight term of the deployment above, written out. */
static double compute_slope(const moe_deploy *d)
{
    return 2.0 * d->params_active / (d->racks * d->gpus * d->flops_per_s);
}
static double one_rack_a2a_slope(const moe_deploy *d)
{
    return d->moe_layers * 2.0 * d->top_k * d->d_model * d->act_bytes /
           (d->gpus * d->scaleup_bytes_per_s);
}
static double weights_term(const moe_deploy *d)
{
    return d->params_total * d->bytes_per_param /
           (d->racks * d->gpus * d->hbm_bytes_per_s);
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

/* lecture §2.2: DeepSeek's 256 experts on a 72-GPU rack use 64 GPUs, 4 experts each,
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

/* lecture §2.2: out to k experts and back, k x d_model x bytes each way:
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

/* Chapter 1's roofline over the GPUs that hold experts: 2 N_active per token for
 * compute, N_total bytes once plus every cache for memory. */
static void compute_and_memory_roofs_are_chapter_1s_over_the_gpus_used(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step s = moe_step_at(&d, 2048, 4096);
    assert_close(s.compute_s, 2048 * 2.0 * 37e9 / (64 * 10e15), TIGHT, "s");
    assert_close(s.weights_s, 671e9 * 0.5 / (64 * 8e12), TIGHT, "s");
    assert_close(s.kv_s, 2048 * 4096 * 35136.0 / (64 * 8e12), TIGHT, "s");
    assert_close(s.memory_s, s.weights_s + s.kv_s, TIGHT, "s");
}

/* lecture §2.2: every MoE layer dispatches and combines; the step's all-to-all is
 * 58 x B x 2 k d act_bytes over 64 GPUs' NVLink. */
static void network_roof_counts_every_moe_layer_both_ways(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    double per_token = 58 * 2.0 * 8 * 7168 * 0.5;
    assert_close(moe_step_at(&d, 2048, 0).a2a_s, 2048 * per_token / (64 * 900e9), TIGHT, "s");
    d.act_bytes = 2.0; /* bf16 on the wire: four times the bytes */
    assert_close(moe_step_at(&d, 2048, 0).a2a_s, 4 * 2048 * per_token / (64 * 900e9), TIGHT,
                 "s");
    /* one layer, one way: the dispatch alone, B x k d act_bytes over the GPUs' NVLink */
    assert_close(moe_step_at(&d, 2048, 0).a2a_dispatch_s_per_layer,
                 4 * 2048 * 8.0 * 7168 * 0.5 / (64 * 900e9), TIGHT, "s");
}

/* A step reads every weight and every cache once, so it reads what HBM holds: the
 * weights, N_total x bytes, and B sequences' caches of L tokens each. */
static void a_step_reads_what_the_gpus_hbm_holds(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step s = moe_step_at(&d, 2048, 4096);
    assert_close(s.hbm_bytes, 671e9 * 0.5 + 2048.0 * 4096 * 35136.0, TIGHT, "bytes");
}

/* The step is the max of the three roofs, each reached: memory at a small batch,
 * compute at a large one, network when activations cross in bf16. */
static void step_is_the_largest_of_three_roofs(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step small = moe_step_at(&d, 64, 0);
    assert_int_equal(small.bound, MOE_BOUND_MEMORY);
    assert_close(small.step_s, weights_term(&d), TIGHT, "s");
    moe_step big = moe_step_at(&d, 20000, 0);
    assert_int_equal(big.bound, MOE_BOUND_COMPUTE);
    assert_close(big.step_s, 20000 * compute_slope(&d), TIGHT, "s");
    d.act_bytes = 2.0;
    moe_step net = moe_step_at(&d, 20000, 0);
    assert_int_equal(net.bound, MOE_BOUND_NETWORK);
    assert_close(net.step_s, 20000 * one_rack_a2a_slope(&d), TIGHT, "s");
    assert_true(net.step_s < net.compute_s + net.memory_s + net.a2a_s);
}

/* A step whose compute lies between the weight fetch and weights + KV is
 * memory-bound: the KV fetch belongs to the memory roof. At B = 8,000 and 2,048
 * tokens: compute 0.93 ms, weights 0.66 ms, KV 1.12 ms. */
static void kv_fetch_counts_against_the_memory_roof(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_step s = moe_step_at(&d, 8000, 2048);
    double kv = 8000 * 2048 * 35136.0 / (64 * 8e12);
    assert_close(s.memory_s, weights_term(&d) + kv, TIGHT, "s");
    assert_true(s.compute_s > s.weights_s && s.compute_s < s.memory_s);
    assert_int_equal(s.bound, MOE_BOUND_MEMORY);
    assert_close(s.step_s, s.memory_s, TIGHT, "s");
}

/* Both moving roofs grow as B, so network over compute is
 * layers x 2 k d act_bytes x F / (2 N_active W_up), whatever the batch: 0.49 with
 * fp4 activations, 0.98 with fp8 (§2.4 (Three roofs)). */
static void network_over_compute_does_not_depend_on_the_batch(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    double expected = 58 * 2.0 * 8 * 7168 * 0.5 * 10e15 / (2.0 * 37e9 * 900e9);
    assert_close(moe_network_over_compute(&d), expected, TIGHT, "x");
    moe_step a = moe_step_at(&d, 100, 0), b = moe_step_at(&d, 50000, 0);
    assert_close(a.a2a_s / a.compute_s, b.a2a_s / b.compute_s, TIGHT, "x");
    d.act_bytes = 1.0;
    assert_close(moe_network_over_compute(&d), 2 * expected, TIGHT, "x");
}

/* Closed form: the knee is W / (max(c, a) - kv); past it compute binds when c > a
 * and the network when a > c. */
static void knee_is_where_the_steeper_roof_meets_memory(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    moe_knee k = moe_knee_batch(&d, 0);
    assert_true(k.exists);
    assert_int_equal(k.after, MOE_BOUND_COMPUTE);
    assert_close(k.batch, weights_term(&d) / compute_slope(&d), TIGHT, "sequences");
    d.act_bytes = 2.0;
    moe_knee n = moe_knee_batch(&d, 0);
    assert_true(n.exists);
    assert_int_equal(n.after, MOE_BOUND_NETWORK);
    assert_close(n.batch, weights_term(&d) / one_rack_a2a_slope(&d), TIGHT, "sequences");
    double kv = 1024 * 35136.0 / (64 * 8e12);
    assert_close(moe_knee_batch(&d, 1024).batch,
                 weights_term(&d) / (one_rack_a2a_slope(&d) - kv), TIGHT, "sequences");
}

/* Chapter 1's balance context, with the network as a second moving roof: when the
 * KV slope passes the steeper of compute and network, memory binds at every batch. */
static void no_knee_when_the_kv_fetch_outgrows_both_roofs(void **state)
{
    (void)state;
    moe_deploy d = deepseek_on_nvl72();
    /* L* = 2 N_active W_HBM / (F b_kv) = 2 x 37e9 x 8e12 / (10e15 x 35,136) = 1,685 */
    double ctx = 2.0 * 37e9 * 8e12 / (10e15 * 35136.0);
    assert_true(moe_knee_batch(&d, 0.99 * ctx).exists);
    assert_false(moe_knee_batch(&d, 1.01 * ctx).exists);
    assert_int_equal(moe_step_at(&d, 1e6, 1.01 * ctx).bound, MOE_BOUND_MEMORY);
}

/* A deployment whose every number is a power of two, so that ties are exact: each
 * sequence adds 1 s of compute (2 x 1 / 2), 1 s of all-to-all (1 layer x 2 x 1 x 1 x
 * 0.5 bytes at 1 B/s) and L s of KV fetch (L x 1 byte at 1 B/s); the weights take
 * 4 s (4 bytes at 1 B/s). */
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

/* moe.h's tie rules at B = 4 with no context: compute 4 s, memory 4 s, network 4 s.
 * A three-way tie is COMPUTE (the network must be strictly larger); twice the
 * activation bytes make the network 8 s, strictly larger: NETWORK. At B = 2 compute
 * is 2 s against memory's 4 s: MEMORY. */
static void ties_between_roofs_go_to_compute(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    moe_step tie = moe_step_at(&d, 4, 0);
    assert_close(tie.compute_s, 4.0, TIGHT, "s");
    assert_close(tie.memory_s, 4.0, TIGHT, "s");
    assert_close(tie.a2a_s, 4.0, TIGHT, "s");
    assert_named(tie.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(tie.step_s, 4.0, TIGHT, "s");
    assert_named(moe_step_at(&d, 2, 0).bound, MOE_BOUND_MEMORY, bound_name);
    d.act_bytes = 1.0;
    moe_step net = moe_step_at(&d, 4, 0);
    assert_named(net.bound, MOE_BOUND_NETWORK, bound_name);
    assert_close(net.step_s, 8.0, TIGHT, "s");
}

/* A step of no sequences reads the weights and nothing else: 4 s, MEMORY. */
static void an_empty_batch_only_reads_the_weights(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    moe_step s = moe_step_at(&d, 0, 1000);
    assert_close(s.compute_s, 0.0, TIGHT, "s");
    assert_close(s.kv_s, 0.0, TIGHT, "s");
    assert_close(s.a2a_s, 0.0, TIGHT, "s");
    assert_close(s.step_s, 4.0, TIGHT, "s");
    assert_named(s.bound, MOE_BOUND_MEMORY, bound_name);
}

/* The toy's compute and network slopes are both 1 s: network over compute is 1, a
 * tie that counts as COMPUTE past the knee. The knee is W / (1 - L): 4 sequences
 * at no context, 8 at half a token. At L = 1 the KV slope equals the steeper roof's
 * exactly: no knee (a tie is no knee), batch 0, and memory binds at every batch. */
static void knee_ties_go_to_compute_and_to_no_knee(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    assert_close(moe_network_over_compute(&d), 1.0, TIGHT, "x");
    moe_knee k = moe_knee_batch(&d, 0);
    assert_true(k.exists);
    assert_named(k.after, MOE_BOUND_COMPUTE, bound_name);
    assert_close(k.batch, 4.0, TIGHT, "sequences");
    assert_close(moe_knee_batch(&d, 0.5).batch, 8.0, TIGHT, "sequences");
    moe_knee none = moe_knee_batch(&d, 1.0);
    assert_false(none.exists);
    assert_close(none.batch, 0.0, TIGHT, "sequences");
    assert_named(moe_step_at(&d, 1e6, 1.0).bound, MOE_BOUND_MEMORY, bound_name);
}

/* A model with no MoE layer sends nothing: network over compute is 0, and 100
 * sequences are 100 s of compute, against 4 s of weights: COMPUTE. */
static void no_moe_layer_means_no_network(void **state)
{
    (void)state;
    moe_deploy d = exact_toy();
    d.moe_layers = 0;
    assert_close(moe_network_over_compute(&d), 0.0, TIGHT, "x");
    moe_step s = moe_step_at(&d, 100, 0);
    assert_close(s.a2a_s, 0.0, TIGHT, "s");
    assert_close(s.a2a_dispatch_s_per_layer, 0.0, TIGHT, "s");
    assert_close(s.compute_s, 100.0, TIGHT, "s");
    assert_named(s.bound, MOE_BOUND_COMPUTE, bound_name);
}


/* ---- 2.5 two_racks ----------------------------------------------------------- */

/* lecture §2.3: with 2 racks half the tokens cross a network 8x slower, 0.5 x 8 = 4
 * when both halves overlap, 4 + 0.5 = 4.5 when they run one after the other. */
static void two_racks_over_the_lectures_8x_slower_link(void **state)
{
    (void)state;
    moe_racks r = moe_span_racks(2, 800e9, 100e9);
    assert_close(r.scaleup_over_scaleout, 8.0, TIGHT, "x");
    assert_close(r.cross_fraction, 0.5, TIGHT, "");
    assert_close(r.slowdown_overlap, 4.0, TIGHT, "x");
    assert_close(r.slowdown_serial, 4.5, TIGHT, "x");
}

/* GB200 NVL72 presets: NVLink 900e9 B/s against a 50e9 B/s NIC is 18x, not 8x, so two
 * racks cost 9x (9.5x serial). Four racks at 8x: 3/4 cross, 6x (6.25x). */
static void gb200_nics_and_four_racks(void **state)
{
    (void)state;
    moe_racks gb = moe_span_racks(2, 900e9, 50e9);
    assert_close(gb.slowdown_overlap, 0.5 * 18, TIGHT, "x");
    assert_close(gb.slowdown_serial, 0.5 * 18 + 0.5, TIGHT, "x");
    moe_racks four = moe_span_racks(4, 800e9, 100e9);
    assert_close(four.cross_fraction, 0.75, TIGHT, "");
    assert_close(four.slowdown_overlap, 0.75 * 8, TIGHT, "x");
    assert_close(four.slowdown_serial, 0.75 * 8 + 0.25, TIGHT, "x");
}

/* One rack crosses nothing; a scale-out link as fast as NVLink makes 2 racks no
 * slower per token than one (each GPU sends half in rack, half out, in parallel). */
static void one_rack_or_an_equal_link_costs_nothing_extra(void **state)
{
    (void)state;
    moe_racks one = moe_span_racks(1, 900e9, 50e9);
    assert_close(one.cross_fraction, 0.0, TIGHT, "");
    assert_close(one.slowdown_overlap, 1.0, TIGHT, "x");
    assert_close(one.slowdown_serial, 1.0, TIGHT, "x");
    moe_racks equal = moe_span_racks(2, 900e9, 900e9);
    assert_close(equal.slowdown_overlap, 0.5, TIGHT, "x");
    assert_close(equal.slowdown_serial, 1.0, TIGHT, "x");
}

/* The step on 2 racks: the same batch over twice the GPUs halves compute; per token,
 * the all-to-all grows by the overlapped slowdown, so at the same batch it is
 * slowdown / 2 times the one-rack time. */
static void two_racks_halve_compute_and_multiply_the_network_time(void **state)
{
    (void)state;
    moe_deploy one = deepseek_on_nvl72(), two = deepseek_on_nvl72();
    two.racks = 2;
    two.gpus = 64; /* 128 experts per rack, 2 per GPU */
    moe_step s1 = moe_step_at(&one, 8192, 0), s2 = moe_step_at(&two, 8192, 0);
    assert_close(s2.compute_s, s1.compute_s / 2, TIGHT, "s");
    assert_close(s2.a2a_s, s1.a2a_s * (0.5 * 18) / 2, TIGHT, "s");
    assert_close(moe_network_over_compute(&two), 9 * moe_network_over_compute(&one), TIGHT,
                 "x");
    assert_int_equal(s2.bound, MOE_BOUND_NETWORK);
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

/* Ten fair coins: P(X > 7) = (45 + 10 + 1) / 1024; P(X > 4) = 1 - 386 / 1024. */
static void binomial_tail_of_ten_fair_coins(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(10, 0.5, 7), 56.0 / 1024, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, 4), 638.0 / 1024, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, -1), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, 10), 0.0, TIGHT, "");
}

/* By hand: 4 tokens, 4 experts, 2 each, so X ~ Binomial(4, 1/2) (1, 4, 6, 4, 1 / 16).
 * Capacity 2 drops E[(X - 2)+] = (4 + 2) / 16 per expert: 4 x 6/16 of 8 assignments. */
static void expected_drops_are_the_excess_over_capacity(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(4, 4, 2, 2), 4 * (6.0 / 16) / 8, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 3), 4 * (1.0 / 16) / 8, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 0), 1.0, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 4), 0.0, TIGHT, "");
}

/* The same case: capacity 2 drops 3/16, 3 drops 1/32, 4 nothing; the smallest
 * capacity under 20% is 2, under 5% is 3, under 1% is 4. */
static void capacity_for_a_drop_target_is_the_smallest_that_meets_it(void **state)
{
    (void)state;
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.20), 2);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.05), 3);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.01), 4);
}

/* By hand: 2 tokens, 2 experts, 1 each. Loads (X, 2 - X), so E[max] = 2/4 + 1/2 + 2/4
 * = 1.5. P(X > 0) = 3/4, P(X > 1) = 1/4: lower = (1 - 1/16) + (1 - 9/16) = 1.375,
 * upper = min(1, 3/2) + min(1, 1/2) = 1.5. */
static void busiest_expert_bounds_bracket_an_enumerated_case(void **state)
{
    (void)state;
    moe_max_bounds m = moe_expected_max_load(2, 2, 1);
    assert_close(m.lower, 1.375, TIGHT, "tokens");
    assert_close(m.upper, 1.5, TIGHT, "tokens");
    /* one expert's load is Binomial(2, 1/2): variance 2 x 1/2 x 1/2 */
    assert_close(m.sd, sqrt(0.5), TIGHT, "tokens");
    /* DeepSeek's routing at 8,192 tokens: Binomial(8192, 8/256), sd sqrt(8192 p (1 - p)) */
    assert_close(moe_expected_max_load(8192, 256, 8).sd, sqrt(8192 * (8.0 / 256) * (248.0 / 256)),
                 TIGHT, "tokens");
}

/* The tail's edges: P(X > n - 1) = p^n, P(X > n) = 0, P(X > -1) = 1; p = 0 puts X at
 * 0 and p = 1 at n; no tokens, no load. */
static void binomial_tail_at_its_edges(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(10, 0.25, 9), pow(0.25, 10), TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, 10), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, 1000), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, -5), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.0, 0), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 1.0, 9), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(0, 0.5, 0), 0.0, TIGHT, "");
}

/* Far in the tail: 100 fair coins all heads is 2^-100 = 7.9e-31 and 99 or more is
 * 101 x 2^-100. Subtracting from 1 would give 0; summing the tail keeps them. */
static void a_tail_of_1e_minus_30_is_accurate(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(100, 0.5, 99), ldexp(1.0, -100), 1e-9, "");
    assert_close(moe_binomial_tail(100, 0.5, 98), 101 * ldexp(1.0, -100), 1e-9, "");
}

/* Dense routing, k = E: every load is the batch, so capacity c drops (B - c) / B of
 * the assignments exactly: 10 tokens at capacity 7 drop 0.3. For 1% of 100 tokens,
 * capacity 99 drops exactly 1%, which is not below it: the answer is 100. */
static void dense_routing_drops_exactly_the_excess(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(10, 4, 4, 7), 0.3, TIGHT, "");
    assert_close(moe_expected_drop_fraction(10, 4, 4, 10), 0.0, TIGHT, "");
    assert_close(moe_expected_drop_fraction(10, 4, 4, 25), 0.0, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(100, 4, 4, 0.01), 100);
    assert_int_equal(moe_capacity_for_drop(100, 4, 4, 0.0101), 99);
}

/* The hand case of expected_drops_are_the_excess_over_capacity: capacity 2 drops
 * 3/16 = 0.1875 exactly, so a target of 0.1875 needs capacity 3 (strictly below). */
static void a_drop_equal_to_the_target_is_not_enough(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(4, 4, 2, 2), 0.1875, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.1875), 3);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.1876), 2);
}

/* Dense routing: every load is exactly the batch, so both bounds are the batch. */
static void dense_routing_makes_both_bounds_the_batch(void **state)
{
    (void)state;
    moe_max_bounds m = moe_expected_max_load(5, 3, 3);
    assert_close(m.lower, 5.0, TIGHT, "tokens");
    assert_close(m.upper, 5.0, TIGHT, "tokens");
}


/* ---- 2.9 routing_simulation -------------------------------------------------- */

/* Each token adds 1 to k different experts: loads sum to B k, and with k = E every
 * expert gets every token. */
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

/* Every expert equally likely: with E = 4, k = 2 each load is Binomial(B, 1/2); over 40
 * batches of 10,000 each expert's mean is 5,000 within 5 x 50 / sqrt(40). */
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
    double se = sqrt(10000 * 0.5 * 0.5) / sqrt(40);
    for (int j = 0; j < 4; j++)
        assert_between(sum[j] / 40, 5000 - 5 * se, 5000 + 5 * se, "tokens");
}

/* Binomial(100, 1/2) has variance 25; picking with replacement would give
 * Binomial(200, 1/4), variance 37.5. 4,000 batches: 5 standard errors of a sample
 * variance, 25 x 5 x sqrt(2 / 3999) = 2.8. */
static void one_experts_load_has_binomial_variance(void **state)
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
    double tol = 25 * 5 * sqrt(2.0 / (trials - 1));
    assert_between(var, 25 - tol, 25 + tol, "tokens^2");
}

/* The closed forms the simulation is held to, computed here (not by the reader's
 * exercise 2.8, whose mistakes or slowness would otherwise show up as a failed or
 * hung simulation test): one expert's load is Binomial(n, p), p = k / E. */
static double ref_pmf(int n, double p, int x)
{
    return exp(lgamma(n + 1.0) - lgamma(x + 1.0) - lgamma(n - x + 1.0) + x * log(p) +
               (n - x) * log1p(-p));
}

/* Expected drops over all n k assignments at capacity c: E E[(X - c)+] / (n k). */
static double ref_drop_fraction(int n, int experts, int k, int c)
{
    double p = (double)k / experts, excess = 0.0;
    for (int x = n; x > c; x--)
        excess += (x - c) * ref_pmf(n, p, x);
    return experts * excess / ((double)n * k);
}

/* The smallest capacity whose expected drops are strictly below max_drop (drops
 * fall as the capacity grows: bisection). */
static int ref_capacity_for_drop(int n, int experts, int k, double max_drop)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ref_drop_fraction(n, experts, k, mid) < max_drop)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* E[max] = sum over c of P(max > c), bounded below as if the loads were
 * independent, 1 - (1 - P(X > c))^E, and above by the union bound min(1, E P(X > c)). */
static void ref_max_bounds(int n, int experts, int k, double *lower, double *upper)
{
    double p = (double)k / experts, tail = 0.0;
    *lower = *upper = 0.0;
    for (int c = n - 1; c >= 0; c--) {
        tail = fmin(1.0, tail + ref_pmf(n, p, c + 1));
        *lower += -expm1(experts * log1p(-tail));
        *upper += fmin(1.0, experts * tail);
    }
}

/* DeepSeek's routing at B = 4,096 (mean 128): the busiest expert's mean load lies
 * between the closed-form bounds, give or take 5 standard errors (a load's sd,
 * sqrt(128 x 31/32), over sqrt(400 trials), bounds the max's). */
static void busiest_expert_lies_between_the_closed_form_bounds(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(42, 256, 8, 4096, 400, 1.0);
    assert_true(m.ok);
    assert_close(m.mean_load, 128.0, TIGHT, "tokens");
    double lower, upper;
    ref_max_bounds(4096, 256, 8, &lower, &upper);
    double se = sqrt(128.0 * 31 / 32) / sqrt(400);
    assert_between(m.max_load_over_mean, (lower - 5 * se) / 128, (upper + 5 * se) / 128,
                   "x");
}

/* Drops at capacity factor 1 (capacity 128) match the exact expectation within 3%
 * (5 standard errors); the simulated 1% capacity is the exact one, +-1 token. */
static void simulated_drops_match_the_binomial_expectation(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(7, 256, 8, 4096, 400, 1.0);
    assert_true(m.ok);
    assert_int_equal(m.capacity, 128);
    double exact = ref_drop_fraction(4096, 256, 8, 128);
    assert_close(m.drop_fraction, exact, 0.03, "");
    double c99 = ref_capacity_for_drop(4096, 256, 8, 0.01);
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
 * the batch grows (the sd over the mean falls as 1 / sqrt(B k / E)). */
static void imbalance_shrinks_as_the_batch_grows(void **state)
{
    (void)state;
    moe_imbalance small = moe_simulate(11, 256, 8, 256, 200, 1.0);
    moe_imbalance large = moe_simulate(11, 256, 8, 65536, 20, 1.0);
    assert_true(small.max_load_over_mean > large.max_load_over_mean);
    double lower, upper;
    ref_max_bounds(65536, 256, 8, &lower, &upper);
    double se = sqrt(2048.0 * 31 / 32) / sqrt(20);
    assert_between(large.max_load_over_mean, (lower - 5 * se) / 2048,
                   (upper + 5 * se) / 2048, "x");
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

/* lecture §2.5: 8 Hoppers hold 8 x 80 GB = 640 GB; a GB200 NVL72 72 x 186 GB. */
static void hopper_tray_holds_640_gb_and_an_nvl72_13_tb(void **state)
{
    (void)state;
    assert_close(moe_domain_hbm_bytes(8, 80e9), 640e9, TIGHT, "B");
    assert_close(moe_domain_hbm_bytes(72, 186e9), 13.392e12, TIGHT, "B");
}

/* Closed form: N = H / (bytes + r L b_kv / N_active). Without context, HBM over
 * bytes per parameter: an NVL72 holds 26.8e12 fp4 parameters. */
static void largest_model_shares_hbm_with_its_batchs_caches(void **state)
{
    (void)state;
    double h = 72 * 186e9, r = 312.5;
    moe_largest bare = moe_largest_model(h, 0.5, r, 0, 35136.0, 37e9);
    assert_true(bare.exists);
    assert_close(bare.params_total, h / 0.5, TIGHT, "params");
    moe_largest kv = moe_largest_model(h, 0.5, r, 4096, 35136.0, 37e9);
    double n = h / (0.5 + r / 37e9 * 4096 * 35136.0);
    assert_true(kv.exists);
    assert_close(kv.params_total, n, TIGHT, "params");
    assert_close(kv.sparsity, n / 37e9, TIGHT, "");
    assert_close(kv.batch, r * n / 37e9, TIGHT, "sequences");
    assert_close(kv.kv_bytes + 0.5 * n, h, TIGHT, "B");
}

/* A model whose active parameters and their batch's caches alone overflow the
 * domain has no answer: 8 x 80 GB cannot hold N_active = 400e9 in bf16. */
static void no_model_fits_when_even_the_active_part_overflows(void **state)
{
    (void)state;
    assert_false(moe_largest_model(640e9, 2.0, 295, 0, 0, 400e9).exists);
    assert_true(moe_largest_model(640e9, 2.0, 295, 0, 0, 300e9).exists);
}

/* The boundary: with no context, HBM of exactly N_active x bytes holds the model
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

/* lecture §1.8 (Clark et al. 2022): 64 experts at 370M active ~ a dense 1.3B; the
 * cube root of 64 is 4, so 370M x 4 = 1.48e9, within 15% of 1.3e9. */
static void sixty_four_experts_at_370m_match_about_a_dense_1_3b(void **state)
{
    (void)state;
    assert_close(moe_dense_equivalent_params(370e6, 64), 370e6 * 4, TIGHT, "params");
    assert_close(moe_dense_equivalent_params(370e6, 64), 1.3e9, 0.15, "params");
    assert_close(moe_dense_equivalent_params(1e9, 1), 1e9, TIGHT, "params");
}

/* lecture §1.8: halving active parameters at equal quality costs 8x the experts. */
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
 * sending one byte an element. Per GPU: 2^40 FLOP/s, 2^36 B/s of HBM, 2^36 B/s of
 * NVLink and of NIC. On G GPUs a sequence adds 2 x 2^30 / (G 2^40) = 2^-9 / G s of
 * compute; the weights take 2^33 / (G 2^36) = 2^-3 / G s to read; the all-to-all,
 * 4,096 bytes a sequence, adds 2^-24 / G s on one rack: it never binds. */
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

/* §2.10 (The cheapest layout for a latency target), with no context: the 2^33 weights need 2 GPUs of 2^32 bytes (filling them
 * exactly fits; 1 GPU cannot hold them). Every layout of 2, 4 or 8 GPUs is then
 * compute-bound at the 1/8 s target, with B = 2^-3 / (2^-9 / G) = 64 G sequences,
 * and costs the same per token, G p / 3600 x 2^-3 / (64 G): the tie goes to the
 * fewest GPUs, 2, each holding 4 experts, at 128 sequences. */
static void compute_bound_layouts_cost_the_same_and_the_fewest_gpus_win(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_FOUND);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, 2);
    assert_int_equal(l.experts_per_gpu, 4);
    assert_close(l.batch, 128.0, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(l.step.step_s, 0x1p-3, TIGHT, "s");
    assert_close(l.tokens_per_s, 128 / 0x1p-3, TIGHT, "tokens/s");
    assert_close(l.usd_per_token, 2 * 3.6 / 3600 * 0x1p-3 / 128, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target), moe.h's "filling it exactly fits"
 * with caches: 1,024 tokens of 2^20 bytes are 2^30 bytes of cache a sequence, and a
 * rack of 2 GPUs of 2^32 + 2^31 bytes holds the 2^33 weights and room for exactly
 * 2^32 / 2^30 = 4 caches (every number a power of two or a sum of two, exact in
 * doubles in any order). One GPU cannot hold the weights. In time the batch could be
 * larger: compute 2^-10 s a sequence (cap 128), KV 2^30 / (2 x 2^36) = 2^-7 s after
 * the weights' 2^33 / (2 x 2^36) = 2^-4 s (cap (2^-3 - 2^-4) / 2^-7 = 8). So B = 4,
 * memory-bound: 2^-4 + 4 x 2^-7 = 3 x 2^-5 s a step. */
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
    assert_close(l.batch, 4.0, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_MEMORY, bound_name);
    assert_close(l.step.step_s, 3 * 0x1p-5, TIGHT, "s");
    assert_close(l.usd_per_token, 2 * 3.6 / 3600 * (3 * 0x1p-5) / 4, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target) at a long context: 1,024 tokens of 2^20 bytes, a GiB of cache a sequence,
 * on GPUs of 2^34 bytes. The KV fetch, 2^30 / (G 2^36) = 2^-6 / G s a sequence, now
 * binds: B = (2^-3 - 2^-3 / G) / (2^-6 / G) = 8 (G - 1), below both the compute cap
 * 64 G and the HBM cap (G 2^34 - 2^33) / 2^30 = 16 G - 8. One GPU has no time left
 * for any cache; on G GPUs a token costs G p / 3600 x 2^-3 / (8 (G - 1)), which
 * falls as G grows: all 8 GPUs, 56 sequences, memory-bound. */
static void at_long_context_more_gpus_hold_a_cheaper_batch(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.context_tokens = 1024;
    q.hbm_bytes = 0x1p34;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, 8);
    assert_int_equal(l.experts_per_gpu, 1);
    assert_close(l.batch, 56.0, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_MEMORY, bound_name);
    assert_close(l.step.step_s, 0x1p-3, TIGHT, "s");
    assert_close(l.usd_per_token, 8 * 3.6 / 3600 * 0x1p-3 / 56, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target) and §2.5 (Two racks): GPUs of 2^30 bytes need all 8 to hold the weights, but a rack has
 * only 4: the one layout is 2 racks of 4, one expert a GPU. Its NIC moves 2^19 B/s:
 * half of each sequence's 4,096 bytes, spread over 8 GPUs, crosses at
 * 2^12 / 8 x (1/2) / 2^19 = 2^-11 s a sequence, twice the compute's 2^-12. The
 * network caps the batch at 2^-3 / 2^-11 = 256 sequences. With one rack allowed
 * there is no layout at all. */
static void when_the_weights_need_two_racks_the_network_sets_the_batch(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.hbm_bytes = 0x1p30;
    q.domain_chips = 4;
    q.max_racks = 2;
    q.model.scaleout_bytes_per_s = 0x1p19;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 2);
    assert_int_equal(l.gpus_per_rack, 4);
    assert_int_equal(l.experts_per_gpu, 1);
    assert_close(l.batch, 256.0, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_NETWORK, bound_name);
    assert_close(l.usd_per_token, 8 * 3.6 / 3600 * 0x1p-3 / 256, TIGHT, "USD");
    q.max_racks = 1;
    assert_false(moe_cheapest_layout(&q).exists);
}

/* The second tie rule: GPUs of 2^30 bytes need 8 of them, and a rack has 8. One
 * rack of 8, 2 of 4, 4 of 2 and 8 of 1 all use 8 GPUs, are compute-bound at 512
 * sequences (the NIC is as fast as NVLink) and cost the same: the fewest racks win. */
static void the_same_gpus_in_fewer_racks_win_a_tie(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.hbm_bytes = 0x1p30;
    q.max_racks = 8;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, 8);
    assert_close(l.batch, 512.0, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
}

/* The running example, §2.10 (The cheapest layout for a latency target): DeepSeek-V3 (671e9 and 37e9 parameters, published)
 * in fp4 on GB200 GPUs (10e15 FLOP/s, 8e12 B/s, 186e9 B), 1,024 tokens of fp4 MLA
 * cache (61 x 576 x 0.5 = 17,568 B a token), $2 a GPU-hour, a 20 ms step. No layout
 * beats the compute-bound cost, p / 3600 x 2 N_active / F a token (a step is at
 * least B times the compute each sequence adds). One or two GPUs cannot read the
 * 335.5 GB of weights in 20 ms (2 GPUs take 21 ms); 4 can (10.5 ms), and at
 * B = floor(20 ms / (2 N_active / (4 F))) = 10,810 they are compute-bound (memory
 * 16.6 ms), with 4 x 186 GB holding the weights and 195 GB of caches. So: 4 GPUs,
 * 64 experts each. 8 to 64 GPUs cost the same but for rounding (the 8-GPU layout
 * comes out a part in 1e16 cheaper): only the contract's 1e-9 tie rule picks 4. */
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
    assert_int_equal(l.gpus_per_rack, 4);
    assert_int_equal(l.experts_per_gpu, 64);
    double slope = 2.0 * 37e9 / (4 * 10e15);
    assert_close(l.batch, floor(0.020 / slope), 1e-12, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(l.usd_per_token, 2.0 / 3600 * 2.0 * 37e9 / 10e15, 1e-12, "USD");
}

/* moe.h's rounding rule. On one GPU, 3e9 active parameters at 1e15 FLOP/s add
 * 6e-6 s a sequence. A 45 ms target divided by it is
 * 7499.999999999999 in doubles, yet 7,500 x 6e-6 is 0.045 exactly: the batch is
 * 7,500. A 15 ms target divided by it is 2500.0, yet 2,500 x 6e-6 is
 * 0.015000000000000001, over the target: the batch is 2,499. The contract's test is
 * moe_step_at's own step time, so the batch B must pass it and B + 1 must fail. */
static void a_batch_quotient_a_hair_off_a_whole_number_is_checked(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.model.params_total = 3e9;
    q.model.params_active = 3e9;
    q.model.flops_per_s = 1e15;
    q.model.hbm_bytes_per_s = 3e12; /* the weights: 1 ms */
    q.hbm_bytes = 1e12;
    q.domain_chips = 1;
    const double targets[] = {0.045, 0.015};
    for (int i = 0; i < 2; i++) {
        q.max_step_s = targets[i];
        moe_layout l = moe_cheapest_layout(&q);
        assert_true(l.exists);
        assert_int_equal(l.gpus_per_rack, 1);
        assert_close(l.batch, targets[i] / 6e-6, 1.0 / 2000, "sequences");
        assert_close(l.batch, floor(l.batch), 0.0, "sequences");
        moe_deploy d = q.model;
        d.gpus = 1;
        d.racks = 1;
        assert_true(moe_step_at(&d, l.batch, 0).step_s <= targets[i]);
        assert_false(moe_step_at(&d, l.batch + 1, 0).step_s <= targets[i]);
    }
}

/* No layout: below 1/64 s not even all 8 GPUs can read the weights (2^-3 / 8 =
 * 2^-6 s). Then exists is false, why is NONE_FITS and every number 0. A target of
 * exactly 2^-6 s is met (at most, not below): 8 GPUs, compute and weights both
 * 2^-6 s at B = 2^-6 / 2^-12 = 64. */
static void no_layout_when_the_weights_cannot_be_read_in_time(void **state)
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
    assert_int_equal(edge.gpus_per_rack, 8);
    assert_close(edge.batch, 64.0, TIGHT, "sequences");
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
 * rack, one active parameter (2 FLOPs a sequence) at F = 2^54 FLOP/s: compute adds
 * 2 / 2^54 = 2^-53 s a sequence, no KV, no network (no MoE layer), weights 1e-12 s.
 * Closed form: the largest batch within a target t is t / 2^-53 = t 2^53.
 *   t = 1 s:          2^53 exactly, met exactly (compute 1 s <= 1 s): not capped,
 *                     and not 2^53 - 1 (JavaScript's MAX_SAFE_INTEGER is not the cap);
 *   t = 1 + 2^-52 s:  (1 + 2^-52) 2^53 = 2^53 + 2, the next double past 2^53: capped
 *                     at 2^53;
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
        CHALK_TEST(three_roofs, compute_and_memory_roofs_are_chapter_1s_over_the_gpus_used),
        CHALK_TEST(three_roofs, network_roof_counts_every_moe_layer_both_ways),
        CHALK_TEST(three_roofs, a_step_reads_what_the_gpus_hbm_holds),
        CHALK_TEST(three_roofs, step_is_the_largest_of_three_roofs),
        CHALK_TEST(three_roofs, kv_fetch_counts_against_the_memory_roof),
        CHALK_TEST(three_roofs, network_over_compute_does_not_depend_on_the_batch),
        CHALK_TEST(three_roofs, knee_is_where_the_steeper_roof_meets_memory),
        CHALK_TEST(three_roofs, no_knee_when_the_kv_fetch_outgrows_both_roofs),
        CHALK_TEST(three_roofs, bound_names_are_the_three_roofs),
        CHALK_TEST(three_roofs, ties_between_roofs_go_to_compute),
        CHALK_TEST(three_roofs, an_empty_batch_only_reads_the_weights),
        CHALK_TEST(three_roofs, knee_ties_go_to_compute_and_to_no_knee),
        CHALK_TEST(three_roofs, no_moe_layer_means_no_network),
        CHALK_TEST(two_racks, two_racks_over_the_lectures_8x_slower_link),
        CHALK_TEST(two_racks, gb200_nics_and_four_racks),
        CHALK_TEST(two_racks, one_rack_or_an_equal_link_costs_nothing_extra),
        CHALK_TEST(two_racks, two_racks_halve_compute_and_multiply_the_network_time),
        CHALK_TEST(expert_batch, an_expert_sees_batch_times_k_over_e_tokens),
        CHALK_TEST(expert_batch, deepseek_experts_need_10000_sequences_on_gb200),
        CHALK_TEST(expert_batch, scaling_book_v5e_deepseek_needs_3840_tokens),
        CHALK_TEST(expert_batch, dense_routing_sends_every_token_to_every_expert),
        CHALK_TEST(rng, splitmix64_matches_its_published_outputs),
        CHALK_TEST(rng, rng_below_is_in_range_and_uniform),
        CHALK_TEST(rng, rng_below_has_no_modulo_bias),
        CHALK_TEST(load_closed_forms, binomial_tail_of_ten_fair_coins),
        CHALK_TEST(load_closed_forms, expected_drops_are_the_excess_over_capacity),
        CHALK_TEST(load_closed_forms, capacity_for_a_drop_target_is_the_smallest_that_meets_it),
        CHALK_TEST(load_closed_forms, busiest_expert_bounds_bracket_an_enumerated_case),
        CHALK_TEST(load_closed_forms, binomial_tail_at_its_edges),
        CHALK_TEST(load_closed_forms, a_tail_of_1e_minus_30_is_accurate),
        CHALK_TEST(load_closed_forms, dense_routing_drops_exactly_the_excess),
        CHALK_TEST(load_closed_forms, a_drop_equal_to_the_target_is_not_enough),
        CHALK_TEST(load_closed_forms, dense_routing_makes_both_bounds_the_batch),
        CHALK_TEST(routing_simulation, each_token_visits_k_distinct_experts),
        CHALK_TEST(routing_simulation, every_expert_is_equally_likely),
        CHALK_TEST(routing_simulation, one_experts_load_has_binomial_variance),
        CHALK_TEST(routing_simulation, busiest_expert_lies_between_the_closed_form_bounds),
        CHALK_TEST(routing_simulation, simulated_drops_match_the_binomial_expectation),
        CHALK_TEST(routing_simulation, the_same_seed_gives_the_same_routing),
        CHALK_TEST(routing_simulation, imbalance_shrinks_as_the_batch_grows),
        CHALK_TEST(routing_simulation, routing_writes_exactly_the_experts_loads),
        CHALK_TEST(routing_simulation, capacity_rounds_the_factor_times_the_mean_down_forgivingly),
        CHALK_TEST(routing_simulation, dense_routing_needs_every_token_of_capacity_for_1_percent),
        CHALK_TEST(rack_capacity, hopper_tray_holds_640_gb_and_an_nvl72_13_tb),
        CHALK_TEST(rack_capacity, largest_model_shares_hbm_with_its_batchs_caches),
        CHALK_TEST(rack_capacity, no_model_fits_when_even_the_active_part_overflows),
        CHALK_TEST(rack_capacity, a_domain_exactly_full_of_active_weights_is_an_answer),
        CHALK_TEST(routed_scaling, sixty_four_experts_at_370m_match_about_a_dense_1_3b),
        CHALK_TEST(routed_scaling, halving_active_parameters_costs_8x_the_experts),
        CHALK_TEST(cheapest_layout, compute_bound_layouts_cost_the_same_and_the_fewest_gpus_win),
        CHALK_TEST(cheapest_layout, caches_that_fill_the_hbm_exactly_fit),
        CHALK_TEST(cheapest_layout, at_long_context_more_gpus_hold_a_cheaper_batch),
        CHALK_TEST(cheapest_layout, when_the_weights_need_two_racks_the_network_sets_the_batch),
        CHALK_TEST(cheapest_layout, the_same_gpus_in_fewer_racks_win_a_tie),
        CHALK_TEST(cheapest_layout, deepseek_at_a_20_ms_step_on_one_rack),
        CHALK_TEST(cheapest_layout, a_batch_quotient_a_hair_off_a_whole_number_is_checked),
        CHALK_TEST(cheapest_layout, no_layout_when_the_weights_cannot_be_read_in_time),
        CHALK_TEST(cheapest_layout, the_batch_reaches_2_to_the_53_and_stops_there),
        CHALK_TEST(cheapest_layout, a_query_out_of_range_has_no_layout),
    };
    return cmocka_run_group_tests_name("02-moe", tests, NULL, NULL);
}
