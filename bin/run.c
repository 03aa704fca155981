/* run.c - `rft run PIPELINE...`: pipelines of stage programs in one process,
 * records passing in memory (bin/pipeline.c), with exactly the streams and
 * tables the same programs give joined by shell pipes.  Pipelines that
 * begin with the same stages (same words) share them: they run once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline.h"

/* The stage programs, one per line (the Makefile reads this list). */
#define STAGES \
    X(alloc) \
    X(classify) \
    X(dcpatch) \
    X(decode) \
    X(duty) \
    X(energy) \
    X(faultmap) \
    X(gate) \
    X(merge) \
    X(repeat) \
    X(replay) \
    X(synth) \
    X(view)

#define X(n) extern const cli_prog cli_##n;
STAGES
#undef X
#define X(n) &cli_##n,
static const cli_prog *const progs[] = {STAGES};
#undef X

static const char usage[] =
    "rft run [--threads N] [--max-memory MIB] [--shard K/N] pipeline ...\n"
    "Run pipelines of rft stages in one process, records passing in memory (rft(1))\n"
    "\n"
    "      --max-memory MIB   The memory budget of every stage together (their slices'\n"
    "                         and wavefronts' state), refused before allocating past it\n"
    "                         (default 2048; 0: no limit)\n"
    "      --shard K/N        Read shard K of N of the input only (rft(1))\n"
    "      --shard-by cu|slice  With --shard: shards of whole compute units, or of slices (the\n"
    "                         default; rft(1))\n"
    "  pipeline               one argument, 'STAGE [ARGS...] | STAGE [ARGS...] ...', a STAGE\n"
    "                         being a program name without its rft- prefix\n"
    "      --threads N        Feed the stages from up to N threads, the last stages first\n"
    "                         (default: RFT_THREADS, else the processors online where\n"
    "                         there are 4 or more, else 1)\n";

typedef struct {
    char **word;            /* argv of the stage: word[0] its name */
    int nword;
    char **own;             /* the words as split (--quiet is taken out of word) */
    int nown;
} stage_words;

typedef struct {
    stage_words *st;
    int n;
} pipeline;

static noreturn void run_usage(const char *fmt, const char *arg)
{
    prog = "rft run";
    cli_usage_text = usage;
    usage_error(fmt, arg);
}

static void add_word(stage_words *s, const char *w, size_t n)
{
    s->word = xrealloc(s->word, (s->nword + 2) * sizeof *s->word);
    s->word[s->nword] = xrealloc(NULL, n + 1);
    memcpy(s->word[s->nword], w, n);
    s->word[s->nword][n] = 0;
    s->word[++s->nword] = NULL;
}

/* Split text into stages of words as sh would: blanks separate words, '|'
 * stages; 'single' and "double" quotes and backslashes quote. */
static pipeline split(const char *text)
{
    pipeline p = {0};
    size_t cap = strlen(text) + 1, n = 0;
    char *w = xrealloc(NULL, cap);
    int in_word = 0;
    p.st = xrealloc(NULL, sizeof *p.st);
    p.st[0] = (stage_words){0};
    p.n = 1;
    for (const char *c = text;; c++) {
        if (*c == 0 || *c == ' ' || *c == '\t' || *c == '\n' || *c == '|') {
            if (in_word)
                add_word(&p.st[p.n - 1], w, n);
            in_word = 0;
            n = 0;
            if (*c == '|') {
                if (!p.st[p.n - 1].nword)
                    run_usage("'%s': a '|' without a stage before it", text);
                p.st = xrealloc(p.st, (p.n + 1) * sizeof *p.st);
                p.st[p.n++] = (stage_words){0};
            }
            if (*c == 0)
                break;
            continue;
        }
        in_word = 1;
        if (*c == '\'') {
            const char *end = strchr(c + 1, '\'');
            if (!end)
                run_usage("'%s': a ' without its end", text);
            memcpy(w + n, c + 1, end - c - 1);
            n += end - c - 1;
            c = end;
        } else if (*c == '"') {
            for (c++; *c != '"'; c++) {
                if (!*c)
                    run_usage("'%s': a \" without its end", text);
                if (*c == '\\' && strchr("\"\\$`", c[1]))
                    c++;
                w[n++] = *c;
            }
        } else if (*c == '\\') {
            if (!c[1])
                run_usage("'%s': a \\ at the end", text);
            w[n++] = *++c;
        } else {
            w[n++] = *c;
        }
    }
    free(w);
    if (!p.st[p.n - 1].nword)
        run_usage("'%s': a pipeline without a stage at its end", text);
    return p;
}

static const cli_prog *find(const char *name)
{
    const char *bare = strncmp(name, "rft-", 4) == 0 ? name + 4 : name;
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
        if (strcmp(progs[i]->name + 4, bare) == 0)
            return progs[i];
    run_usage("'%s' is not a stage (rft(1) lists them)", name);
}

static int same_words(const stage_words *a, const stage_words *b)
{
    if (a->nword != b->nword)
        return 0;
    for (int i = 0; i < a->nword; i++)
        if (strcmp(a->word[i], b->word[i]))
            return 0;
    return 1;
}

/* The pipelines of the command line and their jobs: run_main's, passed to
 * what builds them.  A usage error exits with all of it reachable from
 * run_main (no leak); run_free frees it after the run. */
typedef struct {
    int np;                 /* pipelines */
    pipeline *pl;           /* their stages as split */
    cli_job **jobs;         /* jobs[i][k]: stage k of pipeline i */
    int *len;               /* stages of pipeline i */
    int **same;             /* as cli_pipelines_run takes it */
} run_ctx;

/* The earlier pipeline whose stages 0..k are the same words as those of
 * pipeline i (the first of such), or -1. */
static int same_stage(const run_ctx *r, int i, int k)
{
    for (int e = 0; e < i; e++) {
        int eq = k < r->pl[e].n;
        for (int m = 0; eq && m <= k; m++)
            eq = same_words(&r->pl[e].st[m], &r->pl[i].st[m]);
        if (eq)
            return r->same[e][k] >= 0 ? r->same[e][k] : e;
    }
    return -1;
}

/* Stage k of pipeline i into its job, checked against its place. */
static void parse_stage(run_ctx *r, int i, int k)
{
    stage_words *s = &r->pl[i].st[k];
    const cli_prog *p = find(s->word[0]);
    cli_shard_ok = !p->makes;      /* its --help as the program's own */
    for (int m = 1; m < s->nword && strcmp(s->word[m], "--"); m++)
        if (strcmp(s->word[m], "--help") == 0 || strcmp(s->word[m], "-h") == 0)
            cli_help(p->usage);
    cli_shard_ok = 0;
    cli_job *j = &r->jobs[i][k];
    s->own = xrealloc(NULL, s->nword * sizeof *s->own);
    s->nown = s->nword;
    memcpy(s->own, s->word, s->nword * sizeof *s->own);
    s->nword = cli_take_quiet(s->nword, s->word);
    /* classify --bs auto reads its input twice: only a file can be */
    for (int m = 1; k > 0 && p == &cli_classify && m < s->nword; m++)
        if (strcmp(s->word[m], "--bs=auto") == 0 ||
            (strcmp(s->word[m], "--bs") == 0 && m + 1 < s->nword &&
             strcmp(s->word[m + 1], "auto") == 0))
            run_usage("%s", "classify --bs auto reads its input twice: only as the first stage");
    cli_prog_parse(p, s->nword, s->word, j);
    if (k > 0 && (strcmp(j->input, "-") || j->source_run))
        usage_error("in a pipeline only the first stage reads a file");
    if (k + 1 < r->pl[i].n && (j->output || !j->stream))
        usage_error("only the last stage of a pipeline writes -o or a table instead of "
                    "its stream");
    const cli_job *first = &r->jobs[0][0];
    if (k == 0 && i > 0 && (strcmp(j->input, first->input) ||
                            !j->source_run != !first->source_run || j->source_run))
        usage_error("every pipeline reads the input of the first ('%s')", first->input);
}

/* Pipeline i: split, and a job for each stage not shared with an earlier one. */
static void add_pipeline(run_ctx *r, int i, const char *text)
{
    r->pl[i] = split(text);
    r->len[i] = r->pl[i].n;
    r->jobs[i] = xrealloc(NULL, r->pl[i].n * sizeof **r->jobs);
    r->same[i] = xrealloc(NULL, r->pl[i].n * sizeof **r->same);
    for (int k = 0; k < r->pl[i].n; k++) {
        r->same[i][k] = same_stage(r, i, k);
        if (r->same[i][k] >= 0)
            r->jobs[i][k] = r->jobs[r->same[i][k]][k];
        else
            parse_stage(r, i, k);
    }
}

/* Streams of distinct last stages on standard output: one at most. */
static void check_stdout(const run_ctx *r)
{
    int to_stdout = 0;
    for (int i = 0; i < r->np; i++) {
        const cli_job *j = &r->jobs[i][r->len[i] - 1];
        int again = 0;
        for (int e = 0; e < i; e++)
            again |= r->len[e] == r->len[i] && r->same[i][r->len[i] - 1] == e;
        to_stdout += !again && j->stream && (!j->output || strcmp(j->output, "-") == 0);
    }
    if (to_stdout > 1)
        run_usage("%s", "more than one pipeline writes its stream to standard output: give -o");
}

/* The file an -o names, as one string for the same file however named
 * (./a.rft, dir/../a.rft): its folder's device and inode and its name, or
 * the name as given. */
static char *out_key(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xasprintf("%.*s", (int)(slash - path + 1), path) : xstrdup(".");
    struct stat st;
    char *key = stat(dir, &st) == 0 ? xasprintf("%ju:%ju/%s", (uintmax_t)st.st_dev,
                                                (uintmax_t)st.st_ino, slash ? slash + 1 : path)
                                    : xstrdup(path);
    free(dir);
    return key;
}

/* Two pipelines that end in different stages never write one -o file: one
 * result would silently replace the other.  Devices (/dev/null) may. */
static void check_outputs(const run_ctx *r)
{
    char **key = xrealloc(NULL, r->np * sizeof *key);
    for (int i = 0; i < r->np; i++) {
        const cli_job *j = &r->jobs[i][r->len[i] - 1];
        struct stat st;
        key[i] = NULL;
        if (r->same[i][r->len[i] - 1] >= 0)   /* an earlier pipeline's last stage */
            continue;
        if (!j->output || strcmp(j->output, "-") == 0 ||
            (stat(j->output, &st) == 0 && !S_ISREG(st.st_mode)))
            continue;
        key[i] = out_key(j->output);
        for (int e = 0; e < i; e++)
            if (key[e] && strcmp(key[e], key[i]) == 0) {
                const char *o = j->output;
                for (int m = 0; m <= i; m++)
                    free(key[m]);
                free(key);
                run_usage("-o %s: more than one pipeline writes it (give each its own file)", o);
            }
    }
    for (int i = 0; i < r->np; i++)
        free(key[i]);
    free(key);
}

/* The jobs' contexts are the driver's to free (cli_pipelines_run). */
static void run_free(run_ctx *r)
{
    for (int i = 0; i < r->np; i++) {
        for (int k = 0; k < r->pl[i].n; k++) {
            stage_words *s = &r->pl[i].st[k];
            for (int m = 0; m < (s->own ? s->nown : s->nword); m++)
                free(s->own ? s->own[m] : s->word[m]);
            free(s->own);
            free(s->word);
        }
        free(r->pl[i].st);
        free(r->jobs[i]);
        free(r->same[i]);
    }
    free(r->pl);
    free(r->jobs);
    free(r->len);
    free(r->same);
}

/* The default --threads: threads only where they pay.  A stage's thread
 * needs a processor of its own beside the main thread's and the system's:
 * on 2 processors a second thread took 1.2 to 2 times the CPU of one and
 * no less wall time (bench/threads, issue 37), so below RUN_MIN_PROCS
 * processors one thread; from there, one a processor. */
#define RUN_MIN_PROCS 4
static int run_default_threads(long procs)
{
    return procs < RUN_MIN_PROCS ? 1 : procs > 1024 ? 1024 : (int)procs;
}

/* --max-memory MIB or --max-memory=MIB before the pipelines: the budget of
 * every stage together (rft_mem_limit); argc without them. */
static int take_memory(int argc, char **argv)
{
    for (;;) {
        const char *m = NULL;
        if (argc > 2 && strcmp(argv[1], "--max-memory") == 0)
            m = argv[2], memmove(argv + 1, argv + 3, (argc - 2) * sizeof *argv), argc -= 2;
        else if (argc > 1 && strncmp(argv[1], "--max-memory=", 13) == 0)
            m = argv[1] + 13, memmove(argv + 1, argv + 2, (argc - 1) * sizeof *argv), argc -= 1;
        else if (argc == 2 && strcmp(argv[1], "--max-memory") == 0)
            run_usage("%s", "--max-memory needs a value");
        if (!m)
            return argc;
        rft_mem_limit(cli_max_memory(m), "rft run");
    }
}

int run_main(int argc, char **argv)
{
    cli_usage_text = usage;
    prog = "rft run";
    argc = cli_take_quiet(argc, argv);
    argc = cli_take_shard(argc, argv);     /* the input's reader's (pipeline.c) */
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        cli_help(usage);
    rft_mem_limit(RFT_STAGE_MEM_DEFAULT, "rft run");
    argc = take_memory(argc, argv);
    const char *t = getenv("RFT_THREADS");
    int skip = 0;               /* words before the pipelines */
    if (argc > 2 && strcmp(argv[1], "--threads") == 0)
        t = argv[2], skip = 2;
    else if (argc > 1 && strncmp(argv[1], "--threads=", 10) == 0)
        t = argv[1] + 10, skip = 1;
    else if (argc == 2 && strcmp(argv[1], "--threads") == 0)
        run_usage("%s", "--threads needs a value");
    if (t && *t) {
        prog = "rft run";
        cli_run_threads = (int)cli_uint(skip ? "--threads" : "RFT_THREADS", t, 1, 1024);
    } else
        cli_run_threads = run_default_threads(sysconf(_SC_NPROCESSORS_ONLN));
    argc -= skip;
    argv += skip;
    argc = take_memory(argc, argv);
    if (argc < 2)
        run_usage("%s", "no pipeline");
    int np = argc - 1;
    run_ctx r = {.np = np,
                 .pl = xrealloc(NULL, np * sizeof *r.pl),
                 .jobs = xrealloc(NULL, np * sizeof *r.jobs),
                 .len = xrealloc(NULL, np * sizeof *r.len),
                 .same = xrealloc(NULL, np * sizeof *r.same)};
    for (int i = 0; i < np; i++)
        add_pipeline(&r, i, argv[i + 1]);
    check_stdout(&r);
    check_outputs(&r);
    cli_pipelines_run(r.jobs, r.len, np, r.same);
    run_free(&r);
    return cli_close_stdout();
}
