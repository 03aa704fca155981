/* stream.c - byte input from a file or stdin, zstd-decompressed when the
 * content is a zstd frame.  Truncated and corrupt frames are told apart
 * from a clean end, as zstd's streaming examples do. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "rft.h"

struct rft_in {
    int fd;                /* read(2), not stdio: a live pipe yields what it has */
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

static ssize_t read_some(int fd, void *buf, size_t n)
{
    ssize_t m;
    do
        m = read(fd, buf, n);
    while (m < 0 && errno == EINTR);
    return m;
}

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
    in->fd = -1;
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
    } else if ((in->fd = open(path, O_RDONLY)) < 0) {
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
    size_t n = 0;
    while (n < 4) {
        ssize_t m = read_some(in->fd, in->inbuf + n, 4 - n);
        if (m < 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            rft_in_close(in);
            return NULL;
        }
        if (m == 0)
            break;
        n += (size_t)m;
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
        if (got == 0) {
            ssize_t m = read_some(in->fd, buf, n);
            if (m < 0)
                return fail(in, RFT_EIO, "read error: %s", strerror(errno));
            in->consumed += (size_t)m;
            got = (size_t)m;
        }
        return (long)got;
    }
    ZSTD_outBuffer out = {buf, n, 0};
    while (out.pos == 0) {
        if (in->zin.pos == in->zin.size) {
            if (in->eof)
                break;
            ssize_t r = read_some(in->fd, in->inbuf, in->incap);
            if (r < 0)
                return fail(in, RFT_EIO, "read error: %s", strerror(errno));
            size_t m = (size_t)r;
            if (m == 0) {
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
        return fail(in, RFT_EZSTD, "%s", "truncated zstd frame");
    return (long)out.pos;
}

int rft_in_is_zstd(const rft_in *in) { return in->is_zstd; }
uint64_t rft_in_bytes(const rft_in *in) { return in->consumed; }
const char *rft_in_error(const rft_in *in) { return in->err; }

void rft_in_close(rft_in *in)
{
    if (!in)
        return;
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    ZSTD_freeDCtx(in->dctx);
    free(in->inbuf);
    free(in);
}
