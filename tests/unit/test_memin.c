/* test_memin.c - input held in memory: rft_in_open_mem gives what
 * rft_in_open gives for the same bytes in a file (plain, zstd, cut short,
 * corrupt, empty, refused), rft_reader_open_mem what rft_reader_open gives
 * (a stream that decompresses to far more than its size, one cut short),
 * and rft_decode_reset leaves nothing of the input before it. */
#include <unistd.h>
#include <zstd.h>

#include "decode.h"
#include "in_drain.h"

/* Read all of in (NULL: open failed, err says why), in odd-sized pieces. */
static result drain_odd(rft_in *in, const char *err)
{
    static const size_t piece[] = {40000, 7};
    return drain(in, err, piece, 2);
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    size_t cap = 1 << 20;
    unsigned char *b = malloc(cap);
    CHECK(b);
    *n = fread(b, 1, cap, f);
    CHECK(*n < cap && fclose(f) == 0);
    return b;
}

/* The n bytes at p, from a file and from memory, with mode: the same. */
static void same_in(const char *path, const unsigned char *p, size_t n, int mode)
{
    char e1[256] = "", e2[256] = "";
    put(path, p, n);
    result a = drain_odd(rft_in_open(path, mode, e1, sizeof e1), e1);
    result b = drain_odd(rft_in_open_mem(p, n, mode, e2, sizeof e2), e2);
    CHECK(a.n == b.n && (a.n == 0 || memcmp(a.buf, b.buf, a.n) == 0));
    CHECK(a.last == b.last && a.bytes == b.bytes && strcmp(a.err, b.err) == 0);
    free(a.buf);
    free(b.buf);
    unlink(path);
}

static void streams_in_memory(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/in", dir);
    size_t n = 1u << 20;
    unsigned char *src = malloc(n), *z = malloc(ZSTD_compressBound(n));
    CHECK(src && z);
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(i % 251 < 200 ? 'a' + i % 7 : i * 7919 >> 5);
    size_t zn = ZSTD_compress(z, ZSTD_compressBound(n), src, n, 1);
    CHECK(!ZSTD_isError(zn));
    const int modes[] = {RFT_IN_AUTO, RFT_IN_ZSTD, RFT_IN_AUTO | RFT_IN_AHEAD};
    for (int m = 0; m < 3; m++) {
        same_in(path, src, n, modes[m]);                    /* plain */
        same_in(path, z, zn, modes[m]);                     /* zstd */
        same_in(path, z, zn / 2, modes[m]);                 /* cut short */
        same_in(path, (const unsigned char *)"", 0, modes[m]);
        same_in(path, (const unsigned char *)"\x1f\x8b\x08", 3, modes[m]);  /* gzip */
    }
    z[zn / 3] ^= 0x5a;      /* corrupt: the same end either way */
    char e1[256], e2[256];
    put(path, z, zn);
    result a = drain_odd(rft_in_open(path, RFT_IN_ZSTD, e1, sizeof e1), e1);
    result b = drain_odd(rft_in_open_mem(z, zn, RFT_IN_ZSTD, e2, sizeof e2), e2);
    CHECK(a.last == b.last && memcmp(a.buf, b.buf, a.n < b.n ? a.n : b.n) == 0);
    free(a.buf);
    free(b.buf);
    unlink(path);
    free(src);
    free(z);
}

/* A stream of many alike records: it decompresses to far more than eight
 * times its size, so the reader of memory grows its buffer. */
static void reader_in_memory(const char *dir)
{
    char path[256], err[320];
    snprintf(path, sizeof path, "%s/s.rft", dir);
    rft_header h;
    rft_header_init(&h, "test");
    rft_header_set(&h, "k", "v");
    rft_writer *w = rft_writer_open(path, &h, NULL, err, sizeof err);
    CHECK(w);
    enum { N = 20000 };
    for (uint32_t i = 0; i < N; i++) {
        rft_wfbegin b = {.cycle = i, .cu = 1, .simd = 2, .wf = i % 5, .nregs = 8};
        CHECK(rft_write_begin(w, &b) == 0);
    }
    CHECK(rft_writer_close(w, 1, err, sizeof err) == 0);
    rft_header_free(&h);
    size_t n;
    unsigned char *s = slurp(path, &n);
    for (int cut = 0; cut < 2; cut++) {
        size_t len = cut ? n / 2 : n;
        put(path, s, len);
        rft_reader *a = rft_reader_open(path, err, sizeof err);
        rft_reader *b = rft_reader_open_mem(s, len, 0, err, sizeof err);
        CHECK(a && b);
        CHECK(strcmp(rft_header_get(rft_reader_header(b), "k"), "v") == 0);
        rft_rec ra, rb;
        int ea, eb;
        do {
            ea = rft_read(a, &ra);
            eb = rft_read(b, &rb);
            CHECK(ea == eb);
            CHECK(ea || (ra.kind == rb.kind && rft_rec_cycle(&ra) == rft_rec_cycle(&rb)));
        } while (ea == 0);
        CHECK(rft_reader_count(a) == rft_reader_count(b));
        CHECK(cut ? ea != RFT_EOF && rft_reader_count(b) < N : ea == RFT_EOF && rft_reader_count(b) == N);
        CHECK(strcmp(rft_reader_error(a), rft_reader_error(b)) == 0);
        rft_reader_close(a);
        rft_reader_close(b);
    }
    /* not a stream: refused as a file is */
    CHECK(rft_reader_open_mem("K 1 k\n", 6, 0, err, sizeof err) == NULL);
    CHECK(strstr(err, "text, not an rft stream") != NULL);
    free(s);
    unlink(path);
}

typedef struct {
    int n;
    uint64_t cycle[8];
} got;

static int keep(void *ctx, rft_rec *r)
{
    got *g = ctx;
    CHECK(g->n < 8);
    g->cycle[g->n++] = rft_rec_cycle(r);
    return 0;
}

/* Decode text with d to the end: the last step's code, the records in g. */
static int decode_all(rft_decode *d, const char *text, got *g)
{
    rft_sink out = {keep, g};
    int e, opened = 0;
    size_t left = strlen(text);
    for (;;) {
        e = rft_decode_step(d, opened ? &out : NULL);
        if (e == RFT_DECODE_MORE) {
            size_t room;
            char *p = rft_decode_space(d, &room);
            size_t k = left < room ? left : room;
            memcpy(p, text, k);
            text += k;
            left -= k;
            rft_decode_fill(d, k);
        } else if (e == RFT_DECODE_HEADER && !opened) {
            opened = 1;
        } else {
            return e;
        }
    }
}

static void decoder_reset(void)
{
    rft_decode_opts o;
    rft_decode_opts_default(&o);
    o.fmt = RFT_FMT_CSV;
    o.input = "first";
    rft_decode *d = rft_decode_new(&o);
    CHECK(d);
    got g = {0};
    /* the first input fails after a record, with metadata of its own */
    CHECK(decode_all(d, "# a=1\nK,5,k\nK,4,j\n", &g) == RFT_EFORMAT);
    CHECK(g.n == 1 && rft_decode_progress(d)->err_line == 3);
    /* the second, as text: as a new decoder would decode it */
    o.fmt = RFT_FMT_TEXT;
    o.input = "second";
    CHECK(rft_decode_reset(d, &o) == 0);
    memset(&g, 0, sizeof g);
    CHECK(decode_all(d, "# gpu=x\nK\t1\tk\nB 2 0 0 0 4\nE\t3\t0\t0\t0", &g) == RFT_DECODE_DONE);
    CHECK(g.n == 3 && g.cycle[0] == 1 && g.cycle[2] == 3);
    const rft_header *h = rft_decode_header(d);
    CHECK(rft_header_get(h, "a") == NULL && strcmp(rft_header_get(h, "gpu"), "x") == 0);
    CHECK(strcmp(rft_header_get(h, "source"), "second") == 0);
    const rft_decode_info *in = rft_decode_progress(d);
    CHECK(in->fmt == RFT_FMT_TEXT && in->lines == 4 && in->records == 3 && in->err_line == 0);
    CHECK(strcmp(rft_decode_why(d), "") == 0);
    rft_decode_free(d);
}

int main(void)
{
    char dir[] = "/tmp/test_memin.XXXXXX";
    CHECK(mkdtemp(dir));
    streams_in_memory(dir);
    reader_in_memory(dir);
    decoder_reset();
    rmdir(dir);
    puts("test_memin: ok");
    return 0;
}
