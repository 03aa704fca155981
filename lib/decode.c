/* decode.c - rft-decode's driving loop (decode.h): the format detected from
 * the first lines, then each line handed to the canonical grammar
 * (lib/text.c), its CSV form (libcsv) or a simulator-log decoder
 * (decoders.h); '# key=value' lines, the pre-scan of window sizes,
 * --skip-bad, the header and the end-of-run counters and warnings. */
#include <csv.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode.h"

#define MAX_LINE (1u << 20)
#define BUF_CAP (MAX_LINE + 4 * (1u << 20))
#define DETECT_BYTES (64u << 10)   /* detection reads this much unless a line decides first */
#define MAX_FIELDS (RFT_MAX_LANES + 16)
#define GO_ON 100                  /* internal: the state changed, carry on */

enum { S_DETECT, S_CONFIG, S_LINES, S_AGAIN, S_END, S_DONE };

/* The large parts, each written before it is read: kept apart from the
 * object, which is zeroed (a decoder made for every small input stays cheap). */
struct bufs {
    const char *f[MAX_FIELDS];      /* a line's fields */
    size_t foff[MAX_FIELDS], fl[MAX_FIELDS];
    char key[RFT_MAX_STR + 1], val[RFT_MAX_STR + 1];
    rft_counters pc, c;             /* of the pre-scan, of the run */
    rft_rec crec;                   /* the counters record */
    uint8_t craw[RFT_COUNTERS_MAX];
};

struct rft_decode {
    rft_decode_opts o;
    rft_decode_info info;
    rft_header h;
    int state, text, csv, prescan;
    int (*line)(rft_decode *d, char *s, size_t n);
    const rft_sink *out;            /* NULL: records wait in held */
    int header_done;                /* a record met: the header is final */
    char *buf;                      /* BUF_CAP + 1 bytes: a CSV line gets its '\n' back */
    size_t len, pos;
    int eof;
    rft_rec *held;
    uint32_t nheld, held_cap, held_at;
    int deferred;                   /* an error met while records were held */
    int sink_err;
    const char *why;
    char own[RFT_DEC_ERRLEN];      /* a message of our own, maybe quoting a kernel name */
    uint64_t late_meta, skipped;
    double t0;                      /* when decoding a log began (notes) */
    /* text and CSV */
    rft_textdec td;
    int td_init, cp_init;
    struct csv_parser cp;
    char *cbuf;                     /* a CSV row's fields, copied out of libcsv */
    size_t clen, ccap;
    int nf, err;
    const char *row_err;
    /* simulator logs */
    rft_dec *dec;
    uint16_t *nregs;                /* the window sizes the pre-scan found, per kernel */
    uint32_t nk;
    uint64_t prescan_lines;
    int meta_full;
    struct bufs *b;
};

void rft_decode_opts_default(rft_decode_opts *o)
{
    memset(o, 0, sizeof *o);
    o->fmt = RFT_FMT_NONE;
    rft_dec_opts_default(&o->dec);
    o->input = "-";
}

/* Everything of d but its buffers (and their sizes) zeroed, then set up
 * for options o: 0, or -1 out of memory (the header's strings). */
static int init(rft_decode *d, const rft_decode_opts *o)
{
    char *buf = d->buf, *cbuf = d->cbuf;
    struct bufs *b = d->b;
    rft_rec *held = d->held;
    uint32_t held_cap = d->held_cap;
    size_t ccap = d->ccap;
    memset(d, 0, sizeof *d);
    d->buf = buf;
    d->b = b;
    d->held = held;
    d->held_cap = held_cap;
    d->cbuf = cbuf;
    d->ccap = ccap;
    d->o = *o;
    if (d->o.dec.columns && d->o.fmt == RFT_FMT_NONE)
        d->o.fmt = RFT_FMT_COLUMNS;
    d->info.fmt = RFT_FMT_NONE;
    d->why = "";
    rft_header_init(&d->h, "rft-decode");
    d->h.geom = o->dec.geom;
    return d->h.producer ? 0 : -1;
}

/* What one input's decoding allocated, but the buffers. */
static void release(rft_decode *d)
{
    if (d->td_init)
        rft_textdec_free(&d->td);
    if (d->cp_init)
        csv_free(&d->cp);
    rft_dec_free(d->dec);
    rft_header_free(&d->h);
    free(d->nregs);
}

rft_decode *rft_decode_new(const rft_decode_opts *o)
{
    rft_decode *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (!(d->buf = malloc(BUF_CAP + 1)) || !(d->b = malloc(sizeof *d->b)) || init(d, o)) {
        rft_decode_free(d);
        return NULL;
    }
    return d;
}

int rft_decode_reset(rft_decode *d, const rft_decode_opts *o)
{
    release(d);
    return init(d, o) ? RFT_EMEM : 0;
}

char *rft_decode_space(rft_decode *d, size_t *room)
{
    *room = BUF_CAP - d->len;
    return d->buf + d->len;
}

void rft_decode_fill(rft_decode *d, size_t n)
{
    if (d->prescan && d->o.keep)
        d->o.keep(d->o.ctx, d->buf + d->len, n);
    d->len += n;
    d->info.bytes += n;
    d->eof = n == 0;
}

const rft_header *rft_decode_header(const rft_decode *d) { return &d->h; }
const rft_decode_info *rft_decode_progress(const rft_decode *d) { return &d->info; }
const char *rft_decode_why(const rft_decode *d) { return d->why; }

/* An empty stream is written (a shard may be empty), but said: a later
 * stage would find nothing in it and could blame a missing stage. */
#define NO_RECORDS "warning: %s: no records: the trace is empty"

/* An error, of the line given (0: of no line); a sink's error comes first. */
static int fail(rft_decode *d, int code, uint64_t line, const char *why)
{
    if (d->sink_err) {
        d->why = "";
        return d->sink_err;
    }
    d->info.err_line = line;
    d->why = why;
    return code;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A warning or a note (one line; it names a file, so allocated). */
static void warn(rft_decode *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(rft_decode *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = d->o.warn && n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!msg)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    d->o.warn(d->o.ctx, msg);
    free(msg);
}

/* A record out, or held (a copy) until there is a sink. */
static int emit(rft_decode *d, rft_rec *r)
{
    d->header_done = 1;
    d->info.records++;
    if (d->out)
        return d->sink_err = d->out->put(d->out->ctx, r);
    if (d->nheld == d->held_cap) {
        uint32_t cap = d->held_cap ? 2 * d->held_cap : 4;
        rft_rec *h = realloc(d->held, cap * sizeof *h);
        if (!h)
            return fail(d, RFT_EMEM, d->info.lines, "out of memory");
        d->held = h;
        d->held_cap = cap;
    }
    rft_rec *h = &d->held[d->nheld++];
    memcpy(h, r, offsetof(rft_rec, w) + offsetof(rft_write, val));
    if (r->kind == RFT_WRITE)
        memcpy(h->w.val, r->w.val, d->h.geom.lanes * sizeof r->w.val[0]);
    return 0;
}

/* decoders.h's emit: a decoder fills every field of the records it emits,
 * so the sink may change them */
static int dec_emit(void *ctx, const rft_rec *r) { return emit(ctx, (rft_rec *)r); }

/* ---- the canonical grammar and its CSV form ---------------------------------------- */
static int record_line(rft_decode *d, int nf, const char *const *f, const size_t *fl)
{
    d->header_done = 1;
    int n = rft_textdec_line(&d->td, nf, f, fl);
    if (n < 0)
        return fail(d, n, d->info.lines, d->td.why);
    for (int i = 0; i < n; i++) {
        int e = emit(d, &d->td.rec[i]);
        if (e)
            return e;
    }
    return 0;
}

/* "# key=value" before the first record goes into the header. */
static int comment(rft_decode *d, const char *s, size_t n)
{
    size_t i = 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t k = i;
    while (k < n && (s[k] == '_' || s[k] == '-' || s[k] == '.' || (s[k] >= '0' && s[k] <= '9') ||
                     ((s[k] | 32) >= 'a' && (s[k] | 32) <= 'z')))
        k++;
    if (k == i || k >= n || s[k] != '=')
        return 0;
    if (d->header_done) {
        d->late_meta++;
        return 0;
    }
    size_t vn = n - k - 1;
    while (vn > 0 && (s[k + vn] == ' ' || s[k + vn] == '\t' || s[k + vn] == '\r'))
        vn--;
    if (k - i > RFT_MAX_STR || vn > RFT_MAX_STR) {
        snprintf(d->own, sizeof d->own, "metadata key or value longer than %d bytes", RFT_MAX_STR);
        return fail(d, RFT_EFORMAT, d->info.lines, d->own);
    }
    snprintf(d->b->key, sizeof d->b->key, "%.*s", (int)(k - i), s + i);
    snprintf(d->b->val, sizeof d->b->val, "%.*s", (int)vn, s + k + 1);
    if (rft_header_set(&d->h, d->b->key, d->b->val))
        return fail(d, RFT_EFORMAT, d->info.lines, "too many metadata lines");
    return 0;
}

static int text_line(rft_decode *d, char *s, size_t n)
{
    int nf = 0;
    if (n && s[n - 1] == '\r')
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '#')
        return comment(d, s + i, n - i);
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != ' ' && s[j] != '\t')
            j++;
        if (nf == MAX_FIELDS)
            return fail(d, RFT_EFORMAT, d->info.lines, "too many fields");
        d->b->f[nf] = s + i;
        d->b->fl[nf++] = j - i;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        i = j;
    }
    return nf ? record_line(d, nf, d->b->f, d->b->fl) : 0;
}

/* libcsv callbacks: collect a row's fields, then decode it */
static void csv_field(void *s, size_t n, void *ctx)
{
    rft_decode *d = ctx;
    if (d->nf == MAX_FIELDS) {
        d->row_err = "too many fields";
        return;
    }
    if (!d->cbuf || d->clen + n > d->ccap) {     /* an empty first field too: no NULL + 0 */
        size_t cap = d->ccap;
        while (!cap || d->clen + n > cap)
            cap = cap ? 2 * cap : 4096;
        char *b = realloc(d->cbuf, cap);
        if (!b) {
            d->row_err = "out of memory";
            return;
        }
        d->cbuf = b;
        d->ccap = cap;
    }
    memcpy(d->cbuf + d->clen, s, n);
    d->b->foff[d->nf] = d->clen;
    d->b->fl[d->nf++] = n;
    d->clen += n;
}

static void csv_row(int c, void *ctx)
{
    rft_decode *d = ctx;
    (void)c;
    if (d->err)
        return;
    if (d->row_err) {
        d->err = fail(d, strcmp(d->row_err, "out of memory") ? RFT_EFORMAT : RFT_EMEM,
                      d->info.lines, d->row_err);
        return;
    }
    for (int i = 0; i < d->nf; i++)
        d->b->f[i] = d->cbuf + d->b->foff[i];
    /* an empty line is one empty field */
    if (!(d->nf == 1 && d->b->fl[0] == 0))
        d->err = record_line(d, d->nf, d->b->f, d->b->fl);
    d->nf = 0;
    d->clen = 0;
}

static int csv_line(rft_decode *d, char *s, size_t n)
{
    if (n && s[0] == '#')
        return comment(d, s, n);
    s[n] = '\n';
    size_t used = csv_parse(&d->cp, s, n + 1, csv_field, csv_row, d);
    if (d->err)
        return d->err;
    if (used != n + 1)
        return fail(d, RFT_EFORMAT, d->info.lines, csv_strerror(csv_error(&d->cp)));
    return 0;
}

static int start_text(rft_decode *d)
{
    d->t0 = now();                  /* for the end-of-run note of --verbose */
    d->csv = d->info.fmt == RFT_FMT_CSV;
    d->line = d->csv ? csv_line : text_line;
    if (rft_textdec_init(&d->td, &d->h.geom))
        return fail(d, RFT_EMEM, 0, "out of memory");
    d->td_init = 1;
    if (d->csv) {
        if (csv_init(&d->cp, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI) != 0)
            return fail(d, RFT_EMEM, 0, "out of memory");
        d->cp_init = 1;
        csv_set_delim(&d->cp, ',');
    }
    return GO_ON;
}

/* ---- simulator logs (decoders.h) ---------------------------------------------------- */
/* a line of a simulator log: a bad one stops the run, or with --skip-bad is
 * counted, named in a warning (the first ten) and left out */
static int log_line(rft_decode *d, char *s, size_t n)
{
    int e = rft_dec_line(d->dec, s, n);
    if (e == 0)
        return 0;
    if (e == RFT_EFORMAT && d->o.skip_bad) {
        if (d->skipped++ < 10 && !d->prescan)
            warn(d, "warning: %s:%llu: %s (line skipped)", d->o.input,
                 (unsigned long long)d->info.lines, rft_dec_why(d->dec));
        return 0;
    }
    return fail(d, e, d->info.lines, e == RFT_EMEM ? "out of memory" : rft_dec_why(d->dec));
}

/* rft_dec_new failed: err is a usage error unless memory ran out */
static int new_failed(rft_decode *d, const char *err, int usage)
{
    int oom = strcmp(err, "out of memory") == 0;
    snprintf(d->own, sizeof d->own, "%s", err);
    return fail(d, oom ? RFT_EMEM : usage ? RFT_DECODE_EOPTS : RFT_EFORMAT, 0, d->own);
}

/* A header pair; a value longer than a header holds (a path the user gave
 * may be) is replaced by a note of its length, never cut or left out */
static void meta(void *ctx, const char *k, const char *v)
{
    rft_decode *d = ctx;
    char note[96];          /* numbers only */
    size_t n = strlen(v);
    if (n > RFT_MAX_STR) {
        snprintf(note, sizeof note, "(%zu bytes: longer than a header value's %d, not recorded)",
                 n, RFT_MAX_STR);
        v = note;
    }
    if (rft_header_set(&d->h, k, v))
        d->meta_full = 1;
}

static void meta_count(rft_decode *d, const char *name)
{
    snprintf(d->b->val, sizeof d->b->val, "%llu", (unsigned long long)rft_counters_get(&d->b->pc, name));
    meta(d, name, d->b->val);
}

/* The window sizes a pre-scan found, "N,N,..." per kernel, into b (n bytes):
 * a header value holds RFT_MAX_STR bytes, so a list too long for it (about
 * 700 kernels) is replaced by where the sizes are, never cut. */
static void nvgprs_list(char *b, size_t n, const uint16_t *nregs, uint32_t nk)
{
    size_t len = 0;
    snprintf(b, n, "1");
    for (uint32_t i = 0; i < nk; i++) {
        int k = snprintf(b + len, n - len, "%s%u", i ? "," : "", nregs[i]);
        if (k < 0 || (size_t)k >= n - len) {
            snprintf(b, n, "in the B records (%u kernels: too many to list in %d bytes)", nk,
                     RFT_MAX_STR);
            return;
        }
        len += (size_t)k;
    }
}

/* header metadata: what was decoded and how */
static int log_header(rft_decode *d)
{
    rft_dec_describe(d->dec, meta, d);
    if (d->info.prescanned) {
        nvgprs_list(d->b->val, sizeof d->b->val, d->nregs, d->nk);
        meta(d, "nvgprs", d->b->val);
        meta_count(d, "float_lanes");
        meta_count(d, "inexact_float_lanes");
        meta_count(d, "skipped_lines");
        if (d->info.fmt == RFT_FMT_CUTRACER) {      /* what the pre-scan knows is lost */
            meta_count(d, "predicate_writes");
            meta_count(d, "uniform_register_writes");
            meta_count(d, "uniform_register_values");
        }
    } else if (d->o.dec.nvgprs) {
        snprintf(d->b->val, sizeof d->b->val, "%u", d->o.dec.nvgprs);
        meta(d, "nvgprs", d->b->val);
    }
    if (!d->info.prescanned)
        meta(d, "counts", "in the counters record at the end of the stream");
    return d->meta_full ? fail(d, RFT_EFORMAT, 0, "too much header metadata") : GO_ON;
}

/* cutracer: the kernel events file, line by line, into a new decoder */
static int events(rft_decode *d)
{
    const char *p = d->o.events, *end = p ? p + d->o.events_len : NULL;
    for (uint64_t ln = 1; p && p < end; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        int e = rft_dec_events_line(d->dec, p, n);
        if (e) {
            snprintf(d->own, sizeof d->own, "%s:%llu: %s", d->o.events_name,
                     (unsigned long long)ln, e == RFT_EMEM ? "out of memory" : rft_dec_why(d->dec));
            return fail(d, e, 0, d->own);
        }
        p += n + 1;
    }
    return 0;
}

/* A pre-scan first when the window sizes come from the log itself. */
static int start_log(rft_decode *d)
{
    char err[RFT_DEC_ERRLEN];
    int e;
    d->t0 = now();
    d->line = log_line;
    d->o.dec.geom = d->h.geom;
    if (!(d->dec = rft_dec_new(d->info.fmt, &d->o.dec, dec_emit, d, err, sizeof err)))
        return new_failed(d, err, 1);   /* the options do not fit this input */
    if ((e = events(d)))
        return e;
    rft_dec_peek(d->dec, d->buf + d->pos, d->len - d->pos);
    if (!rft_dec_needs_prescan(d->dec))
        return log_header(d);
    rft_dec_free(d->dec);
    rft_dec_opts o = d->o.dec;
    o.prescan = 1;
    if (!(d->dec = rft_dec_new(d->info.fmt, &o, NULL, NULL, err, sizeof err)))
        return new_failed(d, err, 0);
    if ((e = events(d)))
        return e;
    d->prescan = 1;
    if (d->o.keep)              /* what was read to detect the format, maybe nothing */
        d->o.keep(d->o.ctx, d->buf + d->pos, d->len - d->pos);
    return GO_ON;
}

static int finish_failed(rft_decode *d, int e)
{
    return fail(d, e, e == RFT_EFORMAT ? d->info.lines : 0,
                e == RFT_EFORMAT ? rft_dec_why(d->dec) : "out of memory");
}

/* The pre-scan read it all: the window sizes, then the input again. */
static int end_prescan(rft_decode *d)
{
    int e = rft_dec_finish(d->dec);
    if (e)
        return finish_failed(d, e);
    uint32_t nk = rft_dec_kernel_regs(d->dec, NULL, 0);
    if (!(d->nregs = malloc((nk ? nk : 1) * sizeof *d->nregs)))
        return fail(d, RFT_EMEM, 0, "out of memory");
    rft_dec_kernel_regs(d->dec, d->nregs, nk);
    if (!nk)
        d->nregs[0] = 1;
    rft_dec_counters(d->dec, &d->b->pc);
    rft_counters_add(&d->b->pc, "skipped_lines", d->skipped);
    rft_dec_free(d->dec);
    d->dec = NULL;
    d->info.prescanned = 1;
    d->prescan_lines = d->info.lines;
    d->nk = nk;
    d->prescan = 0;
    d->len = d->pos = 0;
    d->eof = 0;
    d->info.lines = d->info.bytes = d->skipped = 0;
    d->state = S_AGAIN;
    return RFT_DECODE_AGAIN;
}

static int second_reading(rft_decode *d)
{
    char err[RFT_DEC_ERRLEN];
    if (d->o.verbose)
        warn(d, "%s: pre-scan: %llu lines, %u kernels, windows from the registers named, %.2f s",
             d->o.input, (unsigned long long)d->prescan_lines, d->nk, now() - d->t0);
    rft_dec_opts o = d->o.dec;
    o.nregs = d->nregs;
    o.n_nregs = d->nk ? d->nk : 1;
    if (!(d->dec = rft_dec_new(d->info.fmt, &o, dec_emit, d, err, sizeof err)))
        return new_failed(d, err, 0);
    int e = events(d);
    if (e)
        return e;
    d->state = S_LINES;
    return log_header(d);
}

/* ---- the run --------------------------------------------------------------------- */
static int detect(rft_decode *d)
{
    int fmt = d->o.fmt;
    if (fmt == RFT_FMT_NONE) {
        uint64_t at;
        fmt = rft_fmt_detect(d->buf, d->len, &at);
        /* a line decided: a live pipe need not fill the buffer */
        if (!d->eof && d->len < DETECT_BYTES && fmt == RFT_FMT_TEXT && !at)
            return RFT_DECODE_MORE;
        uint64_t hl;
        const char *missing = at ? NULL : rft_fmt_header_missing(d->buf, d->len, &hl);
        if (missing)
            return fail(d, RFT_EFORMAT, hl, missing);
        d->info.detected_at = at;
    }
    d->info.fmt = fmt;
    d->state = S_CONFIG;
    const char *in = d->o.input, *name = rft_fmt_name(fmt);
    if (!d->o.verbose)
        return GO_ON;
    if (d->o.fmt != RFT_FMT_NONE)
        warn(d, "%s: format %s (given)", in, name);
    else if (d->info.detected_at)
        warn(d, "%s: format %s (detected at line %llu)", in, name,
             (unsigned long long)d->info.detected_at);
    else
        warn(d, "%s: format %s (nothing else detected)", in, name);
    return GO_ON;
}

static int configure(rft_decode *d)
{
    int fmt = d->info.fmt;
    rft_geom *g = &d->h.geom;
    d->text = fmt == RFT_FMT_TEXT || fmt == RFT_FMT_CSV;
    if (d->text && d->o.skip_bad)
        return fail(d, RFT_DECODE_EOPTS, 0,
                    "--skip-bad applies to the m2s, gem5, nvbit and columns formats");
    if (fmt == RFT_FMT_EVG) {
        /* an HD 5870: 20 CUs of one SIMD engine; 256 GPRs of 4 channels a work-item */
        if (d->o.simds_set)
            return fail(d, RFT_DECODE_EOPTS, 0,
                        "--simds: an Evergreen compute unit is one SIMD engine (SIMD 0)");
        if (d->o.dec.local[0])
            return fail(d, RFT_DECODE_EOPTS, 0,
                        "--local-size applies to the m2s format (an Evergreen log gives it)");
        d->o.dec.cus = d->o.cus_set ? d->o.dec.cus : 20;
        g->entries = d->o.entries_set ? g->entries : 1024;
    }
    if (d->o.dec.m2s_next && fmt != RFT_FMT_M2S)
        return fail(d, RFT_DECODE_EOPTS, 0,
                    "--cycles-from applies to the m2s format (Southern Islands ISA logs)");
    if (d->o.events && fmt != RFT_FMT_CUTRACER)
        return fail(d, RFT_DECODE_EOPTS, 0, "--kernel-events applies to the cutracer format");
    if (fmt == RFT_FMT_CUTRACER) {
        /* a warp of 32 lanes; the register file of an NVIDIA SM (hopper)
         * unless a geometry is named or given */
        const rft_geom_name *nv = rft_geom_named("hopper");
        if (d->o.geometry && g->lanes != 32)
            return fail(d, RFT_DECODE_EOPTS, 0,
                        "--geometry: a CUTracer warp has 32 lanes (volta, ampere, hopper or "
                        "blackwell)");
        if (d->o.lanes_set && g->lanes != 32)
            return fail(d, RFT_DECODE_EOPTS, 0, "--lanes: a CUTracer warp has 32 lanes");
        g->lanes = 32;
        g->entries = d->o.entries_set ? g->entries : nv->geom.entries;
        g->block_lanes = d->o.block_lanes_set ? g->block_lanes : nv->geom.block_lanes;
        d->o.dec.cus = d->o.cus_set ? d->o.dec.cus : nv->cus;
        d->o.dec.simds = d->o.simds_set ? d->o.dec.simds : nv->simds;
        if (32 % g->block_lanes)
            return fail(d, RFT_DECODE_EOPTS, 0, "--block-lanes must divide the 32 lanes of a warp");
    }
    if (fmt == RFT_FMT_NVBIT && !d->o.lanes_set) {
        g->lanes = 32;      /* a warp */
        if (g->block_lanes > 32 || 32 % g->block_lanes)
            g->block_lanes = 16;
    }
    meta(d, "source", strcmp(d->o.input, "-") ? d->o.input : "stdin");
    meta(d, "decoder", rft_fmt_name(fmt));
    d->state = S_LINES;
    return d->text ? start_text(d) : start_log(d);
}

/* The end of the input: CSV's last row, or the log's last records and its
 * counters record. */
static int end_input(rft_decode *d)
{
    d->state = S_END;
    if (d->text) {
        /* an unterminated quoted field at the end is an error, not a lost row */
        int bad = d->csv && csv_fini(&d->cp, csv_field, csv_row, d) != 0;
        if (d->err)
            return d->err;
        if (bad)
            return fail(d, RFT_EFORMAT, d->info.lines, csv_strerror(csv_error(&d->cp)));
        if (!d->info.records)
            warn(d, NO_RECORDS, d->o.input);
        return GO_ON;
    }
    int e = rft_dec_finish(d->dec);
    if (e)
        return finish_failed(d, e);
    if (!d->info.records)       /* the counters record that follows is not a trace's */
        warn(d, NO_RECORDS, d->o.input);
    rft_dec_counters(d->dec, &d->b->c);
    rft_counters_add(&d->b->c, "skipped_lines", d->skipped);
    d->b->crec.kind = RFT_COUNTERS;
    d->b->crec.raw = d->b->craw;
    d->b->crec.len = rft_counters_encode(&d->b->c, d->b->craw);
    return (e = emit(d, &d->b->crec)) ? e : GO_ON;
}

static int end_warnings(rft_decode *d)
{
    d->state = S_DONE;
    const char *in = d->o.input;
    if (d->late_meta)
        warn(d, "warning: %s: %llu '# key=value' lines after the first record were kept as "
             "comments (metadata must come first)", in, (unsigned long long)d->late_meta);
    if (d->text) {
        if (d->o.verbose) {
            double t = now() - d->t0;
            uint64_t bytes = d->o.file_bytes ? d->o.file_bytes(d->o.ctx) : d->info.bytes;
            warn(d, "%s: %llu lines, %llu records in %.2f s (%.1f MB/s of input)", in,
                 (unsigned long long)d->info.lines, (unsigned long long)d->info.records, t,
                 t > 0 ? bytes / t / 1e6 : 0.0);
        }
        return RFT_DECODE_DONE;
    }
    uint64_t inexact = rft_counters_get(&d->b->c, "inexact_float_lanes");
    if (inexact)
        warn(d, "warning: %s: %llu lane values were printed as floats with 6 significant digits "
             "and cannot be recovered exactly: they hold the nearest float (of %llu float lanes)",
             in, (unsigned long long)inexact,
             (unsigned long long)(rft_counters_get(&d->b->c, "float_lanes") +
                                  rft_counters_get(&d->b->c, "double_lanes")));
    uint64_t nomask = rft_counters_get(&d->b->c, "records_without_active_mask");
    if (nomask)
        warn(d, "warning: %s: %llu records without active_mask were taken as all 32 lanes "
             "active (--assume-all-lanes-active): values of inactive lanes, if any, are in "
             "the stream as register contents", in, (unsigned long long)nomask);
    uint64_t unseen = rft_counters_get(&d->b->c, "unseen_lanes");
    if (unseen)
        warn(d, "warning: %s: %llu lane values were never recovered (the lane was inactive "
             "wherever the register was next seen): they keep what the cell held", in,
             (unsigned long long)unseen);
    uint64_t lost = rft_counters_get(&d->b->c, "unrecovered_writes");
    if (lost)
        warn(d, "warning: %s: %llu register writes were never shown by a later instruction: "
             "their values are unknown and they are not in the stream", in,
             (unsigned long long)lost);
    if (d->skipped)
        warn(d, "warning: %s: %llu line%s fit no grammar and %s skipped (--skip-bad)", in,
             (unsigned long long)d->skipped, d->skipped == 1 ? "" : "s",
             d->skipped == 1 ? "was" : "were");
    if (d->o.verbose) {
        double t = now() - d->t0;
        uint64_t bytes = d->o.file_bytes ? d->o.file_bytes(d->o.ctx) : d->info.bytes;
        warn(d, "%s: %llu lines, %llu instructions, %llu wavefronts, %llu writes, %llu reads, "
             "%llu records in %.2f s (%.1f MB/s of input%s)", in,
             (unsigned long long)rft_counters_get(&d->b->c, "lines"),
             (unsigned long long)rft_counters_get(&d->b->c, "instructions"),
             (unsigned long long)rft_counters_get(&d->b->c, "wavefronts"),
             (unsigned long long)rft_counters_get(&d->b->c, "writes"),
             (unsigned long long)rft_counters_get(&d->b->c, "reads"),
             (unsigned long long)d->info.records, t, t > 0 ? bytes / t / 1e6 : 0.0,
             d->info.prescanned ? ", read twice" : "");
    }
    return RFT_DECODE_DONE;
}

/* The complete lines given, one by one; the last one without its newline at
 * the end of the input. */
static int lines(rft_decode *d)
{
    for (;;) {
        char *nl = memchr(d->buf + d->pos, '\n', d->len - d->pos);
        if (!nl && !(d->eof && d->pos < d->len))
            break;
        size_t end = nl ? (size_t)(nl - d->buf) : d->len;
        d->info.lines++;
        if (end - d->pos > MAX_LINE)
            return fail(d, RFT_EFORMAT, d->info.lines, "line longer than 1 MiB");
        int e = d->line(d, d->buf + d->pos, end - d->pos);
        d->pos = nl ? end + 1 : d->len;
        if (e)
            return e;
        if (!d->out && d->header_done)
            return RFT_DECODE_HEADER;
    }
    if (d->eof)
        return d->prescan ? end_prescan(d) : end_input(d);
    memmove(d->buf, d->buf + d->pos, d->len - d->pos);
    d->len -= d->pos;
    d->pos = 0;
    if (d->len > MAX_LINE) {
        d->info.lines++;
        return fail(d, RFT_EFORMAT, d->info.lines, "line longer than 1 MiB");
    }
    return RFT_DECODE_MORE;
}

static int advance(rft_decode *d)
{
    for (;;) {
        if (!d->out && d->header_done && d->state != S_DONE)
            return RFT_DECODE_HEADER;
        int e = d->state == S_DETECT ? detect(d)
              : d->state == S_CONFIG ? configure(d)
              : d->state == S_LINES ? lines(d)
              : d->state == S_AGAIN ? second_reading(d)
              : d->state == S_END ? end_warnings(d)
              : RFT_DECODE_DONE;
        if (e != GO_ON)
            return e;
    }
}

int rft_decode_step(rft_decode *d, const rft_sink *out)
{
    d->out = out;
    if (out) {
        while (d->held_at < d->nheld) {
            int e = out->put(out->ctx, &d->held[d->held_at++]);
            if (e)
                return fail(d, d->sink_err = e, 0, "");
        }
        d->nheld = d->held_at = 0;
        if (d->deferred) {          /* after the records before it, as they were met */
            int e = d->deferred;
            d->deferred = 0;
            return e;
        }
    }
    d->why = "";
    d->info.err_line = 0;
    int e = advance(d);
    if (e < 0 && !out && d->header_done && !d->sink_err) {
        d->deferred = e;            /* the output opens first, as it does on a record */
        return RFT_DECODE_HEADER;
    }
    return e;
}

void rft_decode_free(rft_decode *d)
{
    if (!d)
        return;
    release(d);
    free(d->held);
    free(d->cbuf);
    free(d->buf);
    free(d->b);
    free(d);
}
