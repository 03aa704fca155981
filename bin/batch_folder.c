/* batch_folder.c - a batch folder of rft-batch(1), read for rft-collect(1):
 * the files rft-batch writes for it, the per-trace results and notes.  The
 * join itself is crosstab.c's. */
#include <stdlib.h>
#include <string.h>

#include "batch_folder.h"

#define TRACES_FILE "traces.tsv"

/* DIR/a/b (b may be NULL): allocated */
static char *path_of(const crosstab *x, const char *a, const char *b)
{
    size_t n = strlen(x->dir) + strlen(a) + (b ? strlen(b) : 0) + 3;
    char *p = xrealloc(NULL, n);
    snprintf(p, n, b ? "%s/%s/%s" : "%s/%s", x->dir, a, b);
    return p;
}

/* The runs of trace t, as a note. */
static void runs_note(const batch_folder *b, crosstab *x, size_t t)
{
    char *path = xasprintf("%s/%s/%s", b->trace_dir, x->label[t], b->runs_file), *line = NULL;
    size_t cap = 0;
    FILE *f = fopen(path, "r");
    ssize_t n = f ? getline(&line, &cap, f) : -1;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
        line[--n] = 0;
    if (n <= 0) {
        free(line);
        line = xstrdup("unknown");
    }
    char *note = notes_runs_text(line, b->runs_asked);
    crosstab_note(x, t, note);
    free(note);
    free(line);
    free(path);
    if (f)
        fclose(f);
}

void batch_read_notes(const batch_folder *b, crosstab *x, size_t t)
{
    if (b->runs_file)
        runs_note(b, x, t);
    for (size_t i = 0; i < b->nnote_files; i++) {
        char *path = xasprintf("%s/%s/%s", b->trace_dir, x->label[t], b->note_files[i]);
        FILE *f = fopen(path, "r");
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while (f && (n = getline(&line, &cap, f)) != -1) {
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
                line[--n] = 0;
            if (n) {     /* named by the table it comes from: vth.notes, "vth: ..." */
                char *note = xasprintf("%.*s: %s", (int)strcspn(b->note_files[i], "."),
                                       b->note_files[i], line);
                crosstab_note(x, t, note);
                free(note);
            }
        }
        if (f && ferror(f))
            die("%s: read error", path);
        if (f)
            fclose(f);
        free(line);
        free(path);
    }
}

/* The notes of result r's table of trace t (its '# ' lines, as the
 * programs write them in TSV): each named by its table (vth.tsv: "vth:
 * ..."), but the runs, which are the trace's (and which the runs file says
 * instead when the batch has one). */
static void result_notes(const batch_folder *b, crosstab *x, size_t t, size_t r,
                         const cli_tsv *tab)
{
    for (size_t i = 0; i < tab->nnotes; i++) {
        const char *n = tab->note[i];
        if (!*n || (b->runs_file && strncmp(n, "runs: ", 6) == 0))
            continue;
        char *note = strncmp(n, "runs: ", 6) == 0
                         ? xstrdup(n)
                         : xasprintf("%.*s: %s", (int)strcspn(x->results[r], "."),
                                     x->results[r], n);
        crosstab_note(x, t, note);
        free(note);
    }
}

void batch_read_result(const batch_folder *b, crosstab *x, size_t t, size_t r)
{
    char *path = xasprintf("%s/%s/%s", b->trace_dir, x->label[t], x->results[r]);
    cli_tsv tab;
    cli_tsv_read(path, path, &tab);
    crosstab_add(x, t, r, &tab);
    result_notes(b, x, t, r, &tab);
    cli_tsv_free(&tab);
    free(path);
}

void batch_read_traces(crosstab *x)
{
    char *path = path_of(x, TRACES_FILE, NULL);
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: not a batch folder: no %s (see rft-batch(1))", x->dir, TRACES_FILE);
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) != -1) {
        lineno++;
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        if (!n || line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        if (tab)
            *tab = 0;
        if (!*line || strchr(line, '/') || strcmp(line, "mean") == 0 || line[0] == '.')
            die("%s: line %zu: '%s' is not a trace label", path, lineno, line);
        x->label = xrealloc(x->label, (x->ntraces + 1) * sizeof *x->label);
        x->label[x->ntraces++] = xstrdup(line);
    }
    if (ferror(f))
        die("%s: read error", path);
    fclose(f);
    free(line);
    if (!x->ntraces)
        die("%s: no traces", path);
    free(path);
}

/* A line a setting: "results FILE...", "columns A,B,...", "folders NAME",
 * "notes FILE...", "runs FILE [ASKED]"; the study's defaults (command-line
 * operands and options win). */
void batch_read_conf(batch_folder *b, crosstab *x, int want_results)
{
    b->trace_dir = xstrdup(x->dir);
    char *path = path_of(x, BATCH_CONF_FILE, NULL);
    FILE *f = fopen(path, "r");
    if (!f) {
        free(path);
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) != -1) {
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        char *v = line + strcspn(line, " \t");
        if (*v)
            *v++ = 0;
        v += strspn(v, " \t");
        if (strcmp(line, "columns") == 0) {
            free(b->columns);
            b->columns = xstrdup(v);
        } else if (strcmp(line, "folders") == 0 && *v) {
            free(b->trace_dir);
            b->trace_dir = xasprintf("%s/%s", x->dir, v);
        } else if (strcmp(line, "notes") == 0) {
            for (char *w = strtok(v, " \t"); w; w = strtok(NULL, " \t")) {
                b->note_files =
                    xrealloc(b->note_files, (b->nnote_files + 1) * sizeof *b->note_files);
                b->note_files[b->nnote_files++] = xstrdup(w);
            }
        } else if (strcmp(line, "runs") == 0 && *v) {
            free(b->runs_file);
            b->runs_file = xstrdup(v);
            char *sp = b->runs_file + strcspn(b->runs_file, " \t");
            b->runs_asked = *sp ? sp + 1 + strspn(sp + 1, " \t") : NULL;
            *sp = 0;
        } else if (strcmp(line, "results") == 0 && want_results) {
            for (char *w = strtok(v, " \t"); w; w = strtok(NULL, " \t")) {
                x->results = xrealloc(x->results, (x->nresults + 1) * sizeof *x->results);
                x->results[x->nresults++] = xstrdup(w);
            }
        }
    }
    fclose(f);
    free(line);
    free(path);
}

/* Is every result of trace t there?  Else its first missing one. */
static const char *missing_result(const batch_folder *b, const crosstab *x, size_t t)
{
    for (size_t r = 0; r < x->nresults; r++) {
        char *p = xasprintf("%s/%s/%s", b->trace_dir, x->label[t], x->results[r]);
        FILE *f = fopen(p, "r");
        free(p);
        if (!f)
            return x->results[r];
        fclose(f);
    }
    return NULL;
}

void batch_mark_done(const batch_folder *b, crosstab *x, int partial)
{
    x->skip = xrealloc(NULL, x->ntraces);
    size_t complete = 0;
    for (size_t t = 0; t < x->ntraces; t++) {
        const char *m = missing_result(b, x, t);
        x->skip[t] = m != NULL;
        complete += !m;
        if (m && !partial)
            die("%s/%s: no %s: the trace is not done (rft-batch --status %s)", b->trace_dir,
                x->label[t], m, x->dir);
        if (m)
            warnx("warning: %s/%s: no %s: left out", b->trace_dir, x->label[t], m);
    }
    if (!complete)
        die("%s: no trace is done", x->dir);
}

void batch_folder_free(batch_folder *b)
{
    free(b->trace_dir);
    for (size_t i = 0; i < b->nnote_files; i++)
        free(b->note_files[i]);
    free(b->note_files);
    free(b->runs_file);
    free(b->columns);
}
