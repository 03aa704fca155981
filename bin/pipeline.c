/* pipeline.c - the driver of the stage programs and of `rft run`: one input
 * stream, a tree of stages (pipelines that begin alike share their first
 * stages), a writer at the end of each pipeline that writes a stream. */
#include "pipeline.h"

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
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
    /* threads (see "hand-off" below) */
    node *parent;           /* NULL for the first stage of a pipeline */
    struct hand *in;        /* its records come from another thread: fed there */
    node *owner;            /* the node whose thread feeds this one, NULL: main */
    int post;               /* its place in post-order: who failed first */
    int failed;             /* its failure is in fail_* and it is fed no more */
    int fail_epipe;
    uint64_t fail_root;
    char *fail_msg;
};

static struct {
    node **all;
    int n;
    rft_reader *r;
    const char *input;
    uint32_t lanes;
    node *src;              /* the source job's node (rft-decode, rft-synth), or NULL */
    int handing;            /* threads are feeding nodes: a failure is recorded, not fatal */
    atomic_int failing;     /* some node failed: stop making records */
} run;

int cli_run_threads = 1;

/* The root record (read, or made by the source) whose records a thread is
 * feeding: where a failure happened, in the order of one thread's run. */
static _Thread_local uint64_t cur_root;

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

static void threads_join(void);
static node *first_failure(void);

/* Every stream is left without its end record, the reader stopped.  With
 * threads feeding nodes (a source failing: cli_abandon_hook), they end
 * first: a failure of theirs comes before the source's, which made the
 * records that failed earlier. */
static void abandon_all(void)
{
    if (run.handing) {
        threads_join();
        node *f = first_failure();
        if (f) {
            if (f->fail_epipe)
                cli_epipe(RFT_EPIPE);
            abandon_all();
            prog = f->job->prog;
            warnx("%s", f->fail_msg);
            exit(1);
        }
    }
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

/* n failed with msg (allocated): with threads feeding nodes it is kept
 * for fail_now, which tells the first failure of a run on one thread;
 * else the run ends here. */
static void node_failed(node *n, char *msg, int epipe)
{
    if (run.handing) {
        if (!n->failed) {
            n->failed = 1;
            n->fail_msg = msg;
            n->fail_root = cur_root;
            n->fail_epipe = epipe;
        } else {
            free(msg);
        }
        atomic_store(&run.failing, 1);
        return;
    }
    if (epipe)
        cli_epipe(RFT_EPIPE);
    prog = n->job->prog;
    abandon_all();
    warnx("%s", msg);
    free(msg);
    exit(1);
}

static void node_fail(node *n, int at_record)
{
    const char *why = rft_stage_error(n->job->st);
    /* a stage the reader feeds in this thread names its place in the input
     * (a shard's records are some of it) */
    uint64_t at = n->root && run.r && !run.handing ? rft_reader_count(run.r) : n->count;
    node_failed(n, at_record ? xasprintf("%s: record %llu: %s", node_input(n),
                                         (unsigned long long)at, why)
                             : xasprintf("%s: %s", node_input(n), why), 0);
}

/* A stage's warning, from whichever thread feeds it: a line whole */
static void node_warn(void *ctx, const char *msg)
{
    fflush(stdout);
    flockfile(stderr);
    fprintf(stderr, "%s: %s\n", ((node *)ctx)->job->prog, msg);
    funlockfile(stderr);
}

static const char *out_name(const node *n)
{
    const char *o = n->job->output;
    return o && strcmp(o, "-") ? o : "standard output";
}

static int node_put(void *ctx, rft_rec *rec)
{
    node *n = ctx;
    if (n->failed)
        return 0;
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
static void write_check(node *n, int e)
{
    if (!e || n->failed)
        return;
    node_failed(n, xasprintf("%s: %s", out_name(n), rft_writer_error(n->w)), e == RFT_EPIPE);
}

/* ---- hand-off: a node fed in a thread of its own -------------------------------
 * With --threads above 1 (`rft run`), some nodes are fed by a thread of their
 * own: the thread of the node above packs each record it hands them into a
 * batch, a ring of HAND_SLOTS batches of HAND_BYTES between the two; the
 * node's thread unpacks and feeds them.  A batch changes hands under a
 * mutex once per some hundred records, so the threads rarely wait on each
 * other and never spin.  Only the records go through threads: every stage
 * starts before and finishes after them, in the main thread, in the order
 * a single thread keeps (its tables, its end records). */
#define HAND_SLOTS 4
#define HAND_BYTES (256u << 10)
enum { HAND_END = 1, HAND_FLUSH = 2 };

typedef struct {
    unsigned char *buf;
    size_t len, cap;
    int flags;              /* HAND_END: nothing follows; HAND_FLUSH: flush after */
} hand_batch;

/* One packed record: its fields, then its payload (raw) and a kernel's name */
typedef struct {
    uint64_t root;          /* cur_root where it was made */
    int32_t kind;
    uint32_t len, body, raw, name;
} hand_ent;

typedef struct hand {
    pthread_mutex_t mu;
    pthread_cond_t more, room;
    hand_batch b[HAND_SLOTS];
    unsigned made, taken;   /* batches published and taken (mod 2^32) */
    hand_batch *cur;        /* the one being filled (the upper thread's) */
    rft_rec *rec;           /* the record unpacked (the lower thread's) */
    pthread_t thread;
} hand;

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

static void hand_wait_room(hand *h)
{
    pthread_mutex_lock(&h->mu);
    while (h->made - h->taken == HAND_SLOTS)
        pthread_cond_wait(&h->room, &h->mu);
    pthread_mutex_unlock(&h->mu);
    h->cur = &h->b[h->made % HAND_SLOTS];
    h->cur->len = 0;
    h->cur->flags = 0;
}

static void hand_publish(hand *h, int flags)
{
    if (!h->cur)
        hand_wait_room(h);
    h->cur->flags = flags;
    h->cur = NULL;
    pthread_mutex_lock(&h->mu);
    h->made++;
    pthread_cond_signal(&h->more);
    pthread_mutex_unlock(&h->mu);
}

/* The bytes of a record's body a batch carries: a write's fields, then its
 * mask and values for the stream's lanes only (not RFT_MAX_LANES: a batch of
 * 64-lane writes is then 30 % smaller, and copied twice); another kind's own
 * member of the union. */
#define W_FIELDS offsetof(rft_write, mask)
static uint32_t hand_body(int kind)
{
    switch (kind) {
    case RFT_WRITE: return (uint32_t)(W_FIELDS + (run.lanes + 7) / 8 + run.lanes * sizeof(uint32_t));
    case RFT_KERNEL: return sizeof(rft_kernel);
    case RFT_WFBEGIN: return sizeof(rft_wfbegin);
    case RFT_WFEND: return sizeof(rft_wfend);
    case RFT_READ: return sizeof(rft_regread);
    case RFT_BUNDLE: return sizeof(rft_bundle);
    default: return 0;      /* other kinds travel raw */
    }
}

static void hand_put(hand *h, const rft_rec *rec)
{
    hand_ent e = {cur_root, rec->kind, rec->len, hand_body(rec->kind), 0, 0};
    if (rec->kind != RFT_WRITE) {
        e.raw = rec->raw ? rec->len : 0;
        if (rec->kind == RFT_KERNEL && rec->u.kernel.name)
            e.name = rec->u.kernel.name_len;
    }
    size_t need = pad8(sizeof e + (size_t)e.body + e.raw + e.name);
    if (h->cur && h->cur->len + need > h->cur->cap)
        hand_publish(h, 0);
    if (!h->cur)
        hand_wait_room(h);
    hand_batch *b = h->cur;
    if (need > b->cap) {        /* a record larger than a batch: once */
        free(b->buf);
        if (!(b->buf = malloc(need)))
            die("out of memory");
        b->cap = need;
    }
    unsigned char *p = b->buf + b->len;
    memcpy(p, &e, sizeof e);
    p += sizeof e;
    if (rec->kind == RFT_WRITE) {
        size_t mb = (run.lanes + 7) / 8;
        memcpy(p, &rec->w, W_FIELDS);
        memcpy(p + W_FIELDS, rec->w.mask, mb);
        memcpy(p + W_FIELDS + mb, rec->w.val, run.lanes * sizeof rec->w.val[0]);
    } else if (e.body)
        memcpy(p, &rec->u, e.body);
    if (e.raw)
        memcpy(p + e.body, rec->raw, e.raw);
    if (e.name)
        memcpy(p + e.body + e.raw, rec->u.kernel.name, e.name);
    b->len += need;
}

static void thread_end(const node *owner, int flags);
static void thread_flush(const node *owner);

/* The thread of node c: feeds it the records of its batches. */
static void *hand_main(void *arg)
{
    node *c = arg;
    hand *h = c->in;
    rft_rec *rec = h->rec;
    for (;;) {
        pthread_mutex_lock(&h->mu);
        while (h->made == h->taken)
            pthread_cond_wait(&h->more, &h->mu);
        pthread_mutex_unlock(&h->mu);
        hand_batch *b = &h->b[h->taken % HAND_SLOTS];
        for (size_t at = 0; at < b->len;) {
            hand_ent e;
            const unsigned char *p = b->buf + at;
            memcpy(&e, p, sizeof e);
            p += sizeof e;
            rec->kind = e.kind;
            rec->len = e.len;
            if (e.kind == RFT_WRITE) {
                size_t mb = (run.lanes + 7) / 8;
                memcpy(&rec->w, p, W_FIELDS);
                memcpy(rec->w.mask, p + W_FIELDS, mb);
                memcpy(rec->w.val, p + W_FIELDS + mb, run.lanes * sizeof rec->w.val[0]);
            } else if (e.body)
                memcpy(&rec->u, p, e.body);
            /* a kind travelling raw points into the batch even when empty */
            rec->raw = e.raw || !e.body ? p + e.body : NULL;
            if (e.kind == RFT_KERNEL && e.name)
                rec->u.kernel.name = (const char *)p + e.body + e.raw;
            cur_root = e.root;
            node_put(c, rec);
            at += pad8(sizeof e + (size_t)e.body + e.raw + e.name);
        }
        int flags = b->flags;
        pthread_mutex_lock(&h->mu);
        h->taken++;
        pthread_cond_signal(&h->room);
        pthread_mutex_unlock(&h->mu);
        if (flags & HAND_FLUSH)
            thread_flush(c);
        if (flags & HAND_END) {
            thread_end(c, HAND_END);
            return NULL;
        }
    }
}

/* The batches the thread of owner (NULL: main) hands on: each published
 * with flags (the last one partly filled). */
static void thread_end(const node *owner, int flags)
{
    for (int i = 0; i < run.n; i++) {
        node *d = run.all[i];
        if (d->in && (d->parent ? d->parent->owner : NULL) == owner)
            hand_publish(d->in, flags);
    }
}

/* The streams the thread of owner writes, flushed, and then those below. */
static void thread_flush(const node *owner)
{
    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        if (n->w && n->owner == owner)
            write_check(n, rft_writer_flush(n->w));
    }
    thread_end(owner, HAND_FLUSH);
}

static void hand_free(hand *h)
{
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->more);
    pthread_cond_destroy(&h->room);
    for (int i = 0; i < HAND_SLOTS; i++)
        free(h->b[i].buf);
    free(h->rec);
    free(h);
}

/* Whether a node's stage writes standard output as records come (rft-view):
 * two such, or one beside a stream to standard output, keep one thread,
 * which keeps their lines in order. */
static int prints(const node *n)
{
    return n->job->prints || (n->w && (!n->job->output || strcmp(n->job->output, "-") == 0));
}

/* The longest way down from n to a leaf */
static int node_height(const node *n)
{
    int h = 0;
    for (int i = 0; i < n->nchild; i++) {
        int k = 1 + node_height(n->child[i]);
        h = k > h ? k : h;
    }
    return h;
}

/* Threads for up to threads - 1 nodes: the last stages of the pipelines
 * first (the accounting ones, rft-duty and the energy scan, are the dearest),
 * then those before them; never the source, which makes the records in the
 * main thread.  Then each is started. */
static void threads_start(int threads)
{
    int nprint = 0, any_print = 0;
    for (int i = 0; i < run.n; i++) {
        nprint += prints(run.all[i]);
        any_print |= run.all[i]->job->prints;
    }
    if (any_print && nprint > 1)
        threads = 1;
    int left = threads - 1;
    for (int height = 0; left > 0 && height < run.n; height++)
        for (int i = 0; left > 0 && i < run.n; i++) {
            node *n = run.all[i];
            if (node_height(n) != height || n == run.src || n->in)
                continue;
            hand *h = xrealloc(NULL, sizeof *h);
            memset(h, 0, sizeof *h);
            h->rec = xrealloc(NULL, sizeof *h->rec);
            for (int b = 0; b < HAND_SLOTS; b++) {
                h->b[b].buf = xrealloc(NULL, HAND_BYTES);
                h->b[b].cap = HAND_BYTES;
            }
            pthread_mutex_init(&h->mu, NULL);
            pthread_cond_init(&h->more, NULL);
            pthread_cond_init(&h->room, NULL);
            n->in = h;
            left--;
        }
    if (left == threads - 1)
        return;             /* one thread: the stages fail as they go */
    for (int i = 0; i < run.n; i++) {     /* parents come before their children */
        node *n = run.all[i];
        n->owner = n->in ? n : n->parent ? n->parent->owner : NULL;
    }
    run.handing = 1;
    /* a thread takes no signal: a handler (removing temporaries) runs in
     * the main thread */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        if (n->in && pthread_create(&n->in->thread, NULL, hand_main, n)) {
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            die("cannot start a thread");
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Every batch handed on and every thread ended: the nodes are the main
 * thread's again. */
static void threads_join(void)
{
    if (!run.handing)
        return;
    thread_end(NULL, HAND_END);
    for (int i = 0; i < run.n; i++)
        if (run.all[i]->in)
            pthread_join(run.all[i]->in->thread, NULL);
    run.handing = 0;
}

/* The threads ended: the failure that comes first on one thread (the
 * earliest root record; for one record, a stage before the stage that fed
 * it, an earlier pipeline before a later), or NULL. */
static node *first_failure(void)
{
    node *first = NULL;
    for (int i = 0; i < run.n; i++) {
        node *n = run.all[i];
        if (n->failed && (!first || n->fail_root < first->fail_root ||
                          (n->fail_root == first->fail_root && n->post < first->post)))
            first = n;
    }
    return first;
}

/* Some node failed, or the input (reader_msg, allocated, at root record
 * at): the threads ended, the run ends with the first failure. */
static noreturn void fail_now(char *reader_msg, uint64_t at)
{
    threads_join();
    node *f = first_failure();
    if (f && reader_msg && f->fail_root >= at)
        f = NULL;       /* the input's failure comes first */
    if (f) {
        free(reader_msg);
        if (f->fail_epipe)
            cli_epipe(RFT_EPIPE);
        prog = f->job->prog;
        abandon_all();
        warnx("%s", f->fail_msg);
    } else {
        prog = run.all[0]->job->prog;
        abandon_all();
        warnx("%s", reader_msg ? reader_msg : "internal error: a failure without its message");
    }
    exit(1);
}

static void post_order(node *n, int *k)
{
    for (int i = 0; i < n->nchild; i++)
        post_order(n->child[i], k);
    n->post = (*k)++;
}

/* The records of a node's stage: to its stream (first: children may change
 * them), then to each child. */
static int node_out(void *ctx, rft_rec *rec)
{
    node *n = ctx;
    if (n == run.src) {
        cur_root++;
        if (run.handing && atomic_load_explicit(&run.failing, memory_order_relaxed))
            fail_now(NULL, 0);
    }
    if (n->w)
        write_check(n, rft_write_rec(n->w, rec));
    /* the stages that only read it first (add_child keeps them so), then
     * those that may change it: a copy each but the last; one fed by a
     * thread of its own gets a copy in its batch */
    for (int i = 0; i < n->nchild; i++) {
        node *c = n->child[i];
        if (c->in && run.handing) {
            hand_put(c->in, rec);
        } else if (i + 1 < n->nchild && !readonly(c)) {
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

/* A stage of a shard (--shard K/N): its output's header says which, and
 * which stages ran on it (RFT_META_SHARD...), so that rft-merge refuses a
 * shard twice and takes once the counters of the stages before the shard. */
static void shard_mark(node *n, const rft_header *in)
{
    char k[32];
    snprintf(k, sizeof k, "%u/%u", cli_shard_k, cli_shard_n);
    const char *was = rft_header_get(in, RFT_META_SHARD);
    const char *before = rft_header_get(in, RFT_META_SHARD_STAGES);
    char *stages = was && before && strcmp(was, k) == 0 ? xasprintf("%s,%s", before, n->job->prog)
                                                         : xasprintf("%s", n->job->prog);
    const char *by = cli_shard_by == RFT_SHARD_BY_CU ? "cu" : "slice";
    int e = rft_header_set(&n->out, RFT_META_SHARD, k) ||
            rft_header_set(&n->out, RFT_META_SHARD_BY, by) ||
            rft_header_set(&n->out, RFT_META_SHARD_STAGES, stages);
    free(stages);
    if (e) {
        rft_stage_fail(n->job->st, RFT_EFORMAT, "header: too much metadata");
        node_fail(n, 0);
    }
}

static void start(node *n, const rft_header *in)
{
    n->job->st->input = node_input(n);
    if (n->job->max_mem_set && !n->job->alone)  /* a stage of rft run: its own limit too */
        n->job->st->mem_max = n->job->max_mem;
    if (n->job->check) {
        prog = n->job->prog;
        n->job->check(n->job, in);
    }
    if (rft_stage_start(n->job->st, in, &n->out))
        node_fail(n, 0);
    if (cli_shard_n)
        shard_mark(n, in);
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
                at[i][k]->parent = k ? at[i][k - 1] : NULL;
                add_child(k ? at[i][k - 1] : &root, at[i][k]);
                read_flags |= pipe[i][k].read_flags;
            }
        }
        at[i][len[i] - 1]->leaf = 1;
    }
    run.input = pipe[0][0].input;
    run.src = pipe[0][0].source_open ? root.child[0] : NULL;
    run.handing = 0;
    atomic_store(&run.failing, 0);
    cur_root = 0;
    int npost = 0;
    for (int i = 0; i < root.nchild; i++)
        post_order(root.child[i], &npost);
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
        threads_start(cli_run_threads);
        prog = src->job->prog;
        src->job->source_run(src->job, &src->sink);
        if (run.handing) {
            threads_join();
            if (first_failure())
                fail_now(NULL, 0);
        }
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
        threads_start(cli_run_threads);
        meter_start(run.input);
        prog = pipe[0][0].prog;
        uint64_t n = 1;
        for (; (e = rft_read(run.r, rec)) == 0; n++) {
            cur_root = n;
            node_out(&root, rec);
            if (meter.on && !(n & 0xffff))
                meter_tick(n, rft_reader_bytes(run.r));
            if (run.handing && atomic_load_explicit(&run.failing, memory_order_relaxed))
                fail_now(NULL, 0);
        }
        meter_end();
        if (run.handing) {
            char *msg = e != RFT_EOF ? xasprintf("%s: %s", run.input, rft_reader_error(run.r)) : NULL;
            threads_join();
            if (msg || first_failure())
                fail_now(msg, n);
        }
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
        if (n->in)
            hand_free(n->in);
        free(n->fail_msg);
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
    if (j->alone)           /* the program is the process: its budget */
        rft_mem_limit(j->max_mem, NULL);
}

void cli_jobs_flush(void)
{
    if (run.handing) {          /* the main thread's streams; the others' in their threads */
        thread_flush(NULL);
        return;
    }
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
