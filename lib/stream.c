/* stream.c - byte input from a file or stdin, zstd-decompressed when the
 * content is a zstd frame.  Truncated and corrupt frames are told apart
 * from a clean end, as zstd's streaming examples do. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "rft.h"

struct rft_in {
    FILE *f;
    int is_zstd;
    ZSTD_DCtx *dctx;
    ZSTD_inBuffer zin;
    unsigned char *inbuf;
    size_t incap;
    size_t last_ret;      /* last ZSTD_decompressStream return: 0 = frame done */
    int eof;
    uint64_t consumed;
    /* plain mode: bytes peeked for the magic that must still be returned */
    unsigned char peek[4];
    size_t npeek, peekpos;
    char err[256];
};

static long fail(rft_in *in, int code, const char *fmt, const char *detail)
{
    snprintf(in->err, sizeof in->err, fmt, detail);
    return code;
}

rft_in *rft_in_open(const char *path, int mode, char *err, size_t errlen)
{
    rft_in *in = calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        in->f = stdin;
    } else if (!(in->f = fopen(path, "rb"))) {
        snprintf(err, errlen, "%s", strerror(errno));
        free(in);
        return NULL;
    }
    in->incap = ZSTD_DStreamInSize();
    in->inbuf = malloc(in->incap);
    if (!in->inbuf) {
        snprintf(err, errlen, "out of memory");
        rft_in_close(in);
        return NULL;
    }
    /* peek at the first 4 bytes to tell zstd from plain content */
    size_t n = fread(in->inbuf, 1, 4, in->f);
    if (ferror(in->f)) {
        snprintf(err, errlen, "%s", strerror(errno));
        rft_in_close(in);
        return NULL;
    }
    static const unsigned char zmagic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    in->is_zstd = n == 4 && memcmp(in->inbuf, zmagic, 4) == 0;
    if (mode == RFT_IN_ZSTD && !in->is_zstd) {
        snprintf(err, errlen, n == 0 ? "empty input" : "not a zstd stream (bad frame magic)");
        rft_in_close(in);
        return NULL;
    }
    in->consumed = n;
    if (in->is_zstd) {
        in->dctx = ZSTD_createDCtx();
        if (!in->dctx) {
            snprintf(err, errlen, "out of memory");
            rft_in_close(in);
            return NULL;
        }
        in->zin.src = in->inbuf;
        in->zin.size = n;
        in->zin.pos = 0;
    } else {
        memcpy(in->peek, in->inbuf, n);
        in->npeek = n;
    }
    return in;
}

long rft_in_read(rft_in *in, void *buf, size_t n)
{
    if (!in->is_zstd) {
        size_t got = 0;
        while (in->peekpos < in->npeek && got < n)
            ((unsigned char *)buf)[got++] = in->peek[in->peekpos++];
        if (got < n) {
            size_t m = fread((unsigned char *)buf + got, 1, n - got, in->f);
            if (m == 0 && ferror(in->f))
                return fail(in, RFT_EIO, "read error: %s", strerror(errno));
            in->consumed += m;
            got += m;
        }
        return (long)got;
    }
    ZSTD_outBuffer out = {buf, n, 0};
    while (out.pos == 0) {
        if (in->zin.pos == in->zin.size) {
            if (in->eof)
                break;
            size_t m = fread(in->inbuf, 1, in->incap, in->f);
            if (m == 0) {
                if (ferror(in->f))
                    return fail(in, RFT_EIO, "read error: %s", strerror(errno));
                in->eof = 1;
                /* zstd may still hold decoded bytes to flush */
            }
            in->consumed += m;
            in->zin.src = in->inbuf;
            in->zin.size = m;
            in->zin.pos = 0;
        }
        size_t prev_out = out.pos, prev_in = in->zin.pos;
        size_t ret = ZSTD_decompressStream(in->dctx, &out, &in->zin);
        if (ZSTD_isError(ret))
            return fail(in, RFT_EZSTD, "corrupt zstd data: %s", ZSTD_getErrorName(ret));
        /* a call that moved nothing only returns the next frame's size hint:
         * the frame state is what the last productive call said */
        if (in->zin.pos != prev_in || out.pos != prev_out)
            in->last_ret = ret;
        if (in->eof && in->zin.pos == in->zin.size && out.pos == prev_out)
            break;
    }
    if (out.pos == 0 && in->eof && in->last_ret != 0)
        return fail(in, RFT_ETRUNC, "%s", "truncated zstd frame");
    return (long)out.pos;
}

int rft_in_is_zstd(const rft_in *in) { return in->is_zstd; }
uint64_t rft_in_bytes(const rft_in *in) { return in->consumed; }
const char *rft_in_error(const rft_in *in) { return in->err; }

void rft_in_close(rft_in *in)
{
    if (!in)
        return;
    if (in->f && in->f != stdin)
        fclose(in->f);
    ZSTD_freeDCtx(in->dctx);
    free(in->inbuf);
    free(in);
}
