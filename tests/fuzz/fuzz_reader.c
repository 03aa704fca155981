/* fuzz_reader.c - the stream reader (rft_reader over rft_in, lib/record.c
 * and lib/stream.c, here from memory: rft_reader_open_mem), the payload
 * parsers of analysis records, and the writer re-encoding what was read.
 *
 * Input: an rft stream as a file holds it (starting with a zstd frame), or
 * its content alone, which is zstd-compressed here first so that mutations
 * reach the header and record parsers instead of stopping in zstd. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fuzz.h"

#define MAX_RECORDS (1u << 16)  /* a small input may decompress to many */

/* Read the whole stream; returns the last rft_read code (or the open
 * failure as RFT_EFORMAT) and the records read in *count. */
static int read_all(const uint8_t *data, size_t n, int flags, uint64_t *count)
{
    char err[256];
    rft_reader *r = rft_reader_open_mem(data, n, flags, err, sizeof err);
    *count = 0;
    if (!r)
        return RFT_EFORMAT;
    const rft_header *h = rft_reader_header(r);
    for (int i = 0; i < h->nmeta; i++)
        FUZZ_ASSERT(rft_header_get(h, h->meta[i].key) != NULL);
    static rft_rec rec;
    int e;
    while ((e = rft_read(r, &rec)) == 0 && *count < MAX_RECORDS) {
        ++*count;
        fuzz_use_record(&h->geom, &rec);
        const fuzz_payload *f = fuzz_payload_find(rec.kind);
        if (f)
            f->check(rec.raw, rec.len);
        FUZZ_ASSERT(fuzz_write(&h->geom, &rec) == 0);
    }
    FUZZ_ASSERT(rft_reader_error(r) != NULL);
    rft_reader_close(r);
    return e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    static ZSTD_CCtx *cctx;
    static uint8_t *z;      /* the compressed content, grown as needed */
    static size_t zcap;
    const uint8_t *in = data;
    size_t n = size;
    if (size < 4 || memcmp(data, zstd_magic, 4) != 0) {
        size_t cap = ZSTD_compressBound(size);
        if (cap > zcap) {
            free(z);
            FUZZ_ASSERT((z = malloc(zcap = cap)) != NULL);
        }
        FUZZ_ASSERT(cctx || (cctx = ZSTD_createCCtx()) != NULL);
        n = ZSTD_compressCCtx(cctx, z, cap, data, size, 1);
        FUZZ_ASSERT(!ZSTD_isError(n));
        in = z;
    }
    uint64_t direct, ahead;
    int e_direct = read_all(in, n, 0, &direct);
    /* The read-ahead thread must give the same records and the same end,
     * except where zstd finds corrupt data (it may notice a block later).
     * Checked for one input in eight (every one in a replay): a thread and
     * its ring are slow. */
    if (size % 8 == 0 || fuzz_every_way) {
        int e_ahead = read_all(in, n, RFT_IN_AHEAD, &ahead);
        if (e_direct != RFT_EZSTD && e_ahead != RFT_EZSTD)
            FUZZ_ASSERT(e_direct == e_ahead && direct == ahead);
    }
    return 0;
}
