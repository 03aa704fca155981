/* table.c - the programs' tables: aligned text for people, TSV, CSV and
 * JSON lines for programs, with the notes on what a table assumed (cli.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "view.h"

struct cli_table {
    enum cli_fmt fmt;
    FILE *out;
    int ncols, col;
    const char *const *names;
    /* FMT_TABLE: buffered cells; right-aligned when numeric */
    char **cells;
    unsigned char *numeric;
    size_t ncells, cap;
    /* what the table assumed (table_note), said when the header is */
    char **note;
    size_t nnotes;
    int started;                /* the header (and the notes before it) printed */
};

cli_table *table_new(enum cli_fmt f, FILE *out, int ncols, const char *const *names)
{
    cli_table *t = calloc(1, sizeof *t);
    if (!t)
        die("out of memory");
    t->fmt = f;
    t->out = out;
    t->ncols = ncols;
    t->names = names;
    return t;
}

void table_note(cli_table *t, const char *text)
{
    if (t->started)
        die("internal error: a note on a table already begun");
    for (size_t i = 0; i < t->nnotes; i++)
        if (strcmp(t->note[i], text) == 0)
            return;
    t->note = xrealloc(t->note, (t->nnotes + 1) * sizeof *t->note);
    t->note[t->nnotes++] = xstrdup(text);
}

void table_notef(cli_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    table_note(t, s);
    free(s);
}

void cli_notes_print(FILE *o, enum cli_fmt fmt, const char *const *note, size_t n)
{
    if (!n)
        return;
    switch (fmt) {
    case FMT_JSON:
        fputs("{\"notes\": [", o);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ", " : "", o);
            cli_json_str(o, note[i]);
        }
        fputs("]}\n", o);
        break;
    case FMT_TABLE:
        fputc('\n', o);
        /* fall through */
    default:
        for (size_t i = 0; i < n; i++)
            fprintf(o, "%s%s\n", fmt == FMT_TABLE ? "" : "# ", note[i]);
    }
}

/* TSV, CSV, JSON: the notes, then the header (TSV, CSV), before the first
 * row or at the end of a table without rows. */
static void start(cli_table *t)
{
    if (t->started)
        return;
    t->started = 1;
    if (t->fmt == FMT_TABLE)
        return;
    cli_notes_print(t->out, t->fmt, (const char *const *)t->note, t->nnotes);
    if (t->fmt == FMT_TSV || t->fmt == FMT_CSV) {
        for (int i = 0; i < t->ncols; i++)
            fprintf(t->out, "%s%s", i ? (t->fmt == FMT_CSV ? "," : "\t") : "", t->names[i]);
        fputc('\n', t->out);
    }
}

static void put_csv(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void cli_json_str(FILE *out, const char *s)
{
    size_t n = strlen(s);
    char small[256], *b = RFT_JSON_STR_MAX(n) <= sizeof small ? small
                                                              : xrealloc(NULL, RFT_JSON_STR_MAX(n));
    fwrite(b, 1, (size_t)(rft_json_str(b, s, n) - b), out);
    if (b != small)
        free(b);
}

static void cell(cli_table *t, const char *s, int numeric)
{
    start(t);
    switch (t->fmt) {
    case FMT_TABLE:
        if (t->ncells == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 64;
            t->cells = realloc(t->cells, t->cap * sizeof *t->cells);
            t->numeric = realloc(t->numeric, t->cap);
            if (!t->cells || !t->numeric)
                die("out of memory");
        }
        t->numeric[t->ncells] = (unsigned char)numeric;
        if (!(t->cells[t->ncells++] = strdup(s)))
            die("out of memory");
        break;
    case FMT_TSV:
        fprintf(t->out, "%s%s", t->col ? "\t" : "", s);
        break;
    case FMT_CSV:
        if (t->col)
            fputc(',', t->out);
        put_csv(t->out, s);
        break;
    case FMT_JSON:
        fputs(t->col ? ", " : "{", t->out);
        cli_json_str(t->out, t->names[t->col]);
        fputs(": ", t->out);
        if (numeric)
            fputs(s, t->out);
        else
            cli_json_str(t->out, s);
        break;
    }
    t->col++;
}

void table_str(cli_table *t, const char *s) { cell(t, s, 0); }

void table_u64(cli_table *t, uint64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    cell(t, b, 1);
}

void table_i64(cli_table *t, int64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", (long long)v);
    cell(t, b, 1);
}

void table_dbl(cli_table *t, double v, int decimals)
{
    if (!isfinite(v)) {
        cell(t, t->fmt == FMT_JSON ? "null" : "nan", 1);
        return;
    }
    char *b = xasprintf("%.*f", decimals, v);   /* 1e300 has 301 digits */
    cell(t, b, 1);
    free(b);
}

void table_share(cli_table *t, int counts, uint64_t n, double whole)
{
    if (counts)
        table_u64(t, n);
    else
        table_dbl(t, whole > 0 ? 100.0 * (double)n / whole : 0.0, 2);
}

const char **table_count_names(int n, const char *const *names)
{
    /* one block: the pointers, then the names */
    size_t size = n * sizeof(char *);
    for (int i = 0; i < n; i++)
        size += strlen(names[i]) + 1;
    const char **out = xrealloc(NULL, size);
    char *p = (char *)(out + n);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        len -= len && names[i][len - 1] == '%';
        memcpy(p, names[i], len);
        p[len] = 0;
        out[i] = p;
        p += len + 1;
    }
    return out;
}

/* s in JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char *s)
{
    s += *s == '-';
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        s += strspn(s, "0123456789");
    else
        return 0;
    if (*s == '.') {
        size_t n = strspn(++s, "0123456789");
        if (!n)
            return 0;
        s += n;
    }
    if (*s == 'e' || *s == 'E') {
        s += s[1] == '+' || s[1] == '-' ? 2 : 1;
        size_t n = strspn(s, "0123456789");
        if (!n)
            return 0;
        s += n;
    }
    return !*s;
}

void table_num(cli_table *t, const char *s)
{
    double v;
    if (t->fmt == FMT_JSON && !cli_number(s, &v))
        s = "null";
    if (t->fmt == FMT_JSON && strcmp(s, "null") && !json_number(s))
        cell(t, s, 0);          /* 0x1p3, .5, +1: a number to strtod, not to JSON */
    else
        cell(t, s, 1);
}

void table_none(cli_table *t) { cell(t, t->fmt == FMT_JSON ? "null" : "", t->fmt == FMT_JSON); }

void table_end_row(cli_table *t)
{
    if (t->fmt == FMT_JSON)
        fputs("}\n", t->out);
    else if (t->fmt != FMT_TABLE)
        fputc('\n', t->out);
    t->col = 0;
}

void table_free(cli_table *t)
{
    if (!t)
        return;
    start(t);
    if (t->fmt == FMT_TABLE) {
        size_t *w = calloc((size_t)t->ncols, sizeof *w);
        if (!w)
            die("out of memory");
        for (int c = 0; c < t->ncols; c++)
            w[c] = strlen(t->names[c]);
        for (size_t i = 0; i < t->ncells; i++) {
            size_t l = strlen(t->cells[i]);
            if (l > w[i % t->ncols])
                w[i % t->ncols] = l;
        }
        for (int c = 0; c < t->ncols; c++)
            fprintf(t->out, "%s%-*s", c ? "  " : "", c == t->ncols - 1 ? 0 : (int)w[c],
                    t->names[c]);
        fputc('\n', t->out);
        for (size_t i = 0; i < t->ncells; i++) {
            int c = (int)(i % t->ncols);
            int last = c == t->ncols - 1;
            if (t->numeric[i])
                fprintf(t->out, "%s%*s", c ? "  " : "", (int)w[c], t->cells[i]);
            else
                fprintf(t->out, "%s%-*s", c ? "  " : "", last ? 0 : (int)w[c], t->cells[i]);
            if (last)
                fputc('\n', t->out);
            free(t->cells[i]);
        }
        free(w);
        free(t->cells);
        free(t->numeric);
        cli_notes_print(t->out, t->fmt, (const char *const *)t->note, t->nnotes);
    }
    for (size_t i = 0; i < t->nnotes; i++)
        free(t->note[i]);
    free(t->note);
    free(t);
}
