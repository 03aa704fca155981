/* notes.h - what a table assumed, said with it in every format (issue 22;
 * cli.h table_note): the notes of a table over several inputs (a note that
 * holds for some of them only names them), the notes a stream's header
 * gives (the runs, the register file), the window the figures span, and
 * the rules that say why a figure may differ from the seed's where the
 * tool can see the reason (thresholds below; rft(1) "NOTES" documents
 * them).  These print nothing themselves. */
#ifndef RFT_NOTES_H
#define RFT_NOTES_H

#include "cli.h"
#include "duty.h"
#include "rft.h"

/* A window shorter than this many cycles is a short run (the seeds' kernels
 * run for millions of cycles, their lifetimes over years). */
#define NOTES_SHORT_CYCLES 100000
/* First-fit allocating at least this share of a slice's entries: register
 * demand fills the slice, RAR and ARGO have no free entries to move into. */
#define NOTES_FULL_SHARE 0.95
/* Stream cores idle at least this share of the window (rft-heal): a kernel
 * with idle slots, its stress diluted.  (Register-file entries never
 * allocated are off in the seeds too: notes_duty says their share, as no
 * difference.) */
#define NOTES_IDLE_SHARE 0.5
/* The seeds' register file: a GCN SIMD (seeds 001, 002, 004). */
#define NOTES_SEED_LANES 64
#define NOTES_SEED_ENTRIES 256

typedef struct notes {
    size_t ninputs;
    const char *const *label;   /* per input, for "[WHAT: a, b]" */
    const char *what;           /* "traces", "maps", "inputs" */
    char **text;
    unsigned char **on;         /* per note, per input (and [ninputs]: all of them) */
    size_t n;
    int units_only;             /* of execution units (seed 003, on Evergreen): no register-file
                                   note */
} notes;

void notes_init(notes *n, size_t ninputs, const char *const *label, const char *what);
void notes_free(notes *n);
/* Text holds for input i (i == ninputs: for the whole table): kept once, in
 * first-seen order, with each input it was given for. */
void notes_add(notes *n, size_t i, const char *text);
void notes_addf(notes *n, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Note k as said: its text, with " [WHAT: a, b]" unless it holds for the
 * table or every input not skipped (skip NULL: none); NULL when for none.
 * Allocated. */
char *notes_text(const notes *n, size_t k, const unsigned char *skip);
/* Every note onto table t (before its first cell). */
void notes_put(const notes *n, cli_table *t, const unsigned char *skip);

/* The notes of a table over one input, label (a pointer that outlives n):
 * notes_init and notes_header (its return). */
int notes_input(notes *n, const char *const *label, const rft_header *h);
/* The allocator a header's alloc= names (scheme=...), allocated, or NULL. */
char *notes_scheme(const rft_header *h);

/* The runs note of a value as rft-alloc --runs writes it (steady, once, N;
 * NULL: not stated): allocated.  asked: what a batch asked for (steady: a
 * number is the fallback of a refused steady state), or NULL. */
char *notes_runs_text(const char *runs, const char *asked);
/* What a stream's header says: its runs (runs=, repeat=copies=N), a
 * register file other than the seeds' (unless n->units_only), a rotating
 * scheme run once.
 * Returns 1 when the runs are the steady state. */
int notes_header(notes *n, size_t i, const rft_header *h);
/* The window the figures of input i span (the duty maps' span name and
 * cycles), and the short-run rule unless steady (a steady-state map is of
 * a kernel run without end, whatever its window). */
void notes_window(notes *n, size_t i, const char *span, uint64_t first, uint64_t last,
                  int steady);
/* The short-run rule alone: a window of cycles, not the steady state. */
void notes_short(notes *n, size_t i, uint64_t cycles, int steady);
/* The notes of the figures of a duty map over every slice, s, of input i
 * (scheme: its allocator as notes_scheme gives it, or NULL): its window
 * (notes_window), register demand filling the slice (a first-fit map; for
 * the whole table, naming the input) and the entries never allocated
 * (off the whole window, as the seeds count them, or unused_on: on,
 * rft-duty --unused on). */
void notes_duty(notes *n, size_t i, const rft_duty_stats *s, const char *scheme, int steady,
                int unused_on);
/* Which run-time estimate each slowdown column among names[0..k) is. */
void notes_estimates(cli_table *t, const char *const *names, size_t k);

#endif
