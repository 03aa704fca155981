/* in_drain.h - what test_stream.c and test_memin.c share: an rft_in read
 * to its end in pieces of odd sizes, what ended it, and a file written. */
#ifndef RFT_TEST_IN_DRAIN_H
#define RFT_TEST_IN_DRAIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rft.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

typedef struct {
    unsigned char *buf;
    size_t n;
    long last;          /* what ended the reading: 0 or an error code (-1: no input) */
    uint64_t bytes;     /* rft_in_bytes at the end */
    char err[256];      /* rft_in_error, or why the input did not open */
} result;

/* Read all of in (NULL: it did not open, err says why) in pieces of
 * piece[0], piece[1], ... (npiece sizes, over and over), each read giving
 * at most what was asked, the end told again to a reader that asks once
 * more; in is closed. */
static inline result drain(rft_in *in, const char *err, const size_t *piece, unsigned npiece)
{
    result r = {0};
    if (!in) {
        r.last = -1;
        snprintf(r.err, sizeof r.err, "%s", err);
        return r;
    }
    size_t cap = 1 << 16;
    CHECK((r.buf = malloc(cap)) != NULL);
    for (unsigned i = 0;; i++) {
        size_t want = piece[i % npiece];
        if (r.n + want > cap)
            CHECK((r.buf = realloc(r.buf, cap = 2 * (r.n + want))) != NULL);
        long m = rft_in_read(in, r.buf + r.n, want);
        if (m <= 0) {
            r.last = m;
            CHECK(rft_in_read(in, r.buf + r.n, want) == m);
            break;
        }
        CHECK((size_t)m <= want);
        r.n += (size_t)m;
    }
    r.bytes = rft_in_bytes(in);
    snprintf(r.err, sizeof r.err, "%s", rft_in_error(in));
    rft_in_close(in);
    return r;
}

static inline void put(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(p, 1, n, f) == n && fclose(f) == 0);
}

#endif
