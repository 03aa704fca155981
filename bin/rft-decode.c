/* rft-decode - a register-write trace to an rft stream: the canonical text
 * grammar (or CSV), or the logs of Multi2Sim (Southern Islands, Evergreen),
 * gem5 and NVBit, or any CSV/TSV through a column map (rft-decode(1)). */
#include <csv.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "decoders.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-decode [-o FILE] [--format auto|text|csv|m2s|evg|gem5|nvbit|columns] [-v]\n"
    "                  [--skip-bad] [--lanes N] [--entries N] [--block-lanes N] [--level N]\n"
    "                  [--flush] [--nvgprs N] [--kernel NAME] [--cus N] [--simds N]\n"
    "                  [--issue-cycles N] [--local-size X[,Y[,Z]]] [--ticks-per-cycle N]\n"
    "                  [--columns MAP] [--radix auto|hex|dec] [FILE]\n"
    "Decode a register-write trace in the canonical text grammar, a Multi2Sim\n"
    "(Southern Islands or Evergreen), gem5 or NVBit log, or a CSV/TSV with a\n"
    "column map (rft-decode(1)) into an rft stream (rft(5)).  FILE may be\n"
    "zstd-compressed; default stdin.  The format is detected from the first\n"
    "lines unless given.\n";

#define MAX_LINE (1u << 20)

static struct {
    const char *input, *output;
    rft_in *in;
    rft_writer *w;
    rft_header h;
    rft_writer_opts wo;
    rft_textdec d;
    int csv, flush;
    uint64_t line, late_meta;
    int header_done;
    /* CSV: fields of the current row copied out of libcsv */
    struct csv_parser cp;
    char *cbuf;
    size_t clen, ccap;
    int nf;
    size_t foff[RFT_MAX_LANES + 16], flen[RFT_MAX_LANES + 16];
    int row_err;
    /* simulator logs (decoders.h) */
    int fmt, verbose, skip_bad, lanes_set, entries_set, cus_set, simds_set;
    rft_dec_opts dopt;
    rft_dec *dec;
    uint64_t skipped;
    const char *tmp;            /* spool of a non-seekable input for the pre-scan */
} g;

static noreturn void fail_line(const char *why)
{
    char err[256];
    if (g.w)
        rft_writer_close(g.w, 0, err, sizeof err);
    die("%s:%llu: %s", g.input, (unsigned long long)g.line, why);
}

static void start_output(void)
{
    char err[256];
    if (!(g.w = rft_writer_open(g.output, &g.h, &g.wo, err, sizeof err)))
        die("%s: %s", strcmp(g.output, "-") ? g.output : "standard output", err);
    g.header_done = 1;
}

static void put(const rft_rec *r)
{
    int e = rft_write_rec(g.w, r);
    if (e) {
        cli_epipe(e);
        die("%s: %s", strcmp(g.output, "-") ? g.output : "standard output", rft_writer_error(g.w));
    }
}

static void emit_fields(int nf, const char *const *f, const size_t *fl)
{
    if (!g.header_done)
        start_output();
    int n = rft_textdec_line(&g.d, nf, f, fl);
    if (n < 0)
        fail_line(g.d.why);
    for (int i = 0; i < n; i++)
        put(&g.d.rec[i]);
}

/* "# key=value" before the first record goes into the header. */
static void comment(const char *s, size_t n)
{
    size_t i = 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t k = i;
    while (k < n && (s[k] == '_' || s[k] == '-' || s[k] == '.' || (s[k] >= '0' && s[k] <= '9') ||
                     ((s[k] | 32) >= 'a' && (s[k] | 32) <= 'z')))
        k++;
    if (k == i || k >= n || s[k] != '=')
        return;
    if (g.header_done) {
        g.late_meta++;
        return;
    }
    char key[RFT_MAX_STR + 1], val[RFT_MAX_STR + 1];
    size_t vn = n - k - 1;
    while (vn > 0 && (s[k + vn] == ' ' || s[k + vn] == '\t' || s[k + vn] == '\r'))
        vn--;
    if (k - i > RFT_MAX_STR || vn > RFT_MAX_STR) {
        char why[64];
        snprintf(why, sizeof why, "metadata key or value longer than %d bytes", RFT_MAX_STR);
        fail_line(why);
    }
    snprintf(key, sizeof key, "%.*s", (int)(k - i), s + i);
    snprintf(val, sizeof val, "%.*s", (int)vn, s + k + 1);
    if (rft_header_set(&g.h, key, val))
        fail_line("too many metadata lines");
}

static void text_line(char *s, size_t n)
{
    const char *f[RFT_MAX_LANES + 16];
    size_t fl[RFT_MAX_LANES + 16];
    int nf = 0;
    if (n && s[n - 1] == '\r')
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '#') {
        comment(s + i, n - i);
        return;
    }
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != ' ' && s[j] != '\t')
            j++;
        if (nf == RFT_MAX_LANES + 16)
            fail_line("too many fields");
        f[nf] = s + i;
        fl[nf++] = j - i;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        i = j;
    }
    if (nf)
        emit_fields(nf, f, fl);
}

/* libcsv callbacks: collect a row's fields, then decode it */
static void csv_field(void *s, size_t n, void *data)
{
    (void)data;
    if (g.nf == RFT_MAX_LANES + 16) {
        g.row_err = 1;
        return;
    }
    if (!g.cbuf || g.clen + n > g.ccap) {     /* an empty first field too: no NULL + 0 */
        while (!g.ccap || g.clen + n > g.ccap)
            g.ccap = g.ccap ? 2 * g.ccap : 4096;
        if (!(g.cbuf = realloc(g.cbuf, g.ccap)))
            die("out of memory");
    }
    memcpy(g.cbuf + g.clen, s, n);
    g.foff[g.nf] = g.clen;
    g.flen[g.nf++] = n;
    g.clen += n;
}

static void csv_row(int c, void *data)
{
    (void)c;
    (void)data;
    const char *f[RFT_MAX_LANES + 16];
    if (g.row_err)
        fail_line("too many fields");
    for (int i = 0; i < g.nf; i++)
        f[i] = g.cbuf + g.foff[i];
    /* an empty line is one empty field */
    if (!(g.nf == 1 && g.flen[0] == 0))
        emit_fields(g.nf, f, g.flen);
    g.nf = 0;
    g.clen = 0;
}

static void csv_line(char *s, size_t n)
{
    if (n && s[0] == '#') {
        comment(s, n);
        return;
    }
    s[n] = '\n';
    if (csv_parse(&g.cp, s, n + 1, csv_field, csv_row, NULL) != n + 1)
        fail_line(csv_strerror(csv_error(&g.cp)));
}

/* ---- simulator logs (decoders.h) ---------------------------------------------------- */
static int emit(void *ctx, const rft_rec *r)
{
    (void)ctx;
    if (!g.header_done)
        start_output();
    put(r);
    return 0;
}

static void meta(void *ctx, const char *k, const char *v)
{
    (void)ctx;
    if (rft_header_set(&g.h, k, v))
        die("%s: too much header metadata", g.input);
}

/* a line of a simulator log: a bad one stops the run, or with --skip-bad is
 * counted, named in a warning (the first ten) and left out */
static int report_skips;

static void dec_line(char *s, size_t n)
{
    int e = rft_dec_line(g.dec, s, n);
    if (e == 0)
        return;
    if (e != RFT_EFORMAT)
        die("%s:%llu: %s", g.input, (unsigned long long)g.line,
            e == RFT_EMEM ? "out of memory" : rft_dec_why(g.dec));
    if (!g.skip_bad)
        fail_line(rft_dec_why(g.dec));
    if (g.skipped++ < 10 && report_skips)
        warnx("warning: %s:%llu: %s (line skipped)", g.input, (unsigned long long)g.line,
              rft_dec_why(g.dec));
}

/* Read the input in chunks and hand over its lines (without their newline);
 * buf holds *len bytes already read.  spool (if any) gets a copy of the bytes. */
static void pump(rft_in *in, char *buf, size_t cap, size_t len, int eof, void (*fn)(char *, size_t),
                 FILE *spool)
{
    if (spool && len && fwrite(buf, 1, len, spool) != len)
        die("%s: %s", g.tmp, strerror(errno));
    for (;;) {
        size_t pos = 0;
        for (;;) {
            char *nl = memchr(buf + pos, '\n', len - pos);
            if (!nl && !(eof && pos < len))
                break;
            size_t e = nl ? (size_t)(nl - buf) : len;
            g.line++;
            if (e - pos > MAX_LINE)
                fail_line("line longer than 1 MiB");
            fn(buf + pos, e - pos);
            pos = nl ? e + 1 : len;
        }
        if (eof)
            break;
        memmove(buf, buf + pos, len - pos);
        len -= pos;
        if (len > MAX_LINE) {
            g.line++;
            fail_line("line longer than 1 MiB");
        }
        if (g.flush && g.w && rft_writer_flush(g.w))
            die("%s: %s", strcmp(g.output, "-") ? g.output : "standard output", rft_writer_error(g.w));
        long n = rft_in_read(in, buf + len, cap - len);
        if (n < 0) {
            g.line++;
            fail_line(rft_in_error(in));
        }
        if (spool && n > 0 && fwrite(buf + len, 1, (size_t)n, spool) != (size_t)n)
            die("%s: %s", g.tmp, strerror(errno));
        len += (size_t)n;
        eof = n == 0;
    }
}

static void rm_tmp(void)
{
    if (g.tmp)
        unlink(g.tmp);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
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

/* Decode a simulator log: a pre-scan first when the window sizes come from
 * the log itself (a file is read twice; stdin is kept in a temporary file). */
static void decode_log(char *buf, size_t cap, size_t len, int eof)
{
    char err[256];
    double t0 = now();
    uint16_t *nregs = NULL;
    uint32_t nk = 0;
    rft_counters pc;
    int prescanned = 0;
    g.dopt.geom = g.h.geom;
    if (!(g.dec = rft_dec_new(g.fmt, &g.dopt, emit, NULL, err, sizeof err))) {
        if (strcmp(err, "out of memory") != 0)
            usage_error("%s", err);     /* the options do not fit this input */
        die("%s: %s", g.input, err);
    }
    if (rft_dec_needs_prescan(g.dec)) {
        rft_dec_free(g.dec);
        rft_dec_opts o = g.dopt;
        o.prescan = 1;
        if (!(g.dec = rft_dec_new(g.fmt, &o, NULL, NULL, err, sizeof err)))
            die("%s: %s", g.input, err);
        FILE *spool = NULL;
        struct stat st;
        if (strcmp(g.input, "-") == 0 || stat(g.input, &st) != 0 || !S_ISREG(st.st_mode)) {
            const char *dir = getenv("TMPDIR");
            char *tmpl = xasprintf("%s/rft-decode.XXXXXX", dir && *dir ? dir : "/tmp");
            int fd = mkstemp(tmpl);
            g.tmp = tmpl;       /* kept until rm_tmp at exit */
            if (fd < 0 || !(spool = fdopen(fd, "w")))
                die("%s: %s", tmpl, strerror(errno));
            atexit(rm_tmp);
        }
        report_skips = 0;
        pump(g.in, buf, cap, len, eof, dec_line, spool);
        if (spool && fclose(spool) != 0)
            die("%s: %s", g.tmp, strerror(errno));
        int e = rft_dec_finish(g.dec);
        if (e == RFT_EFORMAT)
            fail_line(rft_dec_why(g.dec));
        else if (e)
            die("%s: out of memory", g.input);
        nk = rft_dec_kernel_regs(g.dec, NULL, 0);
        nregs = xrealloc(NULL, (nk ? nk : 1) * sizeof *nregs);
        rft_dec_kernel_regs(g.dec, nregs, nk);
        rft_dec_counters(g.dec, &pc);
        rft_counters_add(&pc, "skipped_lines", g.skipped);
        rft_dec_free(g.dec);
        rft_in_close(g.in);
        const char *again = g.tmp ? g.tmp : g.input;
        if (!(g.in = rft_in_open(again, RFT_IN_AUTO, err, sizeof err)))
            die("%s: %s", again, err);
        if (g.verbose)
            warnx("%s: pre-scan: %llu lines, %u kernels, windows from the registers named, %.2f s",
                  g.input, (unsigned long long)g.line, nk, now() - t0);
        rft_dec_opts o2 = g.dopt;
        o2.nregs = nregs;
        o2.n_nregs = nk ? nk : 1;
        if (!nk)
            nregs[0] = 1;
        if (!(g.dec = rft_dec_new(g.fmt, &o2, emit, NULL, err, sizeof err)))
            die("%s: %s", g.input, err);
        prescanned = 1;
        len = 0;
        eof = 0;
        g.line = 0;
        g.skipped = 0;
    }
    /* header metadata: what was decoded and how */
    rft_dec_describe(g.dec, meta, NULL);
    if (prescanned) {
        char b[RFT_MAX_STR + 1];
        nvgprs_list(b, sizeof b, nregs, nk);
        meta(NULL, "nvgprs", b);
        snprintf(b, sizeof b, "%llu", (unsigned long long)rft_counters_get(&pc, "float_lanes"));
        meta(NULL, "float_lanes", b);
        snprintf(b, sizeof b, "%llu", (unsigned long long)rft_counters_get(&pc, "inexact_float_lanes"));
        meta(NULL, "inexact_float_lanes", b);
        snprintf(b, sizeof b, "%llu", (unsigned long long)rft_counters_get(&pc, "skipped_lines"));
        meta(NULL, "skipped_lines", b);
    } else if (g.dopt.nvgprs) {
        char b[32];
        snprintf(b, sizeof b, "%u", g.dopt.nvgprs);
        meta(NULL, "nvgprs", b);
    }
    if (!prescanned)
        meta(NULL, "counts", "in the counters record at the end of the stream");
    report_skips = 1;
    pump(g.in, buf, cap, len, eof, dec_line, NULL);
    int e = rft_dec_finish(g.dec);
    if (e == RFT_EFORMAT)
        fail_line(rft_dec_why(g.dec));
    else if (e)
        die("%s: out of memory", g.input);
    if (!g.header_done)
        start_output();
    rft_counters c;
    rft_dec_counters(g.dec, &c);
    rft_counters_add(&c, "skipped_lines", g.skipped);
    if ((e = rft_write_counters(g.w, &c))) {
        cli_epipe(e);
        die("%s: %s", strcmp(g.output, "-") ? g.output : "standard output", rft_writer_error(g.w));
    }
    uint64_t inexact = rft_counters_get(&c, "inexact_float_lanes");
    if (inexact)
        warnx("warning: %s: %llu lane values were printed as floats with 6 significant digits "
              "and cannot be recovered exactly: they hold the nearest float (of %llu float lanes)",
              g.input, (unsigned long long)inexact,
              (unsigned long long)(rft_counters_get(&c, "float_lanes") +
                                   rft_counters_get(&c, "double_lanes")));
    uint64_t lost = rft_counters_get(&c, "unrecovered_writes");
    if (lost)
        warnx("warning: %s: %llu register writes were never shown by a later instruction: their "
              "values are unknown and they are not in the stream", g.input, (unsigned long long)lost);
    if (g.skipped)
        warnx("warning: %s: %llu line%s fit no grammar and %s skipped (--skip-bad)", g.input,
              (unsigned long long)g.skipped, g.skipped == 1 ? "" : "s",
              g.skipped == 1 ? "was" : "were");
    if (g.verbose) {
        double t = now() - t0;
        uint64_t in_bytes = rft_in_bytes(g.in);
        warnx("%s: %llu lines, %llu instructions, %llu wavefronts, %llu writes, %llu reads, "
              "%llu records in %.2f s (%.1f MB/s of input%s)", g.input,
              (unsigned long long)rft_counters_get(&c, "lines"),
              (unsigned long long)rft_counters_get(&c, "instructions"),
              (unsigned long long)rft_counters_get(&c, "wavefronts"),
              (unsigned long long)rft_counters_get(&c, "writes"),
              (unsigned long long)rft_counters_get(&c, "reads"),
              (unsigned long long)rft_writer_count(g.w), t, t > 0 ? in_bytes / t / 1e6 : 0.0,
              prescanned ? ", read twice" : "");
    }
    rft_dec_free(g.dec);
    free(nregs);
}

/* "X[,Y[,Z]]" */
static void local_size(const char *s)
{
    char b[64];     /* three sizes of at most 7 digits: a longer one is refused */
    if (strlen(s) >= sizeof b)
        usage_error("--local-size: '%s' is longer than %zu characters", s, sizeof b - 1);
    snprintf(b, sizeof b, "%s", s);
    char *p = b;
    for (int i = 0; i < 3; i++) {
        char *c = strchr(p, ',');
        if (c)
            *c = 0;
        g.dopt.local[i] = (uint32_t)cli_uint("--local-size", p, 1, 1u << 20);
        if (!c)
            break;
        if (i == 2)
            usage_error("--local-size: '%s' has more than three sizes", s);
        p = c + 1;
    }
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"format", required_argument, 0, 'f'},
        {"lanes", required_argument, 0, 'L'},  {"entries", required_argument, 0, 'N'},
        {"block-lanes", required_argument, 0, 'B'}, {"level", required_argument, 0, 'l'},
        {"flush", no_argument, 0, 'F'},        {"verbose", no_argument, 0, 'v'},
        {"skip-bad", no_argument, 0, 'S'},     {"nvgprs", required_argument, 0, 'n'},
        {"kernel", required_argument, 0, 'k'}, {"cus", required_argument, 0, 'c'},
        {"simds", required_argument, 0, 's'},  {"issue-cycles", required_argument, 0, 'i'},
        {"local-size", required_argument, 0, 'z'}, {"ticks-per-cycle", required_argument, 0, 't'},
        {"columns", required_argument, 0, 'C'}, {"radix", required_argument, 0, 'r'},
        {0, 0, 0, 0}};
    g.output = "-";
    cli_init(argc, argv, usage);
    rft_header_init(&g.h, "rft-decode");
    rft_dec_opts_default(&g.dopt);
    g.wo.level = RFT_DEFAULT_LEVEL;
    g.fmt = RFT_FMT_NONE;
    int c;
    while ((c = getopt_long(argc, argv, "o:f:v", opts, NULL)) != -1) {
        switch (c) {
        case 'o': g.output = optarg; break;
        case 'f':
            if (strcmp(optarg, "auto") == 0)
                g.fmt = RFT_FMT_NONE;
            else if ((g.fmt = rft_fmt_parse(optarg)) == RFT_FMT_NONE)
                usage_error("--format: '%s' is not one of auto, text, csv, m2s, evg, gem5, "
                            "nvbit, columns", optarg);
            break;
        case 'L':
            g.h.geom.lanes = (uint32_t)cli_uint("--lanes", optarg, 1, RFT_MAX_LANES);
            g.lanes_set = 1;
            break;
        case 'N':
            g.h.geom.entries = (uint32_t)cli_uint("--entries", optarg, 1, RFT_MAX_ENTRIES);
            g.entries_set = 1;
            break;
        case 'B': g.h.geom.block_lanes = (uint32_t)cli_uint("--block-lanes", optarg, 1, RFT_MAX_LANES); break;
        case 'l': g.wo.level = cli_level(optarg); break;
        case 'F': g.flush = 1; break;
        case 'v': g.verbose = 1; break;
        case 'S': g.skip_bad = 1; break;
        case 'n': g.dopt.nvgprs = (uint32_t)cli_uint("--nvgprs", optarg, 1, RFT_MAX_ENTRIES); break;
        case 'k':
            if (!*optarg || strlen(optarg) > RFT_MAX_STR || strpbrk(optarg, " \t\n,"))
                usage_error("--kernel: '%s' is not a kernel name (no blanks or commas)", optarg);
            g.dopt.kernel = optarg;
            break;
        case 'c': g.dopt.cus = (uint32_t)cli_uint("--cus", optarg, 1, 65535); g.cus_set = 1; break;
        case 's': g.dopt.simds = (uint32_t)cli_uint("--simds", optarg, 1, 65535); g.simds_set = 1; break;
        case 'i': g.dopt.issue_cycles = (uint32_t)cli_uint("--issue-cycles", optarg, 1, 1u << 20); break;
        case 'z': local_size(optarg); break;
        case 't': g.dopt.ticks_per_cycle = cli_uint("--ticks-per-cycle", optarg, 1, UINT32_MAX); break;
        case 'C': g.dopt.columns = optarg; break;
        case 'r': {
            static const int radix[] = {0, 16, 10};     /* 0: auto */
            g.dopt.radix = radix[cli_choice("--radix", optarg, "auto|hex|dec")];
            break;
        }
        default: cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    if (g.dopt.columns && g.fmt == RFT_FMT_NONE)
        g.fmt = RFT_FMT_COLUMNS;
    if (g.h.geom.lanes % g.h.geom.block_lanes)
        usage_error("--block-lanes %u does not divide --lanes %u", g.h.geom.block_lanes,
                    g.h.geom.lanes);
    char err[256];
    if (!(g.in = rft_in_open(g.input, RFT_IN_AUTO, err, sizeof err)))
        die("%s: %s", g.input, err);

    /* the first chunk decides the format */
    size_t cap = MAX_LINE + 4 * (1u << 20), len = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        die("out of memory");
    int eof = 0, given = g.fmt != RFT_FMT_NONE;
    uint64_t at = 0;
    while (!given && len < (64u << 10)) {
        long n = rft_in_read(g.in, buf + len, cap - len);
        if (n < 0) {
            g.line++;
            fail_line(rft_in_error(g.in));
        }
        if (n == 0) {
            eof = 1;
            break;
        }
        len += (size_t)n;
        if (rft_fmt_detect(buf, len, &at) != RFT_FMT_TEXT || at)
            break;     /* a line decided: a live pipe need not fill the buffer */
    }
    if (!given) {
        g.fmt = rft_fmt_detect(buf, len, &at);
        if (g.verbose && at)
            warnx("%s: format %s (detected at line %llu)", g.input, rft_fmt_name(g.fmt),
                  (unsigned long long)at);
        else if (g.verbose)
            warnx("%s: format %s (nothing else detected)", g.input, rft_fmt_name(g.fmt));
    } else if (g.verbose) {
        warnx("%s: format %s (given)", g.input, rft_fmt_name(g.fmt));
    }
    int text = g.fmt == RFT_FMT_TEXT || g.fmt == RFT_FMT_CSV;
    if (text && g.skip_bad)
        usage_error("--skip-bad applies to the m2s, gem5, nvbit and columns formats");
    if (g.fmt == RFT_FMT_EVG) {
        /* an HD 5870: 20 CUs of one SIMD engine; 256 GPRs of 4 channels a work-item */
        if (g.simds_set)
            usage_error("--simds: an Evergreen compute unit is one SIMD engine (SIMD 0)");
        if (g.dopt.local[0])
            usage_error("--local-size applies to the m2s format (an Evergreen log gives it)");
        g.dopt.cus = g.cus_set ? g.dopt.cus : 20;
        g.h.geom.entries = g.entries_set ? g.h.geom.entries : 1024;
    }
    if (g.fmt == RFT_FMT_NVBIT && !g.lanes_set) {
        g.h.geom.lanes = 32;    /* a warp */
        if (g.h.geom.block_lanes > 32 || 32 % g.h.geom.block_lanes)
            g.h.geom.block_lanes = 16;
    }
    g.csv = g.fmt == RFT_FMT_CSV;
    rft_header_set(&g.h, "source", strcmp(g.input, "-") ? g.input : "stdin");
    rft_header_set(&g.h, "decoder", rft_fmt_name(g.fmt));
    if (!text) {
        decode_log(buf, cap, len, eof);
    } else {
        if (rft_textdec_init(&g.d, &g.h.geom) ||
            (g.csv && csv_init(&g.cp, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI) != 0))
            die("out of memory");
        if (g.csv)
            csv_set_delim(&g.cp, ',');
        pump(g.in, buf, cap, len, eof, g.csv ? csv_line : text_line, NULL);
        /* an unterminated quoted field at the end is an error, not a lost row */
        if (g.csv && csv_fini(&g.cp, csv_field, csv_row, NULL) != 0)
            fail_line(csv_strerror(csv_error(&g.cp)));
    }
    if (!g.header_done)
        start_output();
    if (g.late_meta)
        warnx("warning: %s: %llu '# key=value' lines after the first record were kept as "
              "comments (metadata must come first)", g.input, (unsigned long long)g.late_meta);
    int e = rft_writer_close(g.w, 1, err, sizeof err);
    if (e) {
        cli_epipe(e);
        die("%s: %s", strcmp(g.output, "-") ? g.output : "standard output", err);
    }
    rft_in_close(g.in);
    if (text)
        rft_textdec_free(&g.d);
    rft_header_free(&g.h);
    free(buf);
    free(g.cbuf);
    if (g.csv)
        csv_free(&g.cp);
    return cli_close_stdout();
}
