/*
 * srccheck.c -- the grader's source check: finds inline assembly, an attribute
 * that places code or runs it at load time, and any #line or linemarker directive
 * in a student's file. Built by tests/grade/sandbox.sh; trusted code, run in the
 * jail (its input is hostile) by grade.sh.
 *
 *   srccheck SOURCE.c PREPROCESSED.i NAME
 *
 * SOURCE.c is the student's file as submitted; PREPROCESSED.i is what `cc -E`
 * made of it, where the student's own lines are those the preprocessor marked as
 * coming from file NAME. Prints the first rule broken, one line, or nothing; exits
 * 0 either way, 2 when a file cannot be read.
 *
 * Two passes, each one read of its file a character at a time: time linear in the
 * size of the input, memory bounded whatever it holds (no line is kept whole: a
 * 15 MB line costs what fifteen 1 MB lines cost).
 *   1. SOURCE.c as the compiler reads it (C11 translation phases 1 to 3: trigraphs,
 *      backslash-newline splices, also with blanks before the newline as GCC
 *      allows, comments, string and character literals; \n, \r\n and a lone \r
 *      each end a line). Refused: a #line directive or a linemarker (# 12 "file"),
 *      however spelled (%:, ??=, comments or splices inside): the linemarkers are
 *      what tells the student's lines from a system header's, and a #line would
 *      let the file say that its own lines are /usr/include/stdio.h's. Refused
 *      too: asm and the attributes below, written in the file itself.
 *   2. PREPROCESSED.i, the student's lines only: the linemarkers are the lines
 *      that begin, in column 0, with `# DIGITS "`. The preprocessor writes a space
 *      before a # that a macro puts at the start of a line, and pass 1 refused
 *      every directive that would make it write one, so the student cannot forge
 *      them. Refused: asm, __asm, __asm__; __attribute__ ((...)) naming section,
 *      constructor, destructor, ifunc, alias, weakref, symver, naked or noplt
 *      (with or without the __ around it), also when a macro built them.
 */
#include <stdio.h>
#include <string.h>

enum { IDENT_CAP = 64, NAME_CAP = 4096, PENDING_CAP = 16 };

typedef struct {
    FILE *f;
    int raw;                  /* pass 1: trigraphs, splices, comments, directives */
    long line;                /* line of the next character (1-based) */
    int pending[PENDING_CAP]; /* characters read ahead, returned first (a stack) */
    int npending;
    int attr, depth; /* 1: after __attribute__, 2: inside its parentheses */
    int mine;        /* pass 2: the current line is the student's */
    const char *name;
    char verdict[512];
} scan;

/* ---- characters: translation phases 1 and 2 -------------------------------------- */

static int pop(scan *s) { return s->npending > 0 ? s->pending[--s->npending] : getc(s->f); }

static void push(scan *s, int c)
{
    if (c != EOF && s->npending < PENDING_CAP)
        s->pending[s->npending++] = c;
}

/* A character with \r\n and a lone \r read as \n and, in pass 1, trigraphs
 * replaced. (A character pushed back is one this returned: it reads the same.) */
static int phase1(scan *s)
{
    int c = pop(s);
    if (c == '\r') {
        int d = pop(s);
        if (d != '\n')
            push(s, d);
        return '\n';
    }
    if (c != '?' || !s->raw)
        return c;
    int d = pop(s);
    if (d != '?') {
        push(s, d);
        return c;
    }
    int e = pop(s);
    const char *from = "=/'()!<>-", *to = "#\\^[]|{}~";
    const char *p = e > 0 ? strchr(from, e) : NULL;
    if (p != NULL)
        return to[p - from];
    push(s, e);
    push(s, d);
    return c;
}

/* A character of the logical source: in pass 1 without its backslash-newline
 * splices. Blanks between the backslash and the newline are counted, not kept. */
static int next(scan *s)
{
    for (;;) {
        int c = phase1(s);
        if (c == '\n')
            s->line++;
        if (c != '\\' || !s->raw)
            return c;
        long blanks = 0;
        int d;
        while ((d = phase1(s)) == ' ' || d == '\t' || d == '\f' || d == '\v')
            blanks++;
        if (d == '\n') {
            s->line++;
            continue;
        }
        push(s, d);
        if (blanks > 0)
            push(s, ' ');
        return c;
    }
}

/* Gives back a character next() returned. */
static void back(scan *s, int c)
{
    if (c == '\n')
        s->line--;
    push(s, c);
}

static int peek(scan *s)
{
    int c = next(s);
    back(s, c);
    return c;
}

/* ---- tokens: phase 3 and the rules ------------------------------------------------ */

static int ident_start(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static int ident_char(int c) { return ident_start(c) || (c >= '0' && c <= '9'); }

static void refuse(scan *s, long line, const char *fmt, const char *what)
{
    if (s->verdict[0] == '\0')
        snprintf(s->verdict, sizeof s->verdict, fmt, what, line);
}

/* Reads the identifier that c begins into id ("" when longer than IDENT_CAP: no
 * keyword or attribute name is). */
static void read_ident(scan *s, int c, char *id)
{
    size_t n = 0;
    while (ident_char(c)) {
        if (n < IDENT_CAP)
            id[n] = (char)c;
        n++;
        c = next(s);
    }
    back(s, c);
    id[n <= IDENT_CAP ? n : 0] = '\0';
}

/* Skips the rest of a string or character literal opened by quote q: to its
 * closing quote or, unterminated, to the end of the line. */
static void skip_literal(scan *s, int q)
{
    int c;
    while ((c = next(s)) != EOF && c != q && c != '\n')
        if (c == '\\' && (c = next(s)) == '\n')
            break;
    if (c == '\n')
        back(s, c);
}

/* Skips the rest of a pp-number begun by c: digits, letters, _, . and a sign
 * after e, E, p or P (0x1asm is one number, no asm in it). */
static void skip_number(scan *s, int c)
{
    for (;;) {
        int d = next(s);
        if (!(ident_char(d) || d == '.' || ((d == '+' || d == '-') && strchr("eEpP", c) != NULL && c != 0))) {
            back(s, d);
            return;
        }
        c = d;
    }
}

static void skip_line(scan *s)
{
    int c;
    while ((c = next(s)) != EOF && c != '\n') {
    }
    back(s, c);
}

/* The rules, on one identifier. */
static void check_ident(scan *s, const char *id)
{
    static const char *placing[] = {"section", "constructor", "destructor", "ifunc", "alias",
                                    "weakref", "symver", "naked", "noplt", NULL};
    if (strcmp(id, "asm") == 0 || strcmp(id, "__asm") == 0 || strcmp(id, "__asm__") == 0) {
        refuse(s, s->line, "inline assembly (%s, line %ld) is not allowed", id);
        return;
    }
    if (strcmp(id, "__attribute__") == 0 || strcmp(id, "__attribute") == 0) {
        s->attr = 1;
        s->depth = 0;
        return;
    }
    if (s->attr != 2)
        return;
    char bare[IDENT_CAP + 1];
    size_t n = strlen(id);
    if (n > 4 && strncmp(id, "__", 2) == 0 && strcmp(id + n - 2, "__") == 0) {
        memcpy(bare, id + 2, n - 4);
        bare[n - 4] = '\0';
    } else {
        memcpy(bare, id, n + 1);
    }
    for (int i = 0; placing[i] != NULL; i++)
        if (strcmp(bare, placing[i]) == 0)
            refuse(s, s->line, "the attribute %s (line %ld) is not allowed (it places code or runs it outside the tests)", id);
}

/* One token that begins with c (not a blank, not a newline): identifiers checked,
 * literals and numbers skipped, __attribute__'s parentheses followed. */
static void token(scan *s, int c)
{
    if (s->attr == 1 && c != '(')
        s->attr = 0; /* __attribute__ not followed by '(' (a macro's body) */
    if (ident_start(c)) {
        char id[IDENT_CAP + 1];
        read_ident(s, c, id);
        check_ident(s, id);
    } else if ((c >= '0' && c <= '9') || (c == '.' && (unsigned)(peek(s) - '0') <= 9)) {
        skip_number(s, c);
    } else if (c == '"' || c == '\'') {
        skip_literal(s, c);
    } else if (c == '(' && s->attr) {
        s->attr = 2;
        s->depth++;
    } else if (c == ')' && s->attr == 2 && --s->depth <= 0) {
        s->attr = 0;
    }
}

/* Pass 1: skips blanks and comments, not a newline; returns the next character,
 * unread. */
static int skip_blank(scan *s)
{
    for (;;) {
        int c = next(s);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v')
            continue;
        if (c == '/' && peek(s) == '*') {
            next(s);
            int prev = 0;
            while ((c = next(s)) != EOF && !(prev == '*' && c == '/'))
                prev = c;
            continue;
        }
        if (c == '/' && peek(s) == '/') {
            skip_line(s);
            return peek(s);
        }
        back(s, c);
        return c;
    }
}

/* Pass 1: the directive after a # (or %:) that began a line. */
static void directive(scan *s)
{
    long at = s->line;
    int c = skip_blank(s);
    if (c >= '0' && c <= '9') {
        refuse(s, at, "a linemarker directive (%s, line %ld) is not allowed: it would hide lines from the source check", "# N \"file\"");
        return;
    }
    if (!ident_start(c))
        return;
    char id[IDENT_CAP + 1];
    read_ident(s, next(s), id);
    if (strcmp(id, "line") == 0)
        refuse(s, at, "a %s directive (line %ld) is not allowed: it would hide lines from the source check", "#line");
    else if (strcmp(id, "include") == 0 || strcmp(id, "include_next") == 0 || strcmp(id, "import") == 0 ||
             strcmp(id, "error") == 0 || strcmp(id, "warning") == 0 || strcmp(id, "pragma") == 0 ||
             strcmp(id, "ident") == 0 || strcmp(id, "sccs") == 0)
        skip_line(s); /* a header name or free text, not C tokens */
}

/* Pass 1: all of SOURCE.c. */
static void scan_source(scan *s)
{
    int c, bol = 1;
    while (s->verdict[0] == '\0' && skip_blank(s) != EOF) {
        c = next(s);
        if (c == '\n') {
            bol = 1;
            continue;
        }
        if (c == '#' || (c == '%' && peek(s) == ':')) {
            if (c == '%')
                next(s);
            if (bol)
                directive(s);
        } else {
            token(s, c);
        }
        bol = 0;
    }
}

/* Pass 2: the rest of a line that began with '#'. A linemarker `# DIGITS "NAME"
 * FLAGS` says whose lines follow (NAME as the preprocessor writes it, with \\ and
 * \" for \ and "); any other directive line (#pragma, #ident) is skipped. */
static void marker(scan *s)
{
    char name[NAME_CAP + 1];
    size_t n = 0;
    long num = 0;
    int c = next(s), digits = 0;
    if (c == ' ') {
        while ((c = next(s)) >= '0' && c <= '9') {
            num = num < 100000000 ? num * 10 + (c - '0') : num;
            digits++;
        }
        if (digits > 0 && c == ' ' && (c = next(s)) == '"') {
            while ((c = next(s)) != EOF && c != '"' && c != '\n') {
                if (c == '\\')
                    c = next(s);
                if (n < NAME_CAP)
                    name[n] = (char)c;
                n++;
            }
            if (c == '"') {
                name[n < NAME_CAP ? n : 0] = '\0'; /* a longer name is nobody's */
                s->mine = n < NAME_CAP && strcmp(name, s->name) == 0;
                skip_line(s);
                s->line = num - 1; /* the newline ahead makes it num */
                return;
            }
        }
    }
    back(s, c);
    skip_line(s);
}

/* Pass 2: the student's lines of PREPROCESSED.i. */
static void scan_preprocessed(scan *s)
{
    int c, bol = 1;
    while (s->verdict[0] == '\0' && (c = next(s)) != EOF) {
        if (c == '\n') {
            bol = 1;
        } else if (bol && c == '#') {
            marker(s);
        } else if (!s->mine) {
            skip_line(s);
        } else {
            bol = 0;
            if (c != ' ' && c != '\t' && c != '\f' && c != '\v')
                token(s, c);
        }
    }
}

int main(int argc, char **argv)
{
    static char buf[1 << 16];
    if (argc != 4) {
        fprintf(stderr, "usage: srccheck SOURCE.c PREPROCESSED.i NAME\n");
        return 2;
    }
    scan s = {.raw = 1, .line = 1}, p = {.raw = 0, .line = 1, .name = argv[3]};
    if ((s.f = fopen(argv[1], "rb")) == NULL || (p.f = fopen(argv[2], "rb")) == NULL) {
        perror(s.f == NULL ? argv[1] : argv[2]);
        return 2;
    }
    setvbuf(s.f, buf, _IOFBF, sizeof buf);
    scan_source(&s);
    fclose(s.f);
    if (s.verdict[0] == '\0') {
        setvbuf(p.f, buf, _IOFBF, sizeof buf);
        scan_preprocessed(&p);
        memcpy(s.verdict, p.verdict, sizeof s.verdict);
    }
    fclose(p.f);
    if (s.verdict[0] != '\0')
        printf("%s\n", s.verdict);
    return 0;
}
