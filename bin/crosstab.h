/* crosstab.h - the cross-trace table of a batch (rft-collect(1)): the result
 * tables of every trace joined by their first column (scheme, scenario), a
 * row per trace and key, then the mean over the traces of each key, as the
 * seeds tabulate a benchmark suite.  Report code: the caller reads the files,
 * this joins and prints (usage errors for keys and columns it lacks). */
#ifndef RFT_CROSSTAB_H
#define RFT_CROSSTAB_H

#include <stddef.h>

#include "cli.h"
#include "notes.h"

typedef struct crosstab {
    /* set by the caller */
    const char *dir;            /* the batch folder, for messages */
    char **results;             /* per-trace result files, joined in this order */
    size_t nresults;
    char **label;               /* traces, in the batch's order */
    size_t ntraces;
    unsigned char *skip;        /* trace left out (--partial) */
    /* the join */
    char **key, **col;          /* keys and columns, in first-seen order */
    size_t nkeys, ncols;
    char *keyname;              /* the first result's first column */
    char **val;                 /* the cells, as read */
    size_t nvals;
    rft_map at;                 /* trace << 42 | key << 21 | col -> index in val */
    char **owned;               /* column names and the result that took each first */
    size_t *owner, nowned;
    /* the notes: what the figures assumed, each with the traces it holds for */
    notes nt;
} crosstab;

/* Ready to join (the caller's fields set); dies if out of memory. */
void crosstab_init(crosstab *x);

/* Join result r of trace t, read into tab.  rft-vth's layout (scope, metric,
 * a column per map and MAP_red%) becomes a row per map; any other table has
 * its key in the first column. */
void crosstab_add(crosstab *x, size_t t, size_t r, const cli_tsv *tab);

/* Note text holds for trace t (t == ntraces: for the table itself): kept
 * once, in first-seen order, with every trace it was given for. */
void crosstab_note(crosstab *x, size_t t, const char *text);

/* The table to o: a row per trace and key then the means (only_key: that
 * key's rows alone, without the key column), the columns of LIST ("a,b"),
 * "all" or NULL (every column); or with pivot, a row per trace and a column
 * per key, of column pivot.  The notes go with it: "# " lines before the
 * header in TSV and CSV, a first object {"notes": [...]} in JSON lines, lines
 * under the table for people; a note given for some traces only names them
 * ("[traces: a, b]"). */
void crosstab_print(const crosstab *x, FILE *o, enum cli_fmt fmt, const char *columns,
                    const char *only_key, const char *pivot);

/* Everything x holds, the caller's lists (results, label, skip) too. */
void crosstab_free(crosstab *x);

#endif
