/* pipeline.h - how a stage program runs (rft-alloc, rft-gate, rft-duty, ...):
 * its options make a job, the driver runs it from the input stream to the
 * output.  `rft run` (bin/run.c) runs several jobs in one process through
 * the same driver, records passing in memory. */
#ifndef RFT_PIPELINE_H
#define RFT_PIPELINE_H

#include "cli.h"
#include "rft.h"

typedef struct cli_job cli_job;
struct cli_job {
    rft_stage *st;          /* the stage its options configured */
    const char *input;      /* the input stream: "-" (standard input) by default */
    const char *output;     /* -o as given, NULL when not */
    int stream;             /* 1: writes a stream (to output, else standard output) */
    rft_writer_opts wo;
    int read_flags;         /* RFT_IN_AHEAD: the stage's own work is heavy */
    int max_mem_set;        /* --max-memory: max_mem bytes, the process's budget
                               (rft_mem_limit) of a program alone, a stage's */
    uint64_t max_mem;       /* own limit in rft run (0: no limit) */
    /* After the stage's end, before any end record is written: the job's
     * reports (--summary ...), from ctx and the stage.  May be NULL. */
    void (*report)(cli_job *j);
    /* Before the stage starts, with its input header: usage errors that
     * depend on the input (an option larger than the slice).  May be NULL. */
    void (*check)(cli_job *j, const rft_header *in);
    void *ctx;              /* the program's state, from its parse: the driver frees it */
    /* How the driver frees ctx, after the stage: NULL is free(ctx), one
     * malloc'ed block; cli_ctx_borrowed when the job does not own it. */
    void (*free_ctx)(void *ctx);
    const char *prog;       /* "rft-gate", set by the driver */
    /* A source (rft-decode, rft-synth) makes its records itself instead of
     * reading an input stream: st is NULL; source_open sets the header of
     * its records (*h initialized with the program as producer), then
     * source_run hands each record to out (and returns 0) or dies with a
     * message, as a stage program does.  Only the first job of a pipeline. */
    void (*source_open)(cli_job *j, rft_header *h);
    void (*source_run)(cli_job *j, const rft_sink *out);
    /* Set before parse: the program runs alone, not in `rft run`.  Only
     * then may its options make a job that is no stage (rft-energy pricing
     * its inputs): run (st NULL), which does the work and returns the exit
     * status. */
    int alone;
    int (*run)(cli_job *j);
    /* Its stage writes standard output as records come (rft-view's lines):
     * `rft run` keeps such a stage in one thread with any other that does. */
    int prints;
    int makes;              /* its program's (cli_prog), set by the driver */
};

/* A stage program: its name, usage text and option parser, which fills a
 * job (st, input, output, stream, ...) or ends with a usage error. */
typedef struct cli_prog {
    const char *name;       /* "rft-gate" */
    const char *usage;
    void (*parse)(int argc, char **argv, cli_job *j);
    int makes;              /* 1: a source that reads no stream (rft-decode,
                               rft-synth): takes no --shard */
} cli_prog;

/* main() of a stage program: cli_init, parse, run, close standard output. */
int cli_prog_main(const cli_prog *p, int argc, char **argv);

/* Parse argv (argv[0]: the stage's name) as program p would, into j;
 * usage errors name p. */
void cli_prog_parse(const cli_prog *p, int argc, char **argv, cli_job *j);

/* Run the jobs of npipes pipelines, each a chain of jobs (pipe[i][0..len[i]-1]):
 * the first job of every pipeline reads the same input; leading jobs equal
 * in pipelines (same) run once, their records handed to each that follows
 * (same[i][k]: job k of pipeline i is job k of pipeline same[i][k] < i, or
 * -1).  Dies on any failure, leaving every stream without its end record. */
void cli_pipelines_run(cli_job **pipe, const int *len, int npipes, int *const *same);

/* --max-memory MIB (CLI_MEMORY_OPTION) for job j: the process's budget when
 * j->alone, else its stage's own limit besides rft run's. */
void cli_job_memory(cli_job *j, const char *mib);

/* Threads of cli_pipelines_run: up to this many, the main one included,
 * feed its stages (`rft run --threads`); 1 by default: one. */
extern int cli_run_threads;

/* A single pipeline: cli_pipelines_run of one. */
void cli_jobs_run(cli_job *jobs, int n);

/* The free_ctx of a job whose ctx is its caller's (a job run from within
 * a program's parse or main to read its input): frees nothing. */
void cli_ctx_borrowed(void *ctx);

/* Flush every stream the running pipelines write, for a source's --flush
 * (rft-decode): what it made so far goes out while its input is still open. */
void cli_jobs_flush(void);

#endif
