/*
 * report.h -- what the writers share (record.c, report.c, table.c); not for the
 * chapters' files, which use chalk.h.
 */
#ifndef CHALK_REPORT_H
#define CHALK_REPORT_H

#include "chalk.h"

/* NULL when r may be printed; else the key of its first number that is not finite.
 * *unexplained is set when a null result has no reason beside it, or the record
 * overflowed (a bug of the command's, never of the input's). */
const char *chalk_check_record(const chalk_record *r, bool *unexplained);

/* The rows of a report as the writers see them: all built and checked before
 * anything is printed, kept when there are few, built again when a table of many
 * asks (JSON and CSV of many: report.c, emit_long); --columns applied. */
typedef struct chalk_rows chalk_rows;

/* Row i; the record stays valid until the next call. */
const chalk_record *chalk_row(chalk_rows *rows, long i);

/* The report as a table for humans (a list or a sweep: aligned columns). */
void chalk_emit_table(const chalk_report *rep, chalk_rows *rows);

#endif /* CHALK_REPORT_H */
