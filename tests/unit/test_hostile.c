/* test_hostile.c - the library given hostile input (issue 11): lines passed
 * by length with nothing after them (each copied into an allocation of
 * exactly its length, so that AddressSanitizer, `make check SAN=1`, sees a
 * read past it), NUL bytes where names and record types go, and values too
 * long for the buffers that used to hold them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- parameter files and the energy model (lib/params.c, lib/energy.c) ------------ */
static void energy_params(void)
{
    static char why[RFT_PARAM_WHY];
    rft_params ps;
    rft_eparams e;
    /* the smooth point is derived from conv: with a huge conv energy the
     * note of the derivation used to overflow a 160-byte buffer */
    rft_params_init(&ps);
    CHECK(rft_params_read_file(&ps, "params/seed001-28nm.conf", why, sizeof why) == 0);
    CHECK(rft_params_set(&ps, "slice.conv.read_pj", "1e200", "--set") == 0);
    CHECK(rft_params_set(&ps, "slice.conv.write_pj", "1e300", "--set") == 0);
    CHECK(rft_params_set(&ps, "slice.conv.static_mw", "1e300", "--set") == 0);
    CHECK(rft_eparams_load(&e, &ps, why, sizeof why) == 0);
    int sm = rft_eparams_point(&e, "smooth");
    CHECK(sm >= 0 && e.pt[sm].derived == 7);
    char want[1200];
    snprintf(want, sizeof want, "read %.2f pJ, write %.2f pJ, static %.2f mW, from conv",
             e.pt[sm].read_pj, e.pt[sm].write_pj, e.pt[sm].static_mw);
    CHECK(strlen(want) > 3 * 200);
    int found = 0;
    for (int i = 0; i < e.nnotes; i++)
        found |= strstr(e.note[i], want) != NULL;
    CHECK(found);
    rft_params_free(&ps);
    /* a message quotes a long file name whole */
    char name[PATH_MAX];
    memset(name, 'd', sizeof name - 1);
    name[sizeof name - 1] = 0;
    name[sizeof name - 6] = '/';
    rft_params_init(&ps);
    const char *bad = "model = gating\nclock_mhz = x\n";
    CHECK(rft_params_parse(&ps, name, bad, strlen(bad), why, sizeof why) == 0);
    CHECK(rft_eparams_load(&e, &ps, why, sizeof why) == RFT_EFORMAT);
    CHECK(strncmp(why, name, strlen(name)) == 0);
    CHECK(strcmp(why + strlen(name), ": line 2: clock_mhz: 'x' is not a number") == 0);
    rft_params_free(&ps);
    /* a name, key or value over its limit is refused, naming the limit */
    char big[RFT_PARAM_VAL_MAX + 32];
    rft_params_init(&ps);
    snprintf(big, sizeof big, "note.a = %0*d\n", RFT_PARAM_VAL_MAX + 1, 0);
    CHECK(rft_params_parse(&ps, "t.conf", big, strlen(big), why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "t.conf: line 1: note.a: value longer than 1024 bytes") == 0);
    snprintf(big, sizeof big, "%0*d = 1\n", RFT_PARAM_KEY_MAX + 1, 0);
    CHECK(rft_params_parse(&ps, "t.conf", big, strlen(big), why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "t.conf: line 1: key longer than 128 bytes") == 0);
    char longname[PATH_MAX + 1];
    memset(longname, 'n', PATH_MAX);
    longname[PATH_MAX] = 0;
    CHECK(rft_params_parse(&ps, longname, "a = 1\n", 6, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "parameter file name longer than 4095 bytes") == 0);
    rft_params_free(&ps);
    /* more note.* keys than the notes hold: refused, not dropped */
    rft_params_init(&ps);
    CHECK(rft_params_read_file(&ps, "params/seed002-32nm.conf", why, sizeof why) == 0);
    for (int i = 0; i < RFT_ENOTE_KEYS; i++) {
        char k[32];
        snprintf(k, sizeof k, "note.extra%d", i);
        CHECK(rft_params_set(&ps, k, "a note", "--set") == 0);
    }
    CHECK(rft_eparams_load(&e, &ps, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "--set: more than 8 note.* keys") == 0);
    rft_params_free(&ps);
}

/* ---- fault maps (lib/faultmap.c) ------------------------------------------------------ */
static void faultmap_cells(void)
{
    char why[RFT_FM_WHY];
    rft_fmset set;
    rft_fmset_init(&set);
    /* 31 zeros then x: not cut to 31 zeros, which read as 0 */
    const char *csv = "entry,block,bits\n0,0,0000000000000000000000000000000x\n";
    CHECK(rft_faultmap_csv_parse(csv, strlen(csv), "m.csv", 1, 1, &set, why, sizeof why) ==
          RFT_EFORMAT);
    CHECK(strcmp(why, "m.csv: line 2: bits '0000000000000000000000000000000...' (32 bytes) is "
                      "not a number") == 0);
    CHECK(set.n == 0);
    /* a long file name makes a whole origin ("csv:NAME"), up to the limit */
    char name[RFT_FM_NAME_MAX + 2];
    memset(name, 'f', sizeof name - 1);
    name[sizeof name - 1] = 0;
    csv = "entry,block,bits\n0,0,3\n";
    CHECK(rft_faultmap_csv_parse(csv, strlen(csv), name, 1, 1, &set, why, sizeof why) ==
          RFT_EFORMAT);
    CHECK(strcmp(why, "fault-map file name longer than 4091 bytes") == 0);
    name[RFT_FM_NAME_MAX] = 0;
    CHECK(rft_faultmap_csv_parse(csv, strlen(csv), name, 1, 1, &set, why, sizeof why) == 0);
    CHECK(set.n == 1 && strncmp(set.maps[0].origin, "csv:", 4) == 0 &&
          strcmp(set.maps[0].origin + 4, name) == 0);
    /* and it comes back whole from a record */
    size_t n = rft_faultmap_record_len(&set.maps[0]);
    uint8_t *rec = malloc(n);
    CHECK(rec);
    rft_faultmap_encode(&set.maps[0], rec);
    rft_faultmap d;
    CHECK(rft_faultmap_decode(rec, (uint32_t)n, &d, why, sizeof why) == 0);
    CHECK(strcmp(d.origin, set.maps[0].origin) == 0 && d.bits[0] == 3);
    rft_faultmap_free(&d);
    rec[RFT_FM_FIXED + 1] = 0;  /* a NUL byte in the origin: refused */
    CHECK(rft_faultmap_decode(rec, (uint32_t)n, &d, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "fault map origin of 4095 bytes (at most 4095, and no NUL byte)") == 0);
    free(rec);
    rft_fmset_free(&set);
}

/* ---- strings of the stream (lib/record.c, lib/counters.c) ------------------------------ */
static void stream_strings(void)
{
    /* a kernel scope of any kernel name, two names alike in their first
     * 248 bytes stay apart */
    rft_counters c, back;
    memset(&c, 0, sizeof c);
    snprintf(c.stage, sizeof c.stage, "t");
    memcpy(c.scope, "kernel ", 7);
    memset(c.scope + 7, 'k', RFT_MAX_STR);
    c.scope[7 + RFT_MAX_STR - 1] = '2';
    c.scope[7 + RFT_MAX_STR] = 0;
    CHECK(rft_counters_add(&c, "writes", 5) == 0);
    char path[] = "/tmp/test_hostile.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    rft_header h;
    char producer[200];
    memset(producer, 'p', sizeof producer - 1);
    producer[sizeof producer - 1] = 0;
    rft_header_init(&h, producer);
    char err[320];
    rft_writer *w = rft_writer_open(path, &h, NULL, err, sizeof err);
    CHECK(w);
    CHECK(rft_write_counters(w, &c) == 0);
    CHECK(rft_writer_close(w, 1, err, sizeof err) == 0);
    rft_header_free(&h);
    rft_reader *r = rft_reader_open(path, err, sizeof err);
    CHECK(r);
    CHECK(strcmp(rft_reader_header(r)->producer, producer) == 0);
    rft_rec rec;
    CHECK(rft_read(r, &rec) == 0 && rec.kind == RFT_COUNTERS);
    CHECK(rft_counters_parse(rec.raw, rec.len, &back) == 0);
    CHECK(strcmp(back.scope, c.scope) == 0 && rft_counters_get(&back, "writes") == 5);
    CHECK(rft_read(r, &rec) == RFT_EOF);
    rft_reader_close(r);
    close(fd);
    unlink(path);
}

/* every section, or the one named (to see which fails on an older library) */
int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } sections[] = {{"text", text_grammar}, {"m2s", m2s_lines}, {"nvbit", nvbit_lines},
                    {"columns", columns_rows}, {"energy", energy_params},
                    {"faultmap", faultmap_cells}, {"stream", stream_strings}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (argc < 2 || strcmp(argv[1], sections[i].name) == 0)
            sections[i].run();
    printf("test_hostile: ok\n");
    return 0;
}
