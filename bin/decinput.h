/* decinput.h - the input side of rft-decode (bin/rft-decode.c): the trace
 * read for lib/decode.c, kept in an unlinked file when it cannot be read a
 * second time (the pre-scan), the pipeline trace of --cycles-from read a
 * line at a time, the kernel events file read whole; the pipeline source
 * hooks (bin/pipeline.h). */
#ifndef RFT_DECINPUT_H
#define RFT_DECINPUT_H

#include <stdio.h>

#include "decode.h"
#include "pipeline.h"

typedef struct decode_cli {
    rft_decode_opts o;
    rft_decode *d;
    rft_in *in;
    int flush;
    FILE *spool;            /* the input kept for its second reading */
    char *events;           /* the kernel events file read */
    char *tmp;              /* its name (unlinked at once) */
    /* --cycles-from: the pipeline trace, read a line at a time */
    const char *tname;
    rft_in *tin;
    rft_m2s_trace *tp;
    char *tbuf;
    size_t tcap, tpos, tlen;
    uint64_t tline;
    int teof;
    /* several trace files read as one, in launch order (decode_inputs) */
    char **paths;
    int npaths, cur;
    uint64_t *line0;        /* per file: the lines of the files before it */
    uint64_t lines;         /* lines handed to the decoder so far */
    int ends_nl;            /* the last byte handed was a newline */
    char *label;            /* what they are called in warnings and the header */
    char *folder_events;    /* a folder's kernel events file (its name, in messages) */
} decode_cli;

/* rft-decode's usage text, for the options that do not fit an input. */
extern const char *decode_usage;

/* c with the decoder's defaults, its warnings on standard error. */
void decode_cli_init(decode_cli *c);
/* The pipeline's source hooks: the header (pre-scan included), then the
 * records to out; the job's ctx is the decode_cli. */
void decode_source_open(cli_job *j, rft_header *h);
void decode_source_run(cli_job *j, const rft_sink *out);
/* The trace operands: one FILE (or none: standard input) is *input; several
 * files, or a folder of CUTracer trace files (*.ndjson, *.ndjson.zst; a
 * cutracer_kernel_events_* file in it is *events unless one is given), are
 * read one after the other as one trace, in launch order (the first
 * grid_launch_id of each; files without one last, in the order given),
 * *input the first of them.  Usage errors exit. */
void decode_inputs(decode_cli *c, int n, char **arg, const char **input, const char **events);
/* --kernel-events: the file at path, whole, into c->o.events. */
void decode_read_events(decode_cli *c, const char *path);

#endif
