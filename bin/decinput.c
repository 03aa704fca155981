/* decinput.c - the input side of rft-decode (decinput.h): what it reads
 * and how often, apart from its options (bin/rft-decode.c). */
#include "decinput.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static decode_cli *several;     /* the job's, when it reads several files */

static noreturn void line_fail(const char *input, uint64_t line, const char *why)
{
    if (several && line) {      /* the file of that line, and its own line */
        int i = several->cur;
        while (i > 0 && several->line0[i] >= line)
            i--;
        input = several->paths[i];
        line -= several->line0[i];
    }
    char *msg = line ? xasprintf("%s:%llu: %s", input, (unsigned long long)line, why)
                     : xasprintf("%s: %s", input, why);
    if (cli_abandon_hook)
        cli_abandon_hook();
    die("%s", msg);
}

static void note(void *ctx, const char *msg) { warnx("%s", msg); }

/* The pipeline trace's next instruction (rft_dec_opts.m2s_next). */
static int trace_next(void *ctx, rft_m2s_inst *out)
{
    decode_cli *c = ctx;
    for (;;) {
        if (rft_m2s_trace_pop(c->tp, 0, out))
            return 1;
        /* tbuf is NULL before the first read: neither memchr nor + may see it */
        char *s = c->tbuf ? c->tbuf + c->tpos : NULL;
        char *nl = c->tlen > c->tpos ? memchr(s, '\n', c->tlen - c->tpos) : NULL;
        if (!nl && !c->teof) {
            if (c->tlen > c->tpos)
                memmove(c->tbuf, s, c->tlen - c->tpos);
            c->tlen -= c->tpos;
            c->tpos = 0;
            if (c->tlen == c->tcap) {
                if (c->tcap >= 1u << 20)
                    line_fail(c->tname, c->tline + 1, "a line longer than 1 MiB");
                c->tcap = c->tcap ? 2 * c->tcap : 65536;
                c->tbuf = xrealloc(c->tbuf, c->tcap);
            }
            long n = rft_in_read(c->tin, c->tbuf + c->tlen, c->tcap - c->tlen);
            if (n < 0)
                line_fail(c->tname, c->tline + 1, rft_in_error(c->tin));
            c->teof = n == 0;
            c->tlen += (size_t)n;
            continue;
        }
        if (!nl && c->tpos == c->tlen)
            return rft_m2s_trace_pop(c->tp, 1, out);
        size_t len = nl ? (size_t)(nl - s) : c->tlen - c->tpos;
        c->tpos += len + (nl != NULL);
        c->tline++;
        if (len && s[len - 1] == '\r')
            len--;
        int r = rft_m2s_trace_line(c->tp, s, len, out);
        if (r < 0)
            line_fail(c->tname, c->tline, rft_m2s_trace_why(c->tp));
        if (r)
            return 1;
    }
}
static uint64_t file_bytes(void *ctx) { return rft_in_bytes(((decode_cli *)ctx)->in); }

/* The pre-scan reads the input twice: stdin or a pipe is kept, as it is
 * read the first time, in an unlinked temporary file. */
static void keep(void *ctx, const char *p, size_t n)
{
    decode_cli *c = ctx;
    if (!c->spool) {
        const char *dir = getenv("TMPDIR");
        c->tmp = xasprintf("%s/rft-decode.XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(c->tmp);
        if (fd < 0 || !(c->spool = fdopen(fd, "w")))
            die("%s: %s", c->tmp, strerror(errno));
        unlink(c->tmp);     /* /dev/fd/N reads it again */
    }
    if (n && fwrite(p, 1, n, c->spool) != n)
        die("%s: %s", c->tmp, strerror(errno));
}

static void open_file(decode_cli *c, int i)
{
    char err[256];
    rft_in_close(c->in);
    if (!(c->in = rft_in_open(c->paths[i], RFT_IN_AUTO, err, sizeof err)))
        die("%s: %s", c->paths[i], err);
    c->cur = i;
    c->line0[i] = c->lines;
    c->ends_nl = 1;
}

static void read_again(const char *input, decode_cli *c)
{
    char err[256], fd[32];
    if (c->npaths > 1) {        /* the pre-scan's second reading: from the first file */
        c->lines = 0;
        open_file(c, 0);
        return;
    }
    if (c->spool && fflush(c->spool) != 0)
        die("%s: %s", c->tmp, strerror(errno));
    snprintf(fd, sizeof fd, "/dev/fd/%d", c->spool ? fileno(c->spool) : -1);
    rft_in_close(c->in);
    if (!(c->in = rft_in_open(c->spool ? fd : input, RFT_IN_AUTO, err, sizeof err)))
        die("%s: %s", c->spool ? c->tmp : input, err);
}

static void read_more(const char *input, decode_cli *c, const rft_sink *out)
{
    size_t room;
    char *p = rft_decode_space(c->d, &room);
    if (out && c->flush)
        cli_jobs_flush();   /* what is decoded goes out while the input is open */
    long n = rft_in_read(c->in, p, room);
    if (n < 0)
        line_fail(input, rft_decode_progress(c->d)->lines + 1, rft_in_error(c->in));
    if (c->npaths > 1) {        /* the next file at the end of one, on a line of its own */
        while (n == 0 && c->cur + 1 < c->npaths) {
            if (!c->ends_nl && room) {
                *p = '\n';
                n = 1;
                break;
            }
            open_file(c, c->cur + 1);
            if ((n = rft_in_read(c->in, p, room)) < 0)
                line_fail(c->paths[c->cur], 0, rft_in_error(c->in));
        }
        for (const char *q = p, *e = p + n; (q = memchr(q, '\n', (size_t)(e - q))); q++)
            c->lines++;
        if (n > 0)
            c->ends_nl = p[n - 1] == '\n';
    }
    rft_decode_fill(c->d, (size_t)n);
}

/* Decode until the header is final (out NULL) or to the end. */
static void run(const char *input, decode_cli *c, const rft_sink *out)
{
    for (;;) {
        switch (rft_decode_step(c->d, out)) {
        case RFT_DECODE_MORE: read_more(input, c, out); break;
        case RFT_DECODE_AGAIN: read_again(input, c); break;
        case RFT_DECODE_HEADER: case RFT_DECODE_DONE: return;
        case RFT_DECODE_EOPTS:
            cli_usage_text = decode_usage;     /* the options do not fit this input */
            usage_error("%s", rft_decode_why(c->d));
        default: line_fail(input, rft_decode_progress(c->d)->err_line, rft_decode_why(c->d));
        }
    }
}

void decode_source_open(cli_job *j, rft_header *h)
{
    decode_cli *c = j->ctx;
    char err[256];
    struct stat st;
    c->o.input = c->label ? c->label : j->input;
    if (strcmp(j->input, "-") == 0 || stat(j->input, &st) != 0 || !S_ISREG(st.st_mode))
        c->o.keep = keep;   /* it cannot be read twice */
    if (!(c->in = rft_in_open(j->input, RFT_IN_AUTO, err, sizeof err)))
        die("%s: %s", j->input, err);
    if (c->npaths > 1) {
        c->o.keep = NULL;       /* files: read again from the first */
        c->ends_nl = 1;
        several = c;
    }
    if (c->tname) {
        if (!(c->tin = rft_in_open(c->tname, RFT_IN_AUTO, err, sizeof err)))
            die("%s: %s", c->tname, err);
        if (!(c->tp = rft_m2s_trace_new()))
            die("out of memory");
        if (c->o.dec.m2s_exec)
            rft_m2s_trace_at_exec(c->tp, 0);
        rft_m2s_trace_clock(c->tp, c->o.dec.m2s_mhz[0], c->o.dec.m2s_mhz[1]);
        c->o.dec.m2s_next = trace_next;
        c->o.dec.m2s_ctx = c;
        c->o.dec.m2s_trace = c->tname;
    }
    if (!(c->d = rft_decode_new(&c->o)))
        die("out of memory");
    run(j->input, c, NULL);
    if (rft_header_copy(h, rft_decode_header(c->d)))
        die("out of memory");
}

void decode_source_run(cli_job *j, const rft_sink *out)
{
    decode_cli *c = j->ctx;
    run(j->input, c, out);
    if (c->tp && rft_m2s_trace_fetch_kept(c->tp))
        warnx("%s: %llu of %llu instructions have no execute stage in the trace: stamped at their "
              "fetch", c->tname, (unsigned long long)rft_m2s_trace_fetch_kept(c->tp),
              (unsigned long long)rft_m2s_trace_insts(c->tp));
    if (c->tp && rft_m2s_trace_end_kept(c->tp))
        warnx("%s: the trace ends before %llu s_endpgm completed: their wavefronts end at their "
              "execute stage, not after their stores", c->tname,
              (unsigned long long)rft_m2s_trace_end_kept(c->tp));
    if (c->tp && rft_m2s_trace_mem_kept(c->tp))
        warnx("%s: %llu vector memory accesses have no write stage (mem-w) in the trace: no done "
              "mark for them (rft-replay --model cu takes them at their issue)", c->tname,
              (unsigned long long)rft_m2s_trace_mem_kept(c->tp));
    rft_in_close(c->in);
    rft_in_close(c->tin);
    rft_m2s_trace_free(c->tp);
    free(c->tbuf);
    if (c->spool)
        fclose(c->spool);
    free(c->tmp);
    rft_decode_free(c->d);
    free(c->events);
    for (int i = 0; i < c->npaths; i++)
        free(c->paths[i]);
    free(c->paths);
    free(c->line0);
    free(c->label);
    free(c->folder_events);
    several = NULL;
}

/* ---- several trace files --------------------------------------------------------- */
/* The first grid_launch_id a file names (CUTracer writes its kernel_metadata
 * line, then the launch's reg_trace records), UINT64_MAX if none. */
static uint64_t first_launch(const char *path)
{
    static const char key[] = "\"grid_launch_id\":";
    enum { K = sizeof key - 1, CHUNK = 1 << 16, TAIL = K + 24 };
    char err[256], buf[TAIL + CHUNK + 1];
    rft_in *in = rft_in_open(path, RFT_IN_AUTO, err, sizeof err);
    if (!in)
        die("%s: %s", path, err);
    size_t have = 0;
    uint64_t id = UINT64_MAX;
    for (long n; id == UINT64_MAX && (n = rft_in_read(in, buf + have, CHUNK)) != 0;) {
        if (n < 0)
            die("%s: %s", path, rft_in_error(in));
        have += (size_t)n;
        buf[have] = 0;
        char *k = NULL;
        for (char *q = buf; (q = memchr(q, '"', have - (size_t)(q - buf))); q++)
            if ((size_t)(buf + have - q) >= K && memcmp(q, key, K) == 0) {
                k = q;
                break;
            }
        if (k && strspn(k + K, " 0123456789") < (size_t)(buf + have - k - K)) {
            char *end;
            unsigned long long v = strtoull(k + K, &end, 10);
            id = end > k + K ? (uint64_t)v : UINT64_MAX - 1;
            break;
        }
        /* keep the end: a key, or a key and its number, cut by the chunk */
        size_t keep = have < TAIL ? have : TAIL;
        if (k)
            keep = (size_t)(buf + have - k);
        memmove(buf, buf + have - keep, keep);
        have = keep;
    }
    rft_in_close(in);
    return id;
}

typedef struct { uint64_t id; int order; char *path; } launch_file;

static int by_launch(const void *a, const void *b)
{
    const launch_file *x = a, *y = b;
    return x->id != y->id ? (x->id < y->id ? -1 : 1) : (x->order > y->order) - (x->order < y->order);
}

static int ends_with(const char *s, const char *t)
{
    size_t a = strlen(s), b = strlen(t);
    return a >= b && strcmp(s + a - b, t) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void decode_inputs(decode_cli *c, int n, char **arg, const char **input, const char **events)
{
    struct stat st;
    if (n == 0 || (n == 1 && (strcmp(arg[0], "-") == 0 || stat(arg[0], &st) != 0 ||
                              !S_ISDIR(st.st_mode)))) {
        *input = n ? arg[0] : "-";
        return;
    }
    char **files = NULL;
    int nf = 0, given = *events != NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(arg[i], "-") == 0)
            usage_error("several inputs: standard input is not one of them");
        if (stat(arg[i], &st) != 0)
            die("%s: %s", arg[i], strerror(errno));
        if (!S_ISDIR(st.st_mode)) {
            if (!S_ISREG(st.st_mode))
                usage_error("several inputs: %s is not a file", arg[i]);
            files = xrealloc(files, (size_t)(nf + 1) * sizeof *files);
            files[nf++] = xasprintf("%s", arg[i]);
            continue;
        }
        DIR *dir = opendir(arg[i]);
        if (!dir)
            die("%s: %s", arg[i], strerror(errno));
        int first = nf;
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.' || !(ends_with(e->d_name, ".ndjson") ||
                                         ends_with(e->d_name, ".ndjson.zst")))
                continue;
            char *path = xasprintf("%s/%s", arg[i], e->d_name);
            if (strncmp(e->d_name, "cutracer_kernel_events", 22) == 0) {
                /* the folder's kernel events file, unless --kernel-events names one */
                if (!given && *events)
                    usage_error("%s: two kernel events files (%s, %s): give --kernel-events",
                                arg[i], *events, path);
                if (!given)
                    *events = c->folder_events = path;
                else
                    free(path);
                continue;
            }
            files = xrealloc(files, (size_t)(nf + 1) * sizeof *files);
            files[nf++] = path;
        }
        closedir(dir);
        if (nf == first)
            usage_error("%s: no trace files (*.ndjson, *.ndjson.zst) in the folder", arg[i]);
        qsort(files + first, (size_t)(nf - first), sizeof *files, by_name);
    }
    launch_file *lf = xrealloc(NULL, (size_t)nf * sizeof *lf);
    for (int i = 0; i < nf; i++)
        lf[i] = (launch_file){first_launch(files[i]), i, files[i]};
    qsort(lf, (size_t)nf, sizeof *lf, by_launch);
    for (int i = 0; i < nf; i++)
        files[i] = lf[i].path;
    free(lf);
    c->paths = files;
    c->npaths = nf;
    c->line0 = xrealloc(NULL, (size_t)nf * sizeof *c->line0);
    memset(c->line0, 0, (size_t)nf * sizeof *c->line0);
    *input = files[0];
    c->label = n == 1 ? xasprintf("%s", arg[0]) : xasprintf("%s and %d more", files[0], nf - 1);
}

/* --kernel-events: the whole file (plain or zstd), for the decoder */
void decode_read_events(decode_cli *c, const char *path)
{
    char err[256];
    rft_in *in = rft_in_open(path, RFT_IN_AUTO, err, sizeof err);
    size_t len = 0, cap = 1 << 16;
    if (!in)
        die("%s: %s", path, err);
    c->events = xrealloc(NULL, cap);
    for (long n;; len += (size_t)n) {
        if (len == cap)
            c->events = xrealloc(c->events, cap *= 2);
        if ((n = rft_in_read(in, c->events + len, cap - len)) < 0)
            die("%s: %s", path, rft_in_error(in));
        if (n == 0)
            break;
    }
    rft_in_close(in);
    c->o.events = c->events;
    c->o.events_len = len;
    c->o.events_name = path;
}

void decode_cli_init(decode_cli *c)
{
    *c = (decode_cli){0};
    rft_decode_opts_default(&c->o);
    c->o.warn = note;
    c->o.file_bytes = file_bytes;
    c->o.ctx = c;
}
