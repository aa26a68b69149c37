/*
 * cost.h -- the Chalk cost library: include this one header.
 *
 *   base.h      units, precisions, COST_ASSERT
 *   hw.h        accelerator presets (FLOP/s, HBM, scale-up and scale-out links, price)
 *   model.h     model presets and shape arithmetic (parameters, FLOPs, KV bytes)
 *   roofline.h  time = max(FLOPs / peak, bytes / bandwidth)
 *   numeric.h   bisection, monotone integer search, relative comparison
 *   price.h     API price presets, dated (USD per million tokens)
 *   tier.h      memory-tier presets: HBM, DDR, NVMe flash, hard disk
 *   scaling.h   scaling-law fits (Chinchilla and its refit) and published training runs
 *
 * The library knows no chapter: chapter math lives in exercises/NN-topic/topic.h.
 * Pure functions, no allocation, no globals but const presets, no exit().
 */
#ifndef COST_COST_H
#define COST_COST_H

#include "base.h"
#include "hw.h"
#include "model.h"
#include "numeric.h"
#include "price.h"
#include "roofline.h"
#include "tier.h"
#include "scaling.h"

#endif /* COST_COST_H */
