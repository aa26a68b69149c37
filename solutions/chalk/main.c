/*
 * main.c -- the chalk command line: help, and argv to a command (core.c runs it).
 *
 *   chalk COMMAND [flags]         run a command (chalk --help lists them)
 *   chalk help COMMAND            a command's help (or chalk COMMAND --help)
 *
 * The commands are the shared ones (list, show, flags, check-answers) followed by
 * each chapter's, from chalk_chapters: the Makefile passes the chapters' names as
 * -DCHALK_CHAPTERS="X(01_batching) X(02_moe) ...", one per solutions/chalk/NN-topic.c.
 * Output goes through stdio with a large buffer; a write that fails (a full disk, a
 * closed stdout) is an error, never silent.
 */
#define _POSIX_C_SOURCE 200809L /* fcntl */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chalk.h"

#ifndef CHALK_CHAPTERS
#define CHALK_CHAPTERS /* no chapters: the shared commands alone */
#endif
#define X(name) extern const chalk_chapter chalk_chapter_##name;
CHALK_CHAPTERS
#undef X
#define X(name) &chalk_chapter_##name,
const chalk_chapter *const chalk_chapters[] = {CHALK_CHAPTERS NULL};
#undef X

static const chalk_command *const SHARED[] = {&chalk_cmd_list, &chalk_cmd_show, &chalk_cmd_flags,
                                              &chalk_cmd_check_answers, NULL};

const chalk_command *chalk_each_command(size_t i)
{
    size_t n = 0;
    for (const chalk_command *const *c = SHARED; *c; c++, n++)
        if (n == i)
            return *c;
    for (const chalk_chapter *const *ch = chalk_chapters; *ch; ch++)
        for (const chalk_command *const *c = (*ch)->commands; *c; c++, n++)
            if (n == i)
                return *c;
    return NULL;
}

static const chalk_command *find_command(const char *name)
{
    const chalk_command *c;
    for (size_t i = 0; (c = chalk_each_command(i)) != NULL; i++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

enum { MAX_COMMANDS = 128 };

static int unknown_command(const char *name)
{
    const char *names[MAX_COMMANDS + 1];
    size_t n = 0;
    const chalk_command *c;
    for (size_t i = 0; n < MAX_COMMANDS && (c = chalk_each_command(i)) != NULL; i++)
        names[n++] = c->name;
    names[n++] = "help";
    char hint[1024];
    chalk_suggest(hint, sizeof hint, name, names, n);
    return chalk_fail("unknown command \"%s\"%s; see chalk --help", name, hint);
}

/* ---- help ------------------------------------------------------------------------------- */

/* Prints `text` from column `indent`, wrapped before column `width`. */
static void print_wrapped(const char *text, int indent, int width)
{
    int col = indent;
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (col > indent && col + 1 + word > width) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", word, text);
        col += word;
        text += word;
        while (*text == ' ')
            text++;
    }
    putchar('\n');
}

/* A flag as help lists it: the flag, and the command's words for it. */
typedef struct help_line {
    const chalk_flag *flag;
    const char *help;
} help_line;

enum { MAX_HELP_LINES = 128 };

/* The help lines of `inputs` (ended by a NULL flag) then the output flags, each once. */
static int help_lines(const chalk_input *inputs, help_line *lines)
{
    int n = 0;
    for (const chalk_input *in = inputs; in && in->flag && n < MAX_HELP_LINES; in++)
        lines[n++] = (help_line){in->flag, in->help ? in->help : in->flag->help};
    for (const chalk_flag *const *f = chalk_output_flags; *f && n < MAX_HELP_LINES; f++)
        lines[n++] = (help_line){*f, (*f)->help};
    return n;
}

static void print_flag(const help_line *l)
{
    char left[48];
    snprintf(left, sizeof left, "%s%s%s", l->flag->name, l->flag->arg ? " " : "",
             l->flag->arg ? l->flag->arg : "");
    printf("  %-24s ", left);
    print_wrapped(l->help, 27, 80);
}

/* The lines grouped under their headings, in order of first appearance. */
static void print_flags(const help_line *lines, int n)
{
    const char *groups[32];
    int ngroups = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int g = 0; g < ngroups; g++)
            seen = seen || strcmp(groups[g], lines[i].flag->group) == 0;
        if (!seen && ngroups < 32)
            groups[ngroups++] = lines[i].flag->group;
    }
    for (int g = 0; g < ngroups; g++) {
        printf("\n%s:\n", groups[g]);
        for (int i = 0; i < n; i++)
            if (strcmp(lines[i].flag->group, groups[g]) == 0)
                print_flag(&lines[i]);
    }
}

static bool takes_sweeps(const chalk_command *c)
{
    for (const chalk_input *in = c->inputs; in && in->flag; in++)
        if (in->rules & CHALK_SWEEPS)
            return true;
    return false;
}

static void print_conventions(bool sweeps)
{
    if (sweeps) {
        puts("\nsweeps: --batch 1:4096 is 64 points spaced geometrically from 1 to 4096");
        puts("  inclusive; 1:4096:13 is 13 points; 0:4096:17:linear is 17 evenly spaced;");
        puts("  1,2,4,8 is a list (with a range in it, sorted: 1:4096:13,3000). One");
        puts("  variable at a time.");
    }
    puts("numbers: 671e9, 2048, 0.5. SI units throughout: seconds, bytes, FLOP/s,");
    puts("  bytes/s, USD; FLOPs count 2 per multiply-accumulate. Flags may come in any");
    puts("  order, as --flag VALUE or --flag=VALUE; an override beats its preset.");
    puts("errors: one line on stderr, \"chalk: error: ...\", and exit status 2.");
}

static const char *synopsis(const chalk_command *c)
{
    return c->synopsis ? c->synopsis : "[flags]";
}

static void print_command_help(const chalk_command *c)
{
    printf("usage: chalk %s %s\n\n", c->name, synopsis(c));
    for (const char *const *line = c->about; *line; line++)
        printf("%s\n", *line);
    help_line lines[MAX_HELP_LINES];
    print_flags(lines, help_lines(c->inputs, lines));
    putchar('\n');
    print_conventions(takes_sweeps(c));
    printf("\nexamples:\n");
    for (const char *const *line = c->examples; *line; line++)
        printf("  %s\n", *line);
}

static void print_command_line(const chalk_command *c)
{
    char left[48];
    snprintf(left, sizeof left, "%s %s", c->name, c->synopsis ? c->synopsis : "");
    printf("  %-24s ", left);
    print_wrapped(c->summary, 27, 80);
}

static void print_top_help(void)
{
    puts("chalk -- the Chalk calculator: the workbook's reference math, one command.");
    puts("Numbers in the book come from here; every one is a lower bound or a preset.");
    puts("\nusage: chalk COMMAND [flags]");
    puts("       chalk help COMMAND   (or chalk COMMAND --help: its flags and examples)");
    puts("\npresets and practice:");
    for (const chalk_command *const *c = SHARED; *c; c++)
        print_command_line(*c);
    for (const chalk_chapter *const *ch = chalk_chapters; *ch; ch++) {
        printf("\nchapter %d, %s:\n", (*ch)->number, (*ch)->title);
        for (const chalk_command *const *c = (*ch)->commands; *c; c++)
            print_command_line(*c);
    }
    /* the flags the chapters share; a command's own flags are in its help */
    static const chalk_input SHARED_INPUTS[] = {CHALK_MODEL_INPUTS,   CHALK_RATE_INPUTS,
                                                {&CHALK_F_HBM_BYTES}, {&CHALK_F_USD},
                                                {&CHALK_F_BATCH},     {&CHALK_F_CONTEXT},
                                                {NULL}};
    help_line lines[MAX_HELP_LINES];
    puts("\nflags several chapters share (chalk help COMMAND lists a command's own):");
    print_flags(lines, help_lines(SHARED_INPUTS, lines));
    putchar('\n');
    print_conventions(true);
    puts("\nexamples:");
    const chalk_command *c;
    for (size_t i = 0; (c = chalk_each_command(i)) != NULL; i++)
        printf("  %s\n", c->examples[0]);
}

/* ---- the command line --------------------------------------------------------------------- */

static bool is_help_word(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* The flag named `name` among a command's inputs, or NULL. */
static const chalk_flag *input_named(const chalk_command *c, const char *name)
{
    for (const chalk_input *in = c->inputs; in && in->flag; in++)
        if (strcmp(in->flag->name, name) == 0)
            return in->flag;
    return NULL;
}

static const chalk_flag *output_named(const char *name)
{
    for (const chalk_flag *const *f = chalk_output_flags; *f; f++)
        if (strcmp((*f)->name, name) == 0)
            return *f;
    return NULL;
}

/* A flag the command does not take: another command's, or a typo. */
static int unknown_flag(const chalk_command *cmd, const char *flag)
{
    const chalk_command *c;
    for (size_t i = 0; (c = chalk_each_command(i)) != NULL; i++)
        if (input_named(c, flag))
            return chalk_fail("%s does not take %s (see chalk %s --help)", cmd->name, flag,
                              cmd->name);
    const char *names[160];
    size_t n = 0;
    for (const chalk_input *in = cmd->inputs; in && in->flag && n < 150; in++)
        names[n++] = in->flag->name;
    for (const chalk_flag *const *f = chalk_output_flags; *f; f++)
        names[n++] = (*f)->name;
    char hint[1024];
    chalk_suggest(hint, sizeof hint, flag, names, n);
    return chalk_fail("unknown flag %s%s", flag, hint);
}

/* Reads flags and positional words after the command; interprets nothing yet. */
static int parse_args(int argc, char **argv, chalk_args *a)
{
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (a->nwords == CHALK_MAX_WORDS)
                return chalk_fail("%s: unexpected argument \"%s\"", a->cmd->name, arg);
            a->words[a->nwords++] = arg;
            continue;
        }
        char name[64];
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), arg);
        const chalk_flag *f = input_named(a->cmd, name);
        if (!f)
            f = output_named(name);
        if (!f)
            return unknown_flag(a->cmd, name);
        if (chalk_given(a, f))
            return chalk_fail("%s given twice", name);
        if (a->ngiven == CHALK_MAX_GIVEN)
            return chalk_fail("too many flags");
        const char *value;
        if (!f->arg) {
            if (eq)
                return chalk_fail("%s takes no value", name);
            value = "";
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return chalk_fail("%s needs a value (%s %s)", name, name, f->arg);
        }
        a->flag[a->ngiven] = f;
        a->value[a->ngiven++] = value;
    }
    if (chalk_given(a, &CHALK_F_JSON) && chalk_given(a, &CHALK_F_CSV))
        return chalk_fail("pick one of --json and --csv");
    a->columns = chalk_value(a, &CHALK_F_COLUMNS);
    double digits = 17;
    int status = chalk_number(a, &CHALK_F_DIGITS, &digits);
    if (status)
        return status;
    a->digits = (int)digits;
    a->format = chalk_given(a, &CHALK_F_JSON)  ? CHALK_JSON
                : chalk_given(a, &CHALK_F_CSV) ? CHALK_CSV
                                               : CHALK_TABLE;
    if (!a->cmd->synopsis && a->nwords > 0)
        return chalk_fail("%s: unexpected argument \"%s\" (flags start with --)", a->cmd->name,
                          a->words[0]);
    return CHALK_OK;
}

static int run(int argc, char **argv)
{
    if (argc < 2)
        return chalk_fail("no command; try chalk --help");
    const char *name = argv[1];
    if (is_help_word(name) || strcmp(name, "help") == 0) {
        if (argc > 3)
            return chalk_fail("help takes one command name (got \"%s\" after \"%s\")", argv[3],
                              argv[2]);
        if (argc == 3 && !is_help_word(argv[2]) && strcmp(argv[2], "help") != 0) {
            const chalk_command *c = find_command(argv[2]);
            if (!c)
                return unknown_command(argv[2]);
            print_command_help(c);
        } else {
            print_top_help();
        }
        return CHALK_OK;
    }
    chalk_args a = {.cmd = find_command(name)};
    if (!a.cmd)
        return unknown_command(name);
    for (int i = 2; i < argc; i++)
        if (is_help_word(argv[i])) {
            print_command_help(a.cmd);
            return CHALK_OK;
        }
    int status = parse_args(argc, argv, &a);
    if (status)
        return status;
    return chalk_run(&a);
}

/* True when file descriptor fd is open. */
static bool is_open(int fd)
{
    return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

int main(int argc, char **argv)
{
    /* A closed stdout is an error before anything runs; a closed stdin or stderr is
     * opened on /dev/null, so no file this run opens can take its number. */
    if (!is_open(STDERR_FILENO) && open("/dev/null", O_WRONLY) != STDERR_FILENO)
        return CHALK_USAGE;
    if (!is_open(STDOUT_FILENO)) {
        chalk_fail("cannot write the output: %s", strerror(EBADF));
        return CHALK_USAGE;
    }
    if (!is_open(STDIN_FILENO) && open("/dev/null", O_RDONLY) != STDIN_FILENO)
        return CHALK_USAGE;
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    int status = run(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int err = errno;
        chalk_fail("cannot write the output: %s", err ? strerror(err) : "write error");
        return CHALK_USAGE;
    }
    return status;
}
