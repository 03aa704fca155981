/* pipeline.c - the driver of the stage programs and of `rft run`: one input
 * stream, a tree of stages (pipelines that begin alike share their first
 * stages), a writer at the end of each pipeline that writes a stream. */
#include "pipeline.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct node node;
struct node {
    cli_job *job;
    node **child;
    int nchild;
    int leaf;               /* the last job of some pipeline */
    uint64_t count;         /* records fed */
    int root;               /* reads the input stream itself */
    rft_header out;
    rft_writer *w;          /* leaf writing a stream */
    rft_rec *copy;          /* for all children but the last, which may change it */
    rft_sink sink;          /* what the stage's records go to */
};

static struct {
    node **all;
    int n;
    rft_reader *r;
    const char *input;
    uint32_t lanes;
} run;

/* Every stream is left without its end record, the reader stopped. */
static void abandon_all(void)
{
    for (int i = 0; i < run.n; i++) {
        rft_writer_close(run.all[i]->w, 0, NULL, 0);
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
    char *msg = at_record ? xasprintf("%s: record %llu: %s", node_input(n),
                                      (unsigned long long)n->count, why)
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
    if (rft_stage_feed(n->job->st, rec, &n->sink) < 0)
        node_fail(n, 1);
    return 0;
}

static void rec_copy(rft_rec *d, const rft_rec *s)
{
    memcpy(d, s, offsetof(rft_rec, w) + offsetof(rft_write, val));
    if (s->kind == RFT_WRITE)
        memcpy(d->w.val, s->w.val, run.lanes * sizeof s->w.val[0]);
}

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
    for (int i = 0; i < n->nchild; i++) {
        if (i + 1 < n->nchild) {
            rec_copy(n->copy, rec);
            node_put(n->child[i], n->copy);
        } else {
            node_put(n->child[i], rec);
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

static void add_child(node *p, node *c)
{
    p->child = xrealloc(p->child, (p->nchild + 1) * sizeof *p->child);
    p->child[p->nchild++] = c;
}

static void start(node *n, const rft_header *in)
{
    n->job->st->input = node_input(n);
    if (rft_stage_start(n->job->st, in, &n->out))
        node_fail(n, 0);
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
        if (!(n->w = rft_writer_open(o, &n->out, &n->job->wo, err, sizeof err))) {
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
        if (!(run.r = rft_reader_open_flags(run.input, read_flags, err, sizeof err))) {
            prog = pipe[0][0].prog;
            die("%s: %s", run.input, err);
        }
        stage.r = run.r;
        stage.input = run.input;
        const rft_header *h = rft_reader_header(run.r);
        run.lanes = h->geom.lanes;
        for (int i = 0; i < root.nchild; i++)
            start(root.child[i], h);
        open_writers();
        while ((e = rft_read(run.r, rec)) == 0)
            node_out(&root, rec);
        if (e != RFT_EOF) {
            prog = pipe[0][0].prog;
            char *msg = xasprintf("%s: %s", run.input, rft_reader_error(run.r));
            abandon_all();
            die("%s", msg);
        }
        for (int i = 0; i < root.nchild; i++)
            finish(root.child[i]);
    }

    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        e = n->w ? rft_writer_close(n->w, 1, err, sizeof err) : 0;
        if (e) {
            n->w = NULL;
            prog = n->job->prog;
            cli_epipe(e);
            abandon_all();
            die("%s: %s", out_name(n), err);
        }
        n->w = NULL;
    }
    rft_reader_close(run.r);
    run.r = stage.r = NULL;
    cli_abandon_hook = NULL;
    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        rft_header_free(&n->out);
        rft_stage_free(n->job->st);
        n->job->st = NULL;
        free(n->job->ctx);      /* the program's state, from its parse */
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

void cli_jobs_flush(void)
{
    for (int i = 0; i < run.n; i++)
        if (run.all[i]->w)
            write_check(run.all[i], rft_writer_flush(run.all[i]->w));
}

void cli_prog_parse(const cli_prog *p, int argc, char **argv, cli_job *j)
{
    memset(j, 0, sizeof *j);
    j->input = "-";
    j->stream = 1;
    j->wo.level = RFT_DEFAULT_LEVEL;
    j->prog = p->name;
    prog = p->name;
    cli_usage_text = p->usage;
    optind = 0;             /* getopt starts afresh for every stage */
    p->parse(argc, argv, j);
    if (!j->st && !j->source_run)
        die("out of memory");
}

int cli_prog_main(const cli_prog *p, int argc, char **argv)
{
    cli_job j;
    cli_init(argc, argv, p->usage);
    cli_prog_parse(p, argc, argv, &j);
    cli_jobs_run(&j, 1);
    return cli_close_stdout();
}
