/* fuzz_text.c - the canonical text grammar and its CSV form, read the way
 * rft-decode reads them: through lib/decode.c (its line splitting,
 * '# key=value' comments, libcsv rows, the header held until the first
 * record) over rft_textdec_line and the writer.  Each input is decoded as
 * text, then as CSV, from a file the way rft-decode reads one (rft_in). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "fuzz.h"
#include "rft.h"

static void decode(const char *path, int fmt)
{
    char err[320];
    rft_decode_opts o;
    rft_decode_opts_default(&o);
    o.fmt = fmt;
    o.input = "fuzz";
    rft_in *in = rft_in_open(path, RFT_IN_AUTO, err, sizeof err);
    if (!in) {      /* gzip, xz or bzip2 data: refused, saying what decompresses it */
        FUZZ_ASSERT(strstr(err, "decompress it first") != NULL);
        return;
    }
    rft_decode *d = rft_decode_new(&o);
    FUZZ_ASSERT(d != NULL);
    rft_writer *w = NULL;
    rft_sink sink;
    int e;
    for (;;) {
        e = rft_decode_step(d, w ? &sink : NULL);
        if (e == RFT_DECODE_MORE) {
            size_t room;
            char *p = rft_decode_space(d, &room);
            long n = rft_in_read(in, p, room);
            if (n < 0) {
                e = (int)n;
                break;
            }
            rft_decode_fill(d, (size_t)n);
        } else if ((e == RFT_DECODE_HEADER || e == RFT_DECODE_DONE) && !w) {
            /* the header is final: the output opens, the records follow */
            FUZZ_ASSERT((w = rft_writer_open("/dev/null", rft_decode_header(d), NULL, err,
                                             sizeof err)) != NULL);
            sink = rft_sink_writer(w);
        } else {
            break;
        }
    }
    FUZZ_ASSERT(e == RFT_DECODE_DONE || e < 0);
    FUZZ_ASSERT(e != RFT_DECODE_DONE || rft_decode_progress(d)->err_line == 0);
    rft_writer_close(w, e == RFT_DECODE_DONE, err, sizeof err);
    rft_decode_free(d);
    rft_in_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path(data, size);
    decode(path, RFT_FMT_TEXT);
    decode(path, RFT_FMT_CSV);
    return 0;
}
