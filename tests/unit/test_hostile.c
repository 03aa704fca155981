/* test_hostile.c - the library given hostile input (issue 11): lines passed
 * by length with nothing after them (each copied into an allocation of
 * exactly its length, so that AddressSanitizer, `make check SAN=1`, sees a
 * read past it), NUL bytes where names and record types go, and values too
 * long for the buffers that used to hold them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec_int.h"
#include "energy.h"
#include "faultmap.h"
#include "params.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* n bytes of s in an allocation of exactly n bytes (no NUL after them) */
static char *exact(const char *s, size_t n)
{
    char *p = malloc(n ? n : 1);
    CHECK(p);
    memcpy(p, s, n);
    return p;
}

/* ---- the canonical grammar (lib/text.c) ------------------------------------------ */
/* Decode one line of nf fields given as strings of known length; the field
 * arrays and the fields are exact allocations. */
static int text_line(rft_textdec *d, int nf, const char *const *s, const size_t *len)
{
    const char **f = calloc((size_t)nf, sizeof *f);
    size_t *fl = calloc((size_t)nf, sizeof *fl);
    CHECK(f && fl);
    for (int i = 0; i < nf; i++) {
        f[i] = exact(s[i], len[i]);
        fl[i] = len[i];
    }
    int n = rft_textdec_line(d, nf, f, fl);
    for (int i = 0; i < nf; i++)
        free((void *)f[i]);
    free(f);
    free(fl);
    return n;
}

static void text_grammar(void)
{
    rft_geom g;
    rft_geom_default(&g);
    rft_textdec d;
    CHECK(rft_textdec_init(&d, &g) == 0);
    /* a NUL byte as the record type, with few fields and with many */
    const char *few[] = {"", "0", "x"};
    const size_t few_len[] = {1, 1, 1};
    CHECK(text_line(&d, 3, few, few_len) == RFT_EFORMAT);
    CHECK(strncmp(d.why, "unknown record type", 19) == 0);
    const char *many[] = {"", "0", "0", "0", "0", "1", "0", "0"};
    const size_t many_len[] = {1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(text_line(&d, 8, many, many_len) == RFT_EFORMAT);
    CHECK(strncmp(d.why, "unknown record type", 19) == 0);
    /* a kernel name holding NUL bytes, on a K line and on a B line */
    const char *k[] = {"K", "0", "a\0b"};
    const size_t k_len[] = {1, 1, 3};
    CHECK(text_line(&d, 3, k, k_len) == RFT_EFORMAT);
    CHECK(strcmp(d.why, "kernel name contains a NUL byte") == 0);
    const char *b[] = {"B", "0", "0", "0", "0", "4", "\0\0"};
    const size_t b_len[] = {1, 1, 1, 1, 1, 1, 2};
    CHECK(text_line(&d, 7, b, b_len) == RFT_EFORMAT);
    CHECK(strcmp(d.why, "kernel name contains a NUL byte") == 0);
    /* a good name still works, and the decoder went on as if nothing happened */
    const char *ok[] = {"K", "0", "main"};
    const size_t ok_len[] = {1, 1, 4};
    CHECK(text_line(&d, 3, ok, ok_len) == 1);
    CHECK(d.rec[0].kind == RFT_KERNEL && d.rec[0].u.kernel.name_len == 4 &&
          memcmp(d.rec[0].u.kernel.name, "main", 4) == 0 && d.nk == 1);
    rft_textdec_free(&d);
}

/* ---- the simulator-log decoders (lib/dec_*.c) ------------------------------------- */
static rft_dec *decoder(int fmt, uint32_t lanes, const char *columns)
{
    rft_dec_opts o;
    rft_dec_opts_default(&o);
    o.geom.lanes = lanes;
    o.geom.block_lanes = lanes < 16 ? lanes : 16;
    o.nvgprs = 16;
    o.columns = columns;
    char err[256];
    rft_dec *d = rft_dec_new(fmt, &o, NULL, NULL, err, sizeof err);
    if (!d)
        fprintf(stderr, "rft_dec_new: %s\n", err);
    CHECK(d);
    return d;
}

static int dec_line_exact(rft_dec *d, const char *s, size_t n)
{
    char *p = exact(s, n);
    int e = rft_dec_line(d, p, n);
    free(p);
    return e;
}
#define LINE(d, lit) dec_line_exact(d, lit, sizeof lit - 1)

static void m2s_lines(void)
{
    rft_dec *d = decoder(RFT_FMT_M2S, 64, NULL);
    /* "Group ..." without " wavefront ": nothing to find past the line */
    CHECK(LINE(d, "Group 3") == 0);
    /* " wavefront " and no number: the message must not show a byte past it */
    CHECK(LINE(d, "Group 3 wavefront ") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "bad wavefront ''") == 0);
    CHECK(LINE(d, "  s_mov_b32 s0, 0   // 00000000: BE800080") == 0);
    CHECK(LINE(d, "wf12") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "bad wavefront 'wf12'") == 0);
    CHECK(LINE(d, "t0: V") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "bad register 'V'") == 0);
    CHECK(LINE(d, "  v_mov_b32 v[1:2   // 00000004: 7E020280") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "bad register range 'v[1:2 '") == 0);
    rft_dec_free(d);
}

static void nvbit_lines(void)
{
    rft_dec *d = decoder(RFT_FMT_NVBIT, 32, NULL);
    /* an all-blank line with nothing after it */
    CHECK(LINE(d, "   ") == 0);
    CHECK(LINE(d, "\t") == 0);
    /* a kernel name with NUL bytes; one longer than RFT_MAX_STR */
    CHECK(LINE(d, "Kernel a\0b - grid size 1,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - "
                  "cuda stream id 0") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "kernel name contains a NUL byte") == 0);
    const char *tail = " - grid size 1,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0";
    size_t nl = RFT_MAX_STR + 1, n = 7 + nl + strlen(tail);
    char *s = malloc(n);
    CHECK(s);
    memcpy(s, "Kernel ", 7);
    memset(s + 7, 'k', nl);
    memcpy(s + 7 + nl, tail, strlen(tail));
    CHECK(rft_dec_line(d, s, n) == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "kernel name longer than 4095 bytes") == 0);
    CHECK(d->nk == 0);
    /* at the limit it is whole */
    memmove(s + 7 + nl - 1, s + 7 + nl, strlen(tail));
    CHECK(rft_dec_line(d, s, n - 1) == 0);
    CHECK(d->nk == 1 && strlen(d->knames[0]) == RFT_MAX_STR);
    free(s);
    rft_dec_free(d);
}

static void columns_rows(void)
{
    rft_dec *d = decoder(RFT_FMT_COLUMNS, 4, NULL);
    CHECK(LINE(d, "kind,cycle,cu,simd,wf,vreg,kernel,v0,v1,v2,v3") == 0);
    CHECK(LINE(d, "B,0,0,0,0,0,k,,,,") == 0);
    /* a blank or NUL kind is refused, not dropped */
    CHECK(LINE(d, "\" \",1,0,0,0,0,k,1,2,3,4") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "unknown kind ' '") == 0);
    CHECK(LINE(d, "\0,1,0,0,0,0,k,1,2,3,4") == RFT_EFORMAT);
    CHECK(strncmp(rft_dec_why(d), "unknown kind '", 14) == 0);
    /* a kernel cell holding a NUL byte */
    CHECK(LINE(d, "B,2,0,0,1,0,a\0b,,,,") == RFT_EFORMAT);
    CHECK(strcmp(rft_dec_why(d), "kernel name contains a NUL byte") == 0);
    CHECK(d->nk == 1 && d->c[DC_WAVES] == 1);
    rft_dec_free(d);
}

/* every section, or the one named (to see which fails on an older library) */
int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } sections[] = {{"text", text_grammar}, {"m2s", m2s_lines}, {"nvbit", nvbit_lines},
                    {"columns", columns_rows}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (argc < 2 || strcmp(argv[1], sections[i].name) == 0)
            sections[i].run();
    printf("test_hostile: ok\n");
    return 0;
}
