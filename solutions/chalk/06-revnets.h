/*
 * 06-revnets.h -- what chapter 6's calculator files share (06-revnets.c holds the
 * chapter's table and its commands on ciphers, avalanche and RevNets;
 * 06-revnets-memory.c those on a transformer's activation memory).
 */
#ifndef CHALK_06_REVNETS_H
#define CHALK_06_REVNETS_H

#include "chalk.h"
#include "revnets.h"

/* activation-memory (6.7), checkpoint-plan (6.8) */
extern const chalk_command revnets_activation_memory_cmd, revnets_checkpoint_plan_cmd;

#endif /* CHALK_06_REVNETS_H */
