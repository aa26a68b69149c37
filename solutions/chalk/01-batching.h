/*
 * 01-batching.h -- what chapter 1's calculator file shares with the chapters that
 * compute a decode step with chapter 1's reference (03-pipelining.c).
 */
#ifndef CHALK_01_BATCHING_H
#define CHALK_01_BATCHING_H

#include "batching.h"
#include "chalk.h"

/* The deployment in chapter 1's own type (the expert counts from a preset model). */
batching_deploy chalk_batching_deploy(const chalk_deploy *d);

#endif /* CHALK_01_BATCHING_H */
