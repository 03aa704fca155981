/* fuzz_text.c - the canonical text grammar and its CSV form, read the way
 * rft-decode reads them: through lib/decode.c (its line splitting,
 * '# key=value' comments, libcsv rows, the header held until the first
 * record) over rft_textdec_line, the records written.  Each input is decoded
 * as text, then as CSV, through rft_in as rft-decode reads a file (here from
 * memory: rft_in_open_mem), by one decoder reset for each (rft_decode_reset). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "fuzz.h"
#include "rft.h"

/* the sink: the records written as rft-decode writes them */
static int put(void *ctx, rft_rec *r)
{
    return fuzz_write(ctx, r);
}

static void decode(const uint8_t *data, size_t size, int fmt)
{
    static rft_decode *d;   /* its 5 MiB buffer allocated once */
    char err[320];
    rft_decode_opts o;
    rft_decode_opts_default(&o);
    o.fmt = fmt;
    o.input = "fuzz";
    rft_in *in = rft_in_open_mem(data, size, RFT_IN_AUTO, err, sizeof err);
    if (!in) {      /* gzip, xz or bzip2 data: refused, saying what decompresses it */
        FUZZ_ASSERT(strstr(err, "decompress it first") != NULL);
        return;
    }
    if (d)
        FUZZ_ASSERT(rft_decode_reset(d, &o) == 0);
    else
        FUZZ_ASSERT((d = rft_decode_new(&o)) != NULL);
    rft_sink sink = {put, NULL};
    int e;
    for (;;) {
        e = rft_decode_step(d, sink.ctx ? &sink : NULL);
        if (e == RFT_DECODE_MORE) {
            size_t room;
            char *p = rft_decode_space(d, &room);
            long n = rft_in_read(in, p, room);
            if (n < 0) {
                e = (int)n;
                break;
            }
            rft_decode_fill(d, (size_t)n);
        } else if ((e == RFT_DECODE_HEADER || e == RFT_DECODE_DONE) && !sink.ctx) {
            /* the header is final: the output opens, the records follow */
            const rft_header *h = rft_decode_header(d);
            const char *why;
            FUZZ_ASSERT(rft_geom_check(&h->geom, &why) == 0);
            sink.ctx = (void *)&h->geom;
        } else {
            break;
        }
    }
    FUZZ_ASSERT(e == RFT_DECODE_DONE || e < 0);
    FUZZ_ASSERT(e != RFT_DECODE_DONE || rft_decode_progress(d)->err_line == 0);
    rft_in_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    decode(data, size, RFT_FMT_TEXT);
    decode(data, size, RFT_FMT_CSV);
    return 0;
}
