/* fuzz_text.c - the canonical text grammar and its CSV form, read the way
 * rft-decode reads them: bin/rft-decode.c itself is compiled in (its line
 * splitting, '# key=value' comments, libcsv rows), over rft_textdec_line and
 * the writer.  Each input is decoded as text, then as CSV.
 *
 * rft-decode ends a failed run with die(), which exits: here die() jumps
 * back to the harness instead, which then frees what the run held. */
#include <csv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decoders.h"
#include "fuzz.h"
#include "rft.h"

static jmp_buf run_over;
static noreturn void fuzz_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fuzz_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fuzz_writer_close(rft_writer *w, int complete, char *err, size_t errlen);

#define die fuzz_die
#define usage_error fuzz_die
#define warnx fuzz_warnx
#define rft_writer_close fuzz_writer_close
#define main rft_decode_main
#include "../../bin/rft-decode.c"
#undef die
#undef usage_error
#undef warnx
#undef rft_writer_close
#undef main

static char message[512];

static void fuzz_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    longjmp(run_over, 1);
}

static void fuzz_warnx(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
}

/* the output closed (by a failing path too) is no longer the harness's to close */
static int fuzz_writer_close(rft_writer *w, int complete, char *err, size_t errlen)
{
    if (w == g.w)
        g.w = NULL;
    return rft_writer_close(w, complete, err, errlen);
}

static void decode(const char *path, int csv, char *buf, size_t cap)
{
    char err[256];
    memset(&g, 0, sizeof g);
    g.input = "fuzz";
    g.output = "/dev/null";
    g.wo.level = RFT_DEFAULT_LEVEL;
    g.csv = csv;
    rft_header_init(&g.h, "rft-decode");
    FUZZ_ASSERT((g.in = rft_in_open(path, RFT_IN_AUTO, err, sizeof err)) != NULL);
    FUZZ_ASSERT(rft_textdec_init(&g.d, &g.h.geom) == 0);
    FUZZ_ASSERT(!csv || csv_init(&g.cp, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI) == 0);
    if (setjmp(run_over) == 0) {
        pump(g.in, buf, cap, 0, 0, csv ? csv_line : text_line, NULL);
        if (csv && csv_fini(&g.cp, csv_field, csv_row, NULL) != 0)
            fail_line(csv_strerror(csv_error(&g.cp)));
        if (!g.header_done)
            start_output();
        fuzz_writer_close(g.w, 1, err, sizeof err);
    }
    if (g.w)
        fuzz_writer_close(g.w, 0, err, sizeof err);
    rft_in_close(g.in);
    rft_textdec_free(&g.d);
    rft_header_free(&g.h);
    free(g.cbuf);
    if (csv)
        csv_free(&g.cp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char *buf;
    static const size_t cap = MAX_LINE + 4 * (1u << 20);    /* rft-decode's */
    if (!buf)
        FUZZ_ASSERT((buf = malloc(cap + 1)) != NULL);
    const char *path = fuzz_path(data, size);
    decode(path, 0, buf, cap);
    decode(path, 1, buf, cap);
    return 0;
}
