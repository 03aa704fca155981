/* batch_folder.h - what rft-collect(1) reads of a batch folder DIR that
 * rft-batch(1) wrote: DIR/traces.tsv (the traces), DIR/collect.conf (the
 * study's results, columns and notes), and in each trace's folder its
 * result tables and files of notes, put into a crosstab (crosstab.h). */
#ifndef RFT_BATCH_FOLDER_H
#define RFT_BATCH_FOLDER_H

#include "crosstab.h"

/* The study's defaults, named in messages */
#define BATCH_CONF_FILE "collect.conf"

typedef struct batch_folder {
    /* The folder of the traces' folders: DIR, or DIR/NAME when collect.conf
       says "folders NAME" (rft-batch keeps them in DIR/traces). */
    char *trace_dir;
    /* collect.conf's "notes FILE...": per-trace files of notes, a line each */
    char **note_files;
    size_t nnote_files;
    /* "runs FILE [ASKED]": the per-trace file saying how many runs (steady,
       once, N), and what the batch asked for (NULL: not said) */
    char *runs_file;
    const char *runs_asked;
    char *columns;              /* "columns A,B,...", or NULL */
} batch_folder;

/* DIR/traces.tsv (DIR: x->dir): LABEL<TAB>TRACE a line, the labels into
 * x->label in the batch's order.  Dies on a missing file, a bad label or
 * no traces. */
void batch_read_traces(crosstab *x);

/* DIR/collect.conf, if there is one, into b; its "results FILE..." into
 * x->results when want_results (the command line named none). */
void batch_read_conf(batch_folder *b, crosstab *x, int want_results);

/* x->skip: the traces lacking a result.  Without partial any is an error;
 * with it each is left out with a warning.  Dies when no trace is done. */
void batch_mark_done(const batch_folder *b, crosstab *x, int partial);

/* The notes of trace t into x: its runs, then the lines of its note files
 * (those missing give none). */
void batch_read_notes(const batch_folder *b, crosstab *x, size_t t);

/* Result r of trace t into x, with the notes of its table. */
void batch_read_result(const batch_folder *b, crosstab *x, size_t t, size_t r);

void batch_folder_free(batch_folder *b);

#endif
