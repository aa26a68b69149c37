/*
 * report.h -- what the report's files share (record.c, table.c, report.c); not for
 * the chapters' files, which use chalk.h.
 */
#ifndef CHALK_REPORT_H
#define CHALK_REPORT_H

#include "chalk.h"

/* CHALK_OK, or CHALK_USAGE after the error line: a result that is not finite is
 * refused; an absent result without its reason is a bug of the command (asserted). */
int chalk_check_record(const chalk_record *r);

/* The report as a table for humans (a list or a sweep: aligned columns). */
int chalk_emit_table(const chalk_report *rep, chalk_record *r);

#endif /* CHALK_REPORT_H */
