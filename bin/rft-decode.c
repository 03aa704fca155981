/* rft-decode - canonical text (or CSV) register-write trace to an rft stream. */
#include <csv.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-decode [-o FILE] [--format text|csv] [--lanes N] [--entries N]\n"
    "                  [--block-lanes N] [--level N] [--flush] [FILE]\n"
    "Decode a register-write trace in the canonical text grammar (rft-decode(1))\n"
    "into an rft stream (rft(5)).  FILE may be zstd-compressed; default stdin.\n";

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
    char key[256], val[RFT_MAX_STR + 1];
    size_t vn = n - k - 1;
    while (vn > 0 && (s[k + vn] == ' ' || s[k + vn] == '\t' || s[k + vn] == '\r'))
        vn--;
    if (k - i >= sizeof key || vn > RFT_MAX_STR)
        fail_line("metadata key or value too long");
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
    if (g.clen + n > g.ccap) {
        while (g.clen + n > g.ccap)
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

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"format", required_argument, 0, 'f'},
        {"lanes", required_argument, 0, 'L'},  {"entries", required_argument, 0, 'N'},
        {"block-lanes", required_argument, 0, 'B'}, {"level", required_argument, 0, 'l'},
        {"flush", no_argument, 0, 'F'},        {0, 0, 0, 0}};
    g.output = "-";
    cli_init(argc, argv, usage);
    rft_header_init(&g.h, "rft-decode");
    g.wo.level = RFT_DEFAULT_LEVEL;
    int c;
    while ((c = getopt_long(argc, argv, "o:f:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': g.output = optarg; break;
        case 'f':
            if (strcmp(optarg, "csv") == 0)
                g.csv = 1;
            else if (strcmp(optarg, "text") != 0)
                usage_error("--format: '%s' is not one of text, csv", optarg);
            break;
        case 'L': g.h.geom.lanes = (uint32_t)cli_uint("--lanes", optarg, 1, RFT_MAX_LANES); break;
        case 'N': g.h.geom.entries = (uint32_t)cli_uint("--entries", optarg, 1, RFT_MAX_ENTRIES); break;
        case 'B': g.h.geom.block_lanes = (uint32_t)cli_uint("--block-lanes", optarg, 1, RFT_MAX_LANES); break;
        case 'l': g.wo.level = (int)cli_int("--level", optarg, -7, 19); break;
        case 'F': g.flush = 1; break;
        default: cli_bad_option(argv);
        }
    }
    if (argc - optind > 1)
        usage_error("one input at most");
    if (g.h.geom.lanes % g.h.geom.block_lanes)
        usage_error("--block-lanes %u does not divide --lanes %u", g.h.geom.block_lanes,
                    g.h.geom.lanes);
    g.input = optind < argc ? argv[optind] : "-";
    char err[256];
    if (!(g.in = rft_in_open(g.input, RFT_IN_AUTO, err, sizeof err)))
        die("%s: %s", g.input, err);
    rft_header_set(&g.h, "source", strcmp(g.input, "-") ? g.input : "stdin");
    rft_header_set(&g.h, "decoder", g.csv ? "csv" : "text");
    if (rft_textdec_init(&g.d, &g.h.geom) || (g.csv && csv_init(&g.cp, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI) != 0))
        die("out of memory");
    if (g.csv)
        csv_set_delim(&g.cp, ',');

    /* read chunks; lines are parsed in place; a partial last line moves to
     * the front of the buffer before the next read */
    size_t cap = MAX_LINE + 4 * (1u << 20), len = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        die("out of memory");
    for (;;) {
        long n = rft_in_read(g.in, buf + len, cap - len);
        if (n < 0) {
            g.line++;
            fail_line(rft_in_error(g.in));
        }
        len += (size_t)n;
        size_t pos = 0;
        for (;;) {
            char *nl = memchr(buf + pos, '\n', len - pos);
            if (!nl && !(n == 0 && pos < len))
                break;
            size_t end = nl ? (size_t)(nl - buf) : len;
            g.line++;
            if (end - pos > MAX_LINE)
                fail_line("line longer than 1 MiB");
            if (g.csv)
                csv_line(buf + pos, end - pos);
            else
                text_line(buf + pos, end - pos);
            pos = nl ? end + 1 : len;
        }
        if (n == 0)
            break;
        memmove(buf, buf + pos, len - pos);
        len -= pos;
        if (len > MAX_LINE) {
            g.line++;
            fail_line("line longer than 1 MiB");
        }
        if (g.flush && g.w && rft_writer_flush(g.w))
            die("%s: %s", strcmp(g.output, "-") ? g.output : "standard output", rft_writer_error(g.w));
    }
    /* an unterminated quoted field at the end is an error, not a lost row */
    if (g.csv && csv_fini(&g.cp, csv_field, csv_row, NULL) != 0)
        fail_line(csv_strerror(csv_error(&g.cp)));
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
    rft_textdec_free(&g.d);
    rft_header_free(&g.h);
    free(buf);
    free(g.cbuf);
    if (g.csv)
        csv_free(&g.cp);
    return cli_close_stdout();
}
