/* test_stream.c - rft_in with and without read-ahead: the same bytes in the
 * same order, the same byte count, and the same error at the same place, for
 * plain and zstd content, whole, cut short and corrupt, read in odd-sized
 * pieces; and closing while the thread waits. */
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "in_drain.h"

/* Read all of path with mode, in pieces of 1, 7, 4093, ... bytes. */
static result read_all(const char *path, int mode)
{
    static const size_t piece[] = {1, 7, 4093, 65536, 300000};
    char err[256];
    rft_in *in = rft_in_open(path, mode, err, sizeof err);
    CHECK(in);
    return drain(in, err, piece, 5);
}

/* Where corrupt data is noticed depends on the sizes zstd decodes into, so
 * there only the kind of error must agree, and one output may be a prefix of
 * the other (exact: every byte and the message must agree). */
static void same(const char *path, int mode, int exact)
{
    result a = read_all(path, mode), b = read_all(path, mode | RFT_IN_AHEAD);
    CHECK(!exact || a.n == b.n);
    CHECK(memcmp(a.buf, b.buf, a.n < b.n ? a.n : b.n) == 0);
    CHECK(a.last == b.last);
    CHECK(a.bytes == b.bytes);
    CHECK(!exact || strcmp(a.err, b.err) == 0);
    free(a.buf);
    free(b.buf);
}

static void pause_ms(long ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

int main(void)
{
    char dir[] = "/tmp/test_stream.XXXXXX";
    CHECK(mkdtemp(dir));
    char plain[64], whole[64], cut[64], bad[64], empty[64];
    snprintf(plain, sizeof plain, "%s/plain", dir);
    snprintf(whole, sizeof whole, "%s/whole.zst", dir);
    snprintf(cut, sizeof cut, "%s/cut.zst", dir);
    snprintf(bad, sizeof bad, "%s/bad.zst", dir);
    snprintf(empty, sizeof empty, "%s/empty", dir);

    /* 3 MB that compress somewhat: several read-ahead chunks */
    size_t n = 3u << 20;
    unsigned char *src = malloc(n);
    CHECK(src);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        src[i] = (unsigned char)(i % 97 < 60 ? i / 1000 : x >> 24);
    }
    size_t zcap = ZSTD_compressBound(n);
    unsigned char *z = malloc(zcap);
    CHECK(z);
    size_t zn = ZSTD_compress(z, zcap, src, n, 1);
    CHECK(!ZSTD_isError(zn));

    put(plain, src, n);
    put(whole, z, zn);
    put(cut, z, zn / 2);
    z[zn / 3] ^= 0x5a;  /* corrupt a byte in the middle */
    put(bad, z, zn);
    put(empty, "", 0);

    same(plain, RFT_IN_AUTO, 1);
    same(whole, RFT_IN_AUTO, 1);
    same(whole, RFT_IN_ZSTD, 1);
    same(cut, RFT_IN_ZSTD, 1);
    same(bad, RFT_IN_ZSTD, 0);
    same(empty, RFT_IN_AUTO, 1);

    /* the whole stream decompresses to the source */
    result r = read_all(whole, RFT_IN_ZSTD | RFT_IN_AHEAD);
    CHECK(r.last == 0 && r.n == n && memcmp(r.buf, src, n) == 0 && r.bytes == zn);
    free(r.buf);
    /* cut short: a truncated frame, after every byte that could be decoded */
    r = read_all(cut, RFT_IN_ZSTD | RFT_IN_AHEAD);
    CHECK(r.last == RFT_EZSTD && strstr(r.err, "truncated") && r.n > 0 && r.n < n);
    CHECK(memcmp(r.buf, src, r.n) == 0);
    free(r.buf);

    /* closing early stops the thread, also while it waits on a pipe that
     * never ends (it would hang here otherwise) */
    int fd[2];
    CHECK(pipe(fd) == 0);
    int saved = dup(STDIN_FILENO);
    CHECK(saved >= 0 && dup2(fd[0], STDIN_FILENO) == STDIN_FILENO);
    CHECK(write(fd[1], "abcdef", 6) == 6);
    char err[256];
    rft_in *in = rft_in_open("-", RFT_IN_AUTO | RFT_IN_AHEAD, err, sizeof err);
    CHECK(in);
    /* what the pipe has is read at once, not when a chunk is full */
    alarm(10);      /* a hang is a failure */
    char six[6];
    size_t have = 0;
    while (have < 6) {
        long m = rft_in_read(in, six + have, 6 - have);
        CHECK(m > 0);
        have += (size_t)m;
    }
    alarm(0);
    CHECK(memcmp(six, "abcdef", 6) == 0);
    pause_ms(20);   /* the thread now waits in read(2) for more */
    rft_in_close(in);
    CHECK(dup2(saved, STDIN_FILENO) == STDIN_FILENO);
    close(fd[0]);
    close(fd[1]);
    close(saved);

    /* closing with the ring full and the file not finished */
    in = rft_in_open(plain, RFT_IN_AUTO | RFT_IN_AHEAD, err, sizeof err);
    CHECK(in);
    unsigned char b[10];
    size_t got = 0;
    while (got < sizeof b) {
        long m = rft_in_read(in, b + got, sizeof b - got);
        CHECK(m > 0);
        got += (size_t)m;
    }
    CHECK(memcmp(b, src, sizeof b) == 0);
    pause_ms(20);
    rft_in_close(in);

    unlink(plain);
    unlink(whole);
    unlink(cut);
    unlink(bad);
    unlink(empty);
    rmdir(dir);
    free(src);
    free(z);
    puts("test_stream: ok");
    return 0;
}
