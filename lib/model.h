/*
 * model.h -- transformer presets and their shape arithmetic.
 *
 * A preset holds a model's published shape (layers, widths, heads, experts); the
 * functions derive what the cost model needs from it:
 *
 *   params_total    every weight that must sit in memory (and be fetched each step)
 *   params_active   the weights one token multiplies through (top-k experts only)
 *   flops_per_token 2 x params_active: one multiply-accumulate per active weight,
 *                   2 FLOPs per MAC; attention's own FLOPs are left out, as in the lecture
 *   kv_bytes        K and V kept for one token of context, summed over layers
 *
 * Counting conventions: attention Q, K, V, O projections (or DeepSeek's MLA
 * down/up projections), a GELU MLP as 2 matrices of d x d_ff, a SwiGLU MLP as 3,
 * MoE experts as SwiGLU MLPs of width d_ff_expert plus a d x experts router,
 * two norm vectors per layer and one final norm, input and output embeddings
 * (once if tied). Biases and positional tables are left out; they are below 0.1%
 * for every preset here.
 */
#ifndef COST_MODEL_H
#define COST_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "base.h"

typedef enum cost_attn_kind {
    COST_ATTN_GQA, /* grouped-query; MHA when kv_heads == heads, MQA when 1 */
    COST_ATTN_MLA, /* DeepSeek multi-head latent attention: caches a latent */
} cost_attn_kind;

typedef enum cost_mlp_kind {
    COST_MLP_GELU,   /* up, down: 2 matrices */
    COST_MLP_SWIGLU, /* gate, up, down: 3 matrices */
} cost_mlp_kind;

typedef struct cost_model {
    const char *name;    /* preset key, e.g. "llama3-70b" */
    const char *title;   /* e.g. "Llama 3 70B" */
    const char *source;  /* where the shape comes from */
    int layers;
    int d_model;
    int heads;           /* query heads */
    int kv_heads;        /* GQA: K/V heads (== heads for MHA, 1 for MQA) */
    int head_dim;        /* GQA: per-head width; MLA: the non-RoPE q/k width */
    int vocab;
    bool tied_embeddings;
    cost_attn_kind attn;
    cost_mlp_kind mlp;
    int d_ff;            /* hidden width of the dense MLP */
    /* MLA only (DeepSeek-V2/V3) */
    int q_lora_rank;     /* 0: queries are projected directly */
    int kv_lora_rank;    /* width of the cached latent */
    int rope_head_dim;   /* decoupled RoPE key width, cached once per token */
    int v_head_dim;
    /* MoE only: experts_routed == 0 means a dense model */
    int dense_layers;    /* leading layers that keep a dense MLP */
    int experts_routed;
    int experts_shared;  /* always active */
    int experts_active;  /* routed experts chosen per token (top-k) */
    int d_ff_expert;
    cost_dtype dtype;    /* the precision the weights were published in */
} cost_model;

/* Every preset, in a fixed order; *count receives their number. */
const cost_model *const *cost_model_presets(size_t *count);

/* The preset named `name` (case-insensitive), or NULL when there is none. */
const cost_model *cost_model_find(const char *name);

/* All parameters (a count, not bytes). */
double cost_model_params_total(const cost_model *m);

/* Parameters one token multiplies through: everything but the routed experts it
 * does not visit. Equals params_total for a dense model. */
double cost_model_params_active(const cost_model *m);

/* N_total / N_active: 1 for a dense model. */
double cost_model_sparsity(const cost_model *m);

/* Weight FLOPs per generated token: 2 x params_active. */
double cost_model_flops_per_token(const cost_model *m);

/* Elements cached per token of context, summed over layers:
 * GQA 2 x layers x kv_heads x head_dim; MLA layers x (kv_lora_rank + rope_head_dim). */
double cost_model_kv_elements_per_token(const cost_model *m);

/* Bytes cached per token of context with each element stored as `dtype`. */
double cost_model_kv_bytes_per_token(const cost_model *m, cost_dtype dtype);

#endif /* COST_MODEL_H */
