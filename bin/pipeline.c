/* pipeline.c - the driver of the stage programs and of `rft run`: one input
 * stream, a tree of stages (pipelines that begin alike share their first
 * stages), a writer at the end of each pipeline that writes a stream. */
#include "pipeline.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct node node;
struct node {
    /* what every record goes through, together at the start (a record
     * passes every node of its pipeline, each a few loads) */
    rft_stage *st;          /* the job's stage, and its feed: set by start() */
    int (*feed)(rft_stage *st, rft_rec *rec, const rft_sink *out);
    rft_sink sink;          /* what the stage's records go to */
    node **child;
    int nchild;
    uint64_t count;         /* records fed */
    rft_writer *w;          /* leaf writing a stream */
    rft_rec *copy;          /* for all children but the last, which may change it */
    cli_job *job;
    int leaf;               /* the last job of some pipeline */
    int root;               /* reads the input stream itself */
    rft_header out;
};

static struct {
    node **all;
    int n;
    rft_reader *r;
    const char *input;
    uint32_t lanes;
} run;

/* ---- progress on stderr, when it is a terminal and not --quiet ---------------- */
static struct {
    int on, shown;
    double t0, last, every;     /* seconds between lines: RFT_PROGRESS_SECONDS, 0.5 */
    uint64_t size;          /* bytes of the input file, 0 if unknown */
} meter;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void meter_start(const char *input)
{
    struct stat st;
    meter.on = !cli_quiet && isatty(STDERR_FILENO);
    meter.size = strcmp(input, "-") && stat(input, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    meter.t0 = meter.last = now_s();
    meter.shown = 0;
    const char *e = getenv("RFT_PROGRESS_SECONDS");
    meter.every = e && cli_number(e, &meter.every) && meter.every >= 0 ? meter.every : 0.5;
}

/* Records done, rate and (from the input's bytes) the share done and the
 * time left; twice a second at most. */
static void meter_tick(uint64_t records, uint64_t bytes)
{
    double t = now_s();
    if (t - meter.last < meter.every)
        return;
    meter.last = t;
    double rate = records / (t - meter.t0);
    fprintf(stderr, "\r%s: %.1fM records, %.2fM/s", prog, records / 1e6, rate / 1e6);
    if (meter.size && bytes) {
        double f = (double)bytes / meter.size;
        fprintf(stderr, ", %.0f%%, %.0f s left", 100 * f, (t - meter.t0) * (1 - f) / f);
    }
    fputs("\033[K", stderr);      /* the rest of an earlier, longer line */
    meter.shown = 1;
}

static void meter_end(void)
{
    if (meter.shown)
        fputs("\r\033[K", stderr);
    meter.shown = 0;
}

/* Every stream is left without its end record, the reader stopped. */
static void abandon_all(void)
{
    meter_end();
    for (int i = 0; i < run.n; i++) {
        cli_writer_close(run.all[i]->w, 0, NULL, 0);
        run.all[i]->w = NULL;
    }
    if (stage.r != run.r)
        rft_reader_close(stage.r);  /* a source's own (rft-merge, rft-repeat) */
    rft_reader_close(run.r);
    run.r = NULL;
    stage.r = NULL;
}

static const char *node_input(const node *n) { return n->root ? run.input : "-"; }

static noreturn void node_fail(const node *n, int at_record)
{
    prog = n->job->prog;
    const char *why = rft_stage_error(n->job->st);
    /* a stage reading the input names its place there (a shard's records
     * are some of it) */
    uint64_t at = n->root && run.r ? rft_reader_count(run.r) : n->count;
    char *msg = at_record ? xasprintf("%s: record %llu: %s", node_input(n), (unsigned long long)at, why)
                          : xasprintf("%s: %s", node_input(n), why);
    abandon_all();
    warnx("%s", msg);
    free(msg);
    exit(1);
}

static void node_warn(void *ctx, const char *msg)
{
    const char *save = prog;
    prog = ((node *)ctx)->job->prog;
    warnx("%s", msg);
    prog = save;
}

static const char *out_name(const node *n)
{
    const char *o = n->job->output;
    return o && strcmp(o, "-") ? o : "standard output";
}

static int node_put(void *ctx, rft_rec *rec)
{
    node *n = ctx;
    n->count++;
    if (n->feed(n->st, rec, &n->sink) < 0)     /* rft_stage_feed, without a call */
        node_fail(n, 1);
    return 0;
}

static void rec_copy(rft_rec *d, const rft_rec *s)
{
    memcpy(d, s, offsetof(rft_rec, w) + offsetof(rft_write, val));
    if (s->kind == RFT_WRITE)
        memcpy(d->w.val, s->w.val, run.lanes * sizeof s->w.val[0]);
}

static int readonly(const node *n) { return n->job->st && n->job->st->ops->readonly; }

/* e: what a write to n's stream returned */
static void write_check(const node *n, int e)
{
    if (!e)
        return;
    cli_epipe(e);
    prog = n->job->prog;
    char *msg = xasprintf("%s: %s", out_name(n), rft_writer_error(n->w));
    abandon_all();
    warnx("%s", msg);
    exit(1);
}

/* The records of a node's stage: to its stream (first: children may change
 * them), then to each child. */
static int node_out(void *ctx, rft_rec *rec)
{
    node *n = ctx;
    if (n->w)
        write_check(n, rft_write_rec(n->w, rec));
    /* the stages that only read it first (add_child keeps them so), then
     * those that may change it: a copy each but the last */
    for (int i = 0; i < n->nchild; i++) {
        node *c = n->child[i];
        if (i + 1 < n->nchild && !readonly(c)) {
            rec_copy(n->copy, rec);
            node_put(c, n->copy);
        } else {
            node_put(c, rec);
        }
    }
    return 0;
}

static node *node_new(cli_job *j)
{
    node *n = xrealloc(NULL, sizeof *n);
    memset(n, 0, sizeof *n);
    n->job = j;
    n->sink = (rft_sink){node_out, n};
    if (j->st) {
        j->st->warn = node_warn;
        j->st->warn_ctx = n;
    }
    run.all = xrealloc(run.all, (run.n + 1) * sizeof *run.all);
    run.all[run.n++] = n;
    return n;
}

/* Children that only read a record come first (node_out copies it for
 * the others). */
static void add_child(node *p, node *c)
{
    p->child = xrealloc(p->child, (p->nchild + 1) * sizeof *p->child);
    int i = p->nchild++;
    for (; i > 0 && readonly(c) && !readonly(p->child[i - 1]); i--)
        p->child[i] = p->child[i - 1];
    p->child[i] = c;
}

static void start(node *n, const rft_header *in)
{
    n->job->st->input = node_input(n);
    if (n->job->max_mem_set)
        n->job->st->mem_max = n->job->max_mem;
    if (n->job->check) {
        prog = n->job->prog;
        n->job->check(n->job, in);
    }
    if (rft_stage_start(n->job->st, in, &n->out))
        node_fail(n, 0);
    n->st = n->job->st;
    n->feed = n->st->ops->feed;
    if (strcmp(n->out.producer, n->job->prog) != 0) {  /* a program run by another name */
        free(n->out.producer);
        n->out.producer = xasprintf("%s", n->job->prog);
    }
    for (int i = 0; i < n->nchild; i++)
        start(n->child[i], &n->out);
}

static void open_writers(void)
{
    char err[320];
    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        if (n->nchild > 1)
            n->copy = xrealloc(NULL, sizeof *n->copy);
        if (!n->leaf || !n->job->stream)
            continue;
        const char *o = n->job->output ? n->job->output : "-";
        prog = n->job->prog;
        cli_no_terminal(o);
        if (!(n->w = cli_writer_open(o, &n->out, &n->job->wo, err, sizeof err))) {
            prog = n->job->prog;
            char *msg = xasprintf("%s: %s", out_name(n), err);
            abandon_all();
            die("%s", msg);
        }
    }
}

static void finish(node *n)
{
    if (rft_stage_finish(n->job->st, &n->sink) < 0)
        node_fail(n, 1);
    if (n->job->report) {
        prog = n->job->prog;
        n->job->report(n->job);
    }
    for (int i = 0; i < n->nchild; i++)
        finish(n->child[i]);
}

void cli_pipelines_run(cli_job **pipe, const int *len, int npipes, int *const *same)
{
    node ***at = xrealloc(NULL, npipes * sizeof *at);   /* at[i][k]: node of job k of pipeline i */
    node root = {0};
    int read_flags = 0;
    for (int i = 0; i < npipes; i++) {
        at[i] = xrealloc(NULL, len[i] * sizeof *at[i]);
        for (int k = 0; k < len[i]; k++) {
            int s = same ? same[i][k] : -1;
            if (s >= 0) {
                at[i][k] = at[s][k];
            } else {
                at[i][k] = node_new(&pipe[i][k]);
                at[i][k]->root = k == 0;
                add_child(k ? at[i][k - 1] : &root, at[i][k]);
                read_flags |= pipe[i][k].read_flags;
            }
        }
        at[i][len[i] - 1]->leaf = 1;
    }
    run.input = pipe[0][0].input;
    cli_abandon_hook = abandon_all;

    char err[320];
    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    root.copy = root.nchild > 1 ? xrealloc(NULL, sizeof *root.copy) : NULL;
    int e = RFT_EOF;
    if (cli_shard_n && pipe[0][0].makes) {
        prog = pipe[0][0].prog;
        usage_error("--shard: %s reads no rft stream (it makes its records)", prog);
    }
    if (pipe[0][0].source_open) {       /* the first job makes the records */
        node *src = root.child[0];
        prog = src->job->prog;
        rft_header_init(&src->out, src->job->prog);
        src->job->source_open(src->job, &src->out);
        run.lanes = src->out.geom.lanes;
        for (int i = 0; i < src->nchild; i++)
            start(src->child[i], &src->out);
        open_writers();
        prog = src->job->prog;
        src->job->source_run(src->job, &src->sink);
        if (src->job->report)
            src->job->report(src->job);
        for (int i = 0; i < src->nchild; i++)
            finish(src->child[i]);
    } else {
        /* every stage takes rule 8 of rft(5) for granted: checked as read */
        if (!(run.r = rft_reader_open_flags(run.input, read_flags | RFT_READ_ORDER, err, sizeof err))) {
            prog = pipe[0][0].prog;
            die("%s: %s", run.input, err);
        }
        cli_reader_shard(run.r, run.input);
        stage.r = run.r;
        stage.input = run.input;
        const rft_header *h = rft_reader_header(run.r);
        run.lanes = h->geom.lanes;
        for (int i = 0; i < root.nchild; i++)
            start(root.child[i], h);
        open_writers();
        meter_start(run.input);
        prog = pipe[0][0].prog;
        for (uint64_t n = 1; (e = rft_read(run.r, rec)) == 0; n++) {
            node_out(&root, rec);
            if (meter.on && !(n & 0xffff))
                meter_tick(n, rft_reader_bytes(run.r));
        }
        meter_end();
        if (e != RFT_EOF) {
            prog = pipe[0][0].prog;
            char *msg = xasprintf("%s: %s", run.input, rft_reader_error(run.r));
            abandon_all();
            die("%s", msg);
        }
        /* a shard's stages see what its reader saw of the whole input */
        for (int i = 0; i < run.n; i++)
            run.all[i]->job->st->whole = rft_reader_whole(run.r);
        for (int i = 0; i < root.nchild; i++)
            finish(root.child[i]);
    }

    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        e = n->w ? cli_writer_close(n->w, 1, err, sizeof err) : 0;
        if (e) {
            n->w = NULL;
            prog = n->job->prog;
            cli_epipe(e);
            abandon_all();
            die("%s: %s", out_name(n), err);
        }
        n->w = NULL;
    }
    cli_side_commit();      /* every stream complete: the tables take their names */
    rft_reader_close(run.r);
    run.r = stage.r = NULL;
    cli_abandon_hook = NULL;
    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        rft_header_free(&n->out);
        rft_stage_free(n->job->st);
        n->job->st = NULL;
        if (n->job->free_ctx)
            n->job->free_ctx(n->job->ctx);
        else
            free(n->job->ctx);
        n->job->ctx = NULL;
        free(n->child);
        free(n->copy);
        free(n);
    }
    free(run.all);
    run.all = NULL;
    run.n = 0;
    for (int i = 0; i < npipes; i++)
        free(at[i]);
    free(at);
    free(root.child);
    free(root.copy);
    free(rec);
}

void cli_jobs_run(cli_job *jobs, int n)
{
    cli_pipelines_run(&jobs, &n, 1, NULL);
}

void cli_ctx_borrowed(void *ctx) {}

void cli_job_memory(cli_job *j, const char *mib)
{
    j->max_mem = cli_max_memory(mib);
    j->max_mem_set = 1;
}

void cli_jobs_flush(void)
{
    for (int i = 0; i < run.n; i++)
        if (run.all[i]->w)
            write_check(run.all[i], rft_writer_flush(run.all[i]->w));
}

static void parse_job(const cli_prog *p, int argc, char **argv, cli_job *j, int alone)
{
    memset(j, 0, sizeof *j);
    j->alone = alone;
    j->input = "-";
    j->stream = 1;
    j->wo.level = RFT_DEFAULT_LEVEL;
    j->prog = p->name;
    j->makes = p->makes;
    prog = p->name;
    cli_usage_text = p->usage;
    optind = 0;             /* getopt starts afresh for every stage */
    p->parse(argc, argv, j);
    if (!j->st && !j->source_run && !j->run)
        die("out of memory");
}

void cli_prog_parse(const cli_prog *p, int argc, char **argv, cli_job *j)
{
    parse_job(p, argc, argv, j, 0);
}

int cli_prog_main(const cli_prog *p, int argc, char **argv)
{
    cli_job j;
    argc = cli_take_quiet(argc, argv);
    cli_shard_ok = !p->makes;
    cli_init(argc, argv, p->usage);
    if (cli_shard_ok)
        argc = cli_take_shard(argc, argv);
    cli_prog self = *p;
    self.name = prog;       /* the name it was run by: a link may rename it */
    parse_job(&self, argc, argv, &j, 1);
    if (j.run)
        return j.run(&j);
    cli_jobs_run(&j, 1);
    return cli_close_stdout();
}
