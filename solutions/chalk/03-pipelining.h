/*
 * 03-pipelining.h -- what chapter 3's calculator files share (03-pipelining.c holds
 * the chapter's table and its commands on hops, bubbles and decode loops;
 * 03-pipelining-split.c those on a model split over racks: pipeline-memory and
 * pipeline-split).
 */
#ifndef CHALK_03_PIPELINING_H
#define CHALK_03_PIPELINING_H

#include "chalk.h"
#include "pipelining.h"

/* --step-s (a decode step on one rack) and --hop-s (one hop between racks), which
 * decode-pipelined and pipeline-split both take. */
extern const chalk_flag pipelining_step_flag, pipelining_hop_flag;

/* --expert-parallel (GPUs per stage) and --microbatch (sequences per micro-batch),
 * which pipeline-memory and pipeline-split both take. */
extern const chalk_flag pipelining_expert_parallel_flag, pipelining_microbatch_flag;

/* --stages and --microbatches, which several commands take. */
extern const chalk_flag pipelining_stages_flag, pipelining_microbatches_flag;

/* chalk pipeline-memory (the capacity equation, lecture 64:06-72:48) and chalk
 * pipeline-split (§3.7 (The best split of a model over racks), past the lecture) */
extern const chalk_command pipelining_memory_cmd, pipelining_split_cmd;

#endif /* CHALK_03_PIPELINING_H */
