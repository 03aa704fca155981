/* stream.c - byte input from a file, stdin or memory, zstd-decompressed
 * when the content is a zstd frame.  Truncated and corrupt frames are told apart
 * from a clean end, as zstd's streaming examples do.
 *
 * With RFT_IN_AHEAD a second thread reads and decompresses into a ring of
 * chunks while the caller works on the previous ones, as `zstd -T` and pigz
 * overlap their stages: a consumer as busy as rft-duty then costs
 * max(decompress, work), not their sum.  The bytes, their order and the
 * errors are those of the direct path (only where zstd notices corrupt data
 * may move by a block: it depends on the sizes it decodes into). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "rft.h"

#define AHEAD_CHUNKS 4
#define AHEAD_SIZE (256u << 10)

struct ahead_chunk {
    unsigned char *buf;
    long n;                 /* bytes, 0 at the clean end, <0 an error */
    uint64_t consumed;      /* rft_in_bytes() once this chunk is taken */
};

struct ahead {              /* the ring between the reading thread and the caller */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t more, room;
    struct ahead_chunk c[AHEAD_CHUNKS];
    unsigned made, taken;   /* chunks produced and consumed (mod 2^32) */
    size_t pos;             /* bytes of the oldest chunk already returned */
    int stop;               /* set by the caller: the thread ends */
    int done;               /* the caller has seen the end ... */
    long end;               /* ... this one */
    uint64_t consumed;      /* rft_in_bytes() as the caller sees it */
};

struct rft_in {
    int fd;                /* read(2), not stdio: a live pipe yields what it has */
    const unsigned char *mem;   /* or bytes in memory (rft_in_open_mem): mem[mempos..memlen) */
    size_t memlen, mempos;
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
    struct ahead *ahead;    /* NULL: the caller reads directly */
    char err[256];
};

static ssize_t read_some(rft_in *in, void *buf, size_t n, int in_thread)
{
    ssize_t m;
    if (in->mem) {
        size_t left = in->memlen - in->mempos;
        m = (ssize_t)(n < left ? n : left);
        memcpy(buf, in->mem + in->mempos, (size_t)m);
        in->mempos += (size_t)m;
        return m;
    }
    /* the reading thread may be cancelled only while it waits in read(2):
     * an input that never ends (a terminal) must not keep close() waiting */
    if (in_thread)
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
    do
        m = read(in->fd, buf, n);
    while (m < 0 && errno == EINTR);
    if (in_thread)
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    return m;
}

/* A pipe between two stages holds 64 KiB by default, half of one zstd
 * output block, so the stages take turns instead of overlapping; 1 MiB
 * (Linux's default limit for unprivileged processes) lets them run on. */
static void grow_pipe(int fd)
{
#ifdef __linux__
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        (void)fcntl(fd, 1031 /* F_SETPIPE_SZ, Linux only */, 1 << 20);
#else
    (void)fd;
#endif
}

static long read_direct(rft_in *in, void *buf, size_t n);
static int ahead_start(rft_in *in);

static long fail(rft_in *in, int code, const char *fmt, const char *detail)
{
    snprintf(in->err, sizeof in->err, fmt, detail);
    return code;
}

/* Compressions other than zstd, which no reader takes: what to run instead. */
static const struct {
    const char *magic, *name, *tool;
} other_compressions[] = {
    {"\x1f\x8b", "gzip", "zcat"}, {"\xfd" "7zX", "xz", "xzcat"}, {"BZh", "bzip2", "bzcat"}};

static int other_compression(const unsigned char *p, size_t n)
{
    for (int i = 0; i < (int)(sizeof other_compressions / sizeof other_compressions[0]); i++) {
        size_t l = strlen(other_compressions[i].magic);
        if (n >= l && memcmp(p, other_compressions[i].magic, l) == 0)
            return i;
    }
    return -1;
}

/* What content that is neither zstd nor another compression seems to be, and
 * what to run instead. */
static const char *not_zstd(const unsigned char *p, size_t n)
{
    if (n >= 4 && memcmp(p, "RFTS", 4) == 0)
        return "an rft stream's content without its zstd frame (zstd -q FILE makes the stream)";
    size_t text = 0;
    while (text < n && (p[text] == '\t' || p[text] == '\n' || p[text] == '\r' ||
                        (p[text] >= 0x20 && p[text] < 0x7f)))
        text++;
    if (text == n)
        return "text, not an rft stream: a trace is decoded first (rft-decode FILE | ...)";
    return "not a zstd stream (bad frame magic)";
}

static rft_in *start(rft_in *in, int mode, char *err, size_t errlen);

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
        grow_pipe(in->fd);
    } else if ((in->fd = open(path, O_RDONLY)) < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        free(in);
        return NULL;
    }
    return start(in, mode, err, errlen);
}

rft_in *rft_in_open_mem(const void *data, size_t n, int mode, char *err, size_t errlen)
{
    static const unsigned char none[1];
    rft_in *in = calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    in->fd = -1;
    in->mem = n ? data : none;
    in->memlen = n;
    return start(in, mode, err, errlen);
}

/* The content's kind from its first bytes, the decompressor, the thread. */
static rft_in *start(rft_in *in, int mode, char *err, size_t errlen)
{
    /* bytes in memory go to zstd where they are: only the magic is copied */
    in->incap = in->mem ? 4 : ZSTD_DStreamInSize();
    in->inbuf = malloc(in->incap);
    if (!in->inbuf) {
        snprintf(err, errlen, "out of memory");
        rft_in_close(in);
        return NULL;
    }
    /* peek at the first 4 bytes to tell zstd from plain content */
    size_t n = 0;
    while (n < 4) {
        ssize_t m = read_some(in, in->inbuf + n, 4 - n, 0);
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
    int other = in->is_zstd ? -1 : other_compression(in->inbuf, n);
    if (other >= 0) {
        snprintf(err, errlen, "%s data, not %s: decompress it first (%s FILE | ...)",
                 other_compressions[other].name,
                 (mode & RFT_IN_ZSTD) ? "an rft stream" : "plain or zstd-compressed text",
                 other_compressions[other].tool);
        rft_in_close(in);
        return NULL;
    }
    if ((mode & RFT_IN_ZSTD) && !in->is_zstd) {
        snprintf(err, errlen, "%s", n == 0 ? "empty input" : not_zstd(in->inbuf, n));
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
    if ((mode & RFT_IN_AHEAD) && ahead_start(in)) {
        snprintf(err, errlen, "cannot start the reading thread");
        rft_in_close(in);
        return NULL;
    }
    return in;
}

static long read_direct(rft_in *in, void *buf, size_t n)
{
    int in_thread = in->ahead != NULL;
    if (!in->is_zstd) {
        size_t got = 0;
        while (in->peekpos < in->npeek && got < n)
            ((unsigned char *)buf)[got++] = in->peek[in->peekpos++];
        if (got == 0) {
            ssize_t m = read_some(in, buf, n, in_thread);
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
            const unsigned char *src = in->inbuf;
            ssize_t r;
            if (in->mem) {
                src = in->mem + in->mempos;
                r = (ssize_t)(in->memlen - in->mempos);
                in->mempos = in->memlen;
            } else if ((r = read_some(in, in->inbuf, in->incap, in_thread)) < 0) {
                return fail(in, RFT_EIO, "read error: %s", strerror(errno));
            }
            size_t m = (size_t)r;
            if (m == 0) {
                in->eof = 1;
                /* zstd may still hold decoded bytes to flush */
            }
            in->consumed += m;
            in->zin.src = src;
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

/* ---- read-ahead ---------------------------------------------------------------- */
/* Wait for a free slot; 0 when the caller stopped the reading. */
static int ahead_room(struct ahead *a)
{
    pthread_mutex_lock(&a->mu);
    while (!a->stop && a->made - a->taken == AHEAD_CHUNKS)
        pthread_cond_wait(&a->room, &a->mu);
    int ok = !a->stop;
    pthread_mutex_unlock(&a->mu);
    return ok;
}

static void ahead_publish(struct ahead *a)
{
    pthread_mutex_lock(&a->mu);
    a->made++;
    pthread_cond_signal(&a->more);
    pthread_mutex_unlock(&a->mu);
}

static void *ahead_main(void *arg)
{
    rft_in *in = arg;
    struct ahead *a = in->ahead;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    while (ahead_room(a)) {
        /* the slot is this thread's alone until `made` moves past it; one
         * call, so that what a live pipe has now goes to the caller now */
        struct ahead_chunk *c = &a->c[a->made % AHEAD_CHUNKS];
        c->n = read_direct(in, c->buf, AHEAD_SIZE);
        c->consumed = in->consumed;
        ahead_publish(a);
        if (c->n <= 0)          /* the end or an error: nothing follows */
            break;
    }
    return NULL;
}

static int ahead_start(rft_in *in)
{
    struct ahead *a = calloc(1, sizeof *a);
    if (!a)
        return -1;
    for (int i = 0; i < AHEAD_CHUNKS; i++)
        if (!(a->c[i].buf = malloc(AHEAD_SIZE))) {
            while (i--)
                free(a->c[i].buf);
            free(a);
            return -1;
        }
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->more, NULL);
    pthread_cond_init(&a->room, NULL);
    in->ahead = a;
    /* the thread takes no signal: a program's handler (removing its
     * temporaries) runs in the thread whose data it sees */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int failed = pthread_create(&a->thread, NULL, ahead_main, in);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (failed) {
        in->ahead = NULL;
        for (int i = 0; i < AHEAD_CHUNKS; i++)
            free(a->c[i].buf);
        free(a);
        return -1;
    }
    return 0;
}

static long ahead_read(rft_in *in, unsigned char *buf, size_t n)
{
    struct ahead *a = in->ahead;
    if (a->done)                    /* the end or an error, told again */
        return a->end;
    pthread_mutex_lock(&a->mu);
    while (a->made == a->taken)
        pthread_cond_wait(&a->more, &a->mu);
    pthread_mutex_unlock(&a->mu);
    struct ahead_chunk *c = &a->c[a->taken % AHEAD_CHUNKS];
    if (c->n <= 0) {                /* the thread has finished */
        a->done = 1;
        a->end = c->n;
        a->consumed = c->consumed;
        return c->n;
    }
    size_t m = (size_t)c->n - a->pos < n ? (size_t)c->n - a->pos : n;
    memcpy(buf, c->buf + a->pos, m);
    a->pos += m;
    if (a->pos == (size_t)c->n) {   /* hand the slot back */
        a->pos = 0;
        a->consumed = c->consumed;
        pthread_mutex_lock(&a->mu);
        a->taken++;
        pthread_cond_signal(&a->room);
        pthread_mutex_unlock(&a->mu);
    }
    return (long)m;
}

static void ahead_stop(rft_in *in)
{
    struct ahead *a = in->ahead;
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_signal(&a->room);
    pthread_mutex_unlock(&a->mu);
    pthread_cancel(a->thread);      /* acts only inside read(2) */
    pthread_join(a->thread, NULL);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->more);
    pthread_cond_destroy(&a->room);
    for (int i = 0; i < AHEAD_CHUNKS; i++)
        free(a->c[i].buf);
    free(a);
    in->ahead = NULL;
}

long rft_in_read(rft_in *in, void *buf, size_t n)
{
    return in->ahead ? ahead_read(in, buf, n) : read_direct(in, buf, n);
}

int rft_in_is_zstd(const rft_in *in) { return in->is_zstd; }
uint64_t rft_in_bytes(const rft_in *in) { return in->ahead ? in->ahead->consumed : in->consumed; }
const char *rft_in_error(const rft_in *in) { return in->err; }

void rft_in_close(rft_in *in)
{
    if (!in)
        return;
    if (in->ahead)
        ahead_stop(in);
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    ZSTD_freeDCtx(in->dctx);
    free(in->inbuf);
    free(in);
}
