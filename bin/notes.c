/* notes.c - what a table assumed, said with it (notes.h). */
#include "notes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void notes_init(notes *n, size_t ninputs, const char *const *label, const char *what)
{
    *n = (notes){.ninputs = ninputs, .label = label, .what = what};
}

void notes_free(notes *n)
{
    for (size_t k = 0; k < n->n; k++) {
        free(n->text[k]);
        free(n->on[k]);
    }
    free(n->text);
    free(n->on);
    n->text = NULL;
    n->on = NULL;
    n->n = 0;
}

void notes_add(notes *n, size_t i, const char *text)
{
    size_t k = 0;
    while (k < n->n && strcmp(n->text[k], text))
        k++;
    if (k == n->n) {
        n->text = xrealloc(n->text, (k + 1) * sizeof *n->text);
        n->on = xrealloc(n->on, (k + 1) * sizeof *n->on);
        n->text[k] = xstrdup(text);
        n->on[k] = memset(xrealloc(NULL, n->ninputs + 1), 0, n->ninputs + 1);
        n->n++;
    }
    n->on[k][i < n->ninputs ? i : n->ninputs] = 1;
}

void notes_addf(notes *n, size_t i, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    notes_add(n, i, s);
    free(s);
}

char *notes_text(const notes *n, size_t k, const unsigned char *skip)
{
    const unsigned char *on = n->on[k];
    size_t in = 0, all = 0, len = strlen(n->text[k]) + strlen(n->what) + 8;
    for (size_t t = 0; t < n->ninputs; t++)
        if (!skip || !skip[t]) {
            all++;
            in += on[t];
            len += on[t] ? strlen(n->label[t]) + 2 : 0;
        }
    if (!on[n->ninputs] && !in)
        return NULL;
    if (on[n->ninputs] || in == all)
        return xstrdup(n->text[k]);
    char *s = xrealloc(NULL, len);
    char *p = s + sprintf(s, "%s [%s: ", n->text[k], n->what);
    for (size_t t = 0, m = 0; t < n->ninputs; t++)
        if ((!skip || !skip[t]) && on[t])
            p += sprintf(p, "%s%s", m++ ? ", " : "", n->label[t]);
    strcpy(p, "]");
    return s;
}

void notes_put(const notes *n, cli_table *t, const unsigned char *skip)
{
    for (size_t k = 0; k < n->n; k++) {
        char *s = notes_text(n, k, skip);
        if (s)
            table_note(t, s);
        free(s);
    }
}

char *notes_runs_text(const char *runs, const char *asked)
{
    if (!runs)
        return xstrdup("runs: once (the stream states no runs: the trace as recorded, "
                       "neither rft-alloc --runs steady nor rft-repeat)");
    if (strcmp(runs, "steady") == 0)
        return xstrdup("runs: steady (the steady state of a kernel run again and again: "
                       "rft-alloc --runs steady)");
    if (strcmp(runs, "once") == 0 || strcmp(runs, "1") == 0)
        return xstrdup("runs: once (the kernel run once)");
    return xasprintf("runs: %s (the kernel run %s times in a row: rft-repeat)%s", runs, runs,
                     asked && strcmp(asked, "steady") == 0 && strcmp(runs, "unknown")
                         ? "; the steady state was asked for and refused (RAR's rotation "
                           "is not one permutation of a slice per run)"
                         : "");
}

/* The value of NAME=VALUE among the words of s (a header value such as
 * "copies=10 gap=0"), allocated, or NULL. */
static char *word_value(const char *s, const char *name)
{
    size_t k = strlen(name);
    for (const char *w = s; w && *w; w += strcspn(w, " "), w += strspn(w, " "))
        if (strncmp(w, name, k) == 0 && w[k] == '=')
            return xasprintf("%.*s", (int)strcspn(w + k + 1, " "), w + k + 1);
    return NULL;
}

char *notes_scheme(const rft_header *h)
{
    const char *al = rft_header_get(h, "alloc");
    return al ? word_value(al, "scheme") : NULL;
}

int notes_header(notes *n, size_t i, const rft_header *h)
{
    const char *runs = rft_header_get(h, "runs"), *rep = rft_header_get(h, "repeat");
    char *copies = rep ? word_value(rep, "copies") : NULL;
    if (copies && (!runs || strcmp(runs, "steady")))
        runs = copies;
    char *t = notes_runs_text(runs, NULL);
    notes_add(n, i, t);
    free(t);
    char *scheme = notes_scheme(h);
    if (scheme && (strcmp(scheme, "rar") == 0 || strcmp(scheme, "argo") == 0) &&
        (!runs || strcmp(runs, "once") == 0 || strcmp(runs, "1") == 0))
        notes_addf(n, i, "differs from the seed: run once: %s rotates only across window "
                   "reassignments, few in one run; the seeds' lifetimes are of a kernel run "
                   "again and again (rft-alloc --runs steady)", scheme);
    if (!n->units_only &&
        (h->geom.lanes != NOTES_SEED_LANES || h->geom.entries != NOTES_SEED_ENTRIES))
        notes_addf(n, i, "differs from the seed: a register file of %u lanes x %u entries, not "
                   "the seeds' GCN SIMD (%d x %d): windows, rotation and energy scale with it",
                   h->geom.lanes, h->geom.entries, NOTES_SEED_LANES, NOTES_SEED_ENTRIES);
    int steady = runs && strcmp(runs, "steady") == 0;
    free(copies);
    free(scheme);
    return steady;
}

int notes_input(notes *n, const char *const *label, const rft_header *h)
{
    notes_init(n, 1, label, "inputs");
    return notes_header(n, 0, h);
}

void notes_window(notes *n, size_t i, const char *span, uint64_t first, uint64_t last,
                  int steady)
{
    notes_addf(n, i, "window: %s %llu..%llu (the span the duty cycles are over)", span,
               (unsigned long long)first, (unsigned long long)last);
    notes_short(n, i, last - first, steady);
}

void notes_short(notes *n, size_t i, uint64_t cycles, int steady)
{
    if (!steady && cycles < NOTES_SHORT_CYCLES)
        notes_addf(n, i, "differs from the seed: a short run: a window of %llu cycles (under "
                   "%d): the seeds' figures are of kernels run for millions of cycles, "
                   "again and again over the lifetime",
                   (unsigned long long)cycles, NOTES_SHORT_CYCLES);
}

void notes_duty(notes *n, size_t i, const rft_duty_stats *s, const char *scheme, int steady,
                int unused_on)
{
    if (!s->records)
        return;
    notes_window(n, i, rft_span_name(s->span), s->first, s->last, steady);
    double used = (double)s->used / (double)s->records;
    if (scheme && strcmp(scheme, "first-fit") == 0 && used >= NOTES_FULL_SHARE)
        notes_addf(n, n->ninputs, "differs from the seed: register demand fills the slice: "
                   "first-fit (%s) allocates %.1f %% of the entries (%.0f %% or more): RAR and "
                   "ARGO have no free entries to rotate into, their windows cover the whole "
                   "slice", n->label[i], 100 * used, 100 * NOTES_FULL_SHARE);
    /* The seeds count them off too (seed 002 6.2; seed 004 Table 1: 54 % of
     * the register file unused on average): no difference, and idle time
     * dilutes nothing in a map whose used cells keep their values. */
    if (s->used < s->records)
        notes_addf(n, i, "unused entries: %.1f %% of the slices' entries are never allocated nor "
                   "written in the window and count as %s", 100 * (1 - used),
                   unused_on ? "on, holding zeros (rft-duty --unused on: rule 4)"
                             : "off all the time (rft-duty(1) rule 4, as in seed 002 6.2; seed "
                               "004 Table 1: 54 % of the register file unused on average)");
}

/* Which run-time estimate each slowdown column is. */
static const char *const estimates[][2] = {
    {"slowdown_replay%", "estimate: slowdown_replay% is the replayed run time (rft-replay(1): each "
                         "slice's schedule from the trace's cycles, other wavefronts hiding "
                         "latency), the slowdown to cite"},
    {"slowdown_bound%", "estimate: slowdown_bound% is its upper bound: every cycle the scheme adds "
                        "delays its slice in full (never below slowdown_replay%)"},
    {"slice_slowdown_replay%", "estimate: slice_slowdown_replay% is the replay (rft-replay(1)) over "
                               "the slices' cycles summed (rft-energy(1): what the leakage is "
                               "priced over), the slowdown to cite"},
    {"slice_slowdown_bound%", "estimate: slice_slowdown_bound% is its upper bound: every cycle the "
                              "scheme adds delays its slice in full (never below "
                              "slice_slowdown_replay%)"},
};

void notes_estimates(cli_table *t, const char *const *names, size_t k)
{
    for (size_t e = 0; e < sizeof estimates / sizeof *estimates; e++)
        for (size_t c = 0; c < k; c++)
            if (strcmp(names[c], estimates[e][0]) == 0) {
                table_note(t, estimates[e][1]);
                break;
            }
}
