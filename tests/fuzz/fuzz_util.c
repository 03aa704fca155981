/* fuzz_util.c - helpers of the harnesses (fuzz.h) and the table of the
 * payload parsers of analysis records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "duty.h"
#include "faultmap.h"
#include "fuzz.h"

/* UndefinedBehaviorSanitizer: a stack with each report, and abort() (as
 * AddressSanitizer does), so that a replay names the input that failed */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:abort_on_error=1"; }

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    abort();
}

const char *fuzz_path(const uint8_t *data, size_t n)
{
    /* one unlinked temporary file, rewritten for every input */
    static int fd = -1;
    static char path[32];
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        char tmpl[4096];
        snprintf(tmpl, sizeof tmpl, "%s/rft-fuzz.XXXXXX", dir && *dir ? dir : "/tmp");
        FUZZ_ASSERT((fd = mkstemp(tmpl)) >= 0);
        unlink(tmpl);
        snprintf(path, sizeof path, "/dev/fd/%d", fd);
    }
    FUZZ_ASSERT(ftruncate(fd, 0) == 0);
    for (size_t done = 0; done < n;) {
        ssize_t w = pwrite(fd, data + done, n - done, (off_t)done);
        FUZZ_ASSERT(w > 0);
        done += (size_t)w;
    }
    return path;
}

char *fuzz_copy(const void *data, size_t n)
{
    char *p = malloc(n ? n : 1);
    FUZZ_ASSERT(p != NULL);
    if (n)
        memcpy(p, data, n);
    return p;
}

int fuzz_lines(const uint8_t *data, size_t n, int (*fn)(void *ctx, char *line, size_t len),
               void *ctx)
{
    size_t pos = 0;
    while (pos < n) {
        const uint8_t *nl = memchr(data + pos, '\n', n - pos);
        size_t end = nl ? (size_t)(nl - data) : n;
        /* malloc(0) under ASan is a valid pointer to nothing readable */
        char *line = malloc(end - pos);
        FUZZ_ASSERT(line != NULL || end == pos);
        memcpy(line, data + pos, end - pos);
        int e = fn(ctx, line, end - pos);
        free(line);
        if (e)
            return e;
        pos = end + 1;
    }
    return 0;
}

volatile uint8_t fuzz_sink;

static void touch(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= b[i];
    fuzz_sink ^= x;
}

void fuzz_use_record(const rft_geom *g, const rft_rec *r)
{
    static char text[RFT_TEXT_MAX];
    touch(r->raw, r->len);
    if (r->kind == RFT_KERNEL) {
        touch(r->u.kernel.name, r->u.kernel.name_len);
        if (r->u.kernel.name_len > RFT_MAX_STR)
            return;     /* no stream holds it: rft_write_kernel refuses it */
    }
    size_t n = rft_text_format(g, r, NULL, 0, '\t', text);
    FUZZ_ASSERT(n < sizeof text);
    touch(text, n);
    (void)rft_rec_cycle(r);
}

/* ---- payload parsers ---------------------------------------------------------------- */
static void check_counters(const uint8_t *p, uint32_t len)
{
    static rft_counters c, sum;
    if (rft_counters_parse(p, len, &c))
        return;
    memset(&sum, 0, sizeof sum);
    for (int i = 0; i < c.n; i++)
        (void)rft_counters_merge(&sum, c.name[i], c.value[i]);
    touch(c.stage, strlen(c.stage));
    touch(c.scope, strlen(c.scope));
}

static void check_alloc(const uint8_t *p, uint32_t len)
{
    rft_alloc_rec a, b;
    uint8_t once[RFT_ALLOC_LEN], twice[RFT_ALLOC_LEN];
    char text[RFT_ALLOC_TEXT_MAX];
    if (rft_alloc_parse(p, len, &a))
        return;
    FUZZ_ASSERT(rft_alloc_format(&a, ' ', text) < sizeof text);
    rft_alloc_encode(once, &a);
    FUZZ_ASSERT(rft_alloc_parse(once, sizeof once, &b) == 0);
    rft_alloc_encode(twice, &b);
    FUZZ_ASSERT(memcmp(once, twice, sizeof once) == 0);
}

static void check_duty(const uint8_t *p, uint32_t len)
{
    static uint64_t t1[2][RFT_MAX_LANES * 32], toff[2][RFT_MAX_LANES * 32];
    static uint8_t *once, *twice;   /* the largest record: allocated once, it is slow */
    rft_duty_rec a = {.t1 = t1[0], .toff = toff[0]}, b = {.t1 = t1[1], .toff = toff[1]};
    const char *why;
    if (rft_duty_parse(p, len, &a, &why))
        return;
    if (!once) {
        once = malloc(rft_duty_max_len(RFT_MAX_LANES * 32));
        twice = malloc(rft_duty_max_len(RFT_MAX_LANES * 32));
        FUZZ_ASSERT(once && twice);
    }
    uint32_t n = rft_duty_encode(&a, once);
    FUZZ_ASSERT(n <= rft_duty_max_len(a.bits));
    FUZZ_ASSERT(rft_duty_parse(once, n, &b, &why) == 0);
    FUZZ_ASSERT(rft_duty_encode(&b, twice) == n && memcmp(once, twice, n) == 0);
    (void)rft_duty_add(&a, &b, &why);     /* may refuse a sum that overflows */
}

static void check_faultmap(const uint8_t *p, uint32_t len)
{
    rft_faultmap a, b;
    char why[256];
    if (rft_faultmap_decode(p, len, &a, why, sizeof why))
        return;
    uint32_t counts[RFT_FM_CLASSES];
    (void)rft_faultmap_classes(&a, counts);
    size_t n = rft_faultmap_record_len(&a);
    uint8_t *once = malloc(n), *twice = malloc(n);
    FUZZ_ASSERT(once && twice);
    rft_faultmap_encode(&a, once);
    FUZZ_ASSERT(rft_faultmap_decode(once, (uint32_t)n, &b, why, sizeof why) == 0);
    FUZZ_ASSERT(rft_faultmap_record_len(&b) == n);
    rft_faultmap_encode(&b, twice);
    FUZZ_ASSERT(memcmp(once, twice, n) == 0);
    if ((uint64_t)a.entries * a.blocks <= (1u << 16)) {    /* a line per block: keep it quick */
        char *csv = NULL;
        size_t clen = 0, ccap = 0;
        FUZZ_ASSERT(rft_faultmap_csv_format(&a, &csv, &clen, &ccap) == 0);
        touch(csv, clen);
        free(csv);
    }
    free(once);
    free(twice);
    rft_faultmap_free(&a);
    rft_faultmap_free(&b);
}

/* One line per record kind whose payload the library parses. */
const fuzz_payload fuzz_payloads[] = {
    {RFT_COUNTERS, check_counters},
    {RFT_FAULTMAP, check_faultmap},
    {RFT_ALLOC, check_alloc},
    {RFT_DUTY, check_duty},
    {-1, NULL},
};

const fuzz_payload *fuzz_payload_find(int kind)
{
    for (const fuzz_payload *f = fuzz_payloads; f->check; f++)
        if (f->kind == kind)
            return f;
    return NULL;
}
