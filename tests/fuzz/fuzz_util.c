/* fuzz_util.c - helpers of the harnesses (fuzz.h) and the table of the
 * payload parsers of analysis records. */
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "duty.h"
#include "faultmap.h"
#include "fuzz.h"

/* UndefinedBehaviorSanitizer: a stack with each report, and abort() (as
 * AddressSanitizer does), so that a replay names the input that failed */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:abort_on_error=1"; }

int fuzz_every_way;

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    abort();
}

int fuzz_write(const rft_geom *g, const rft_rec *r)
{
    /* writers to /dev/null kept open, one for each of the last geometries
     * met: the encoders run for every record, the writer's setup (buffers,
     * the zstd context) once */
    enum { WRITERS = 4 };
    static struct {
        rft_geom g;
        rft_writer *w;
    } slot[WRITERS];
    static unsigned next;
    int i = 0;
    while (i < WRITERS && !(slot[i].w && memcmp(&slot[i].g, g, sizeof *g) == 0))
        i++;
    if (i == WRITERS) {
        char err[320];
        rft_header h;
        i = (int)(next++ % WRITERS);
        rft_writer_close(slot[i].w, 1, NULL, 0);
        rft_header_init(&h, "fuzz");
        h.geom = slot[i].g = *g;
        slot[i].w = rft_writer_open("/dev/null", &h, NULL, err, sizeof err);
        rft_header_free(&h);
        FUZZ_ASSERT(slot[i].w != NULL);
    }
    int e = rft_write_rec(slot[i].w, r);
    if (e) {    /* a refused record leaves the writer failed: the next one is new */
        rft_writer_close(slot[i].w, 0, NULL, 0);
        slot[i].w = NULL;
    }
    return e;
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
    /* one buffer for every line, each copied to its end and the bytes
     * before it poisoned: a read past the line or before it is caught as
     * in an exact-length allocation, without an allocation a line */
    static char *buf;
    static size_t cap;
    size_t pos = 0;
    while (pos < n) {
        const uint8_t *nl = memchr(data + pos, '\n', n - pos);
        size_t end = nl ? (size_t)(nl - data) : n, len = end - pos;
        if (len > cap || !buf) {
            free(buf);
            cap = len > 2 * cap ? len : 2 * cap;
            cap = cap < 4096 ? 4096 : cap;
            FUZZ_ASSERT((buf = malloc(cap)) != NULL);
        }
        char *line = buf + cap - len;
        memcpy(line, data + pos, len);
        ASAN_POISON_MEMORY_REGION(buf, cap - len);
        int e = fn(ctx, line, len);
        ASAN_UNPOISON_MEMORY_REGION(buf, cap - len);
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
