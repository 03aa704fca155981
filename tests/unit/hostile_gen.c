/* hostile_gen.c - streams that are well formed record by record but break
 * what a stage relies on (issue 21): the ordering rules of rft(5) (rule 8),
 * an end record that lies about the count (rule 5), and geometries whose
 * per-slice state would take gigabytes.  tests/hostile2.bats runs every
 * case through every stage; tests/hostile4.bats (issue 31) the wavefronts
 * that would take the replay 14 GB and a malformed unit record.
 *
 *   hostile_gen --list          the cases, one a line: NAME CLASS RECORD, a
 *                               tab and what it is (CLASS: order, count,
 *                               geometry, waves, unit, kernel, mask or ok;
 *                               RECORD: the record a stage must name, 0 if
 *                               none)
 *   hostile_gen NAME FILE       write case NAME to FILE
 *   hostile_gen --stages DIR    write every case of a small geometry (not
 *                               those of gigabytes of state) to DIR/NAME.rft:
 *                               the seeds of the stage harnesses
 *                               (tests/fuzz/make-corpus)
 *   hostile_gen                 (make check) write every case and read it
 *                               back with librft's rule-8 reader: each fails
 *                               at its record
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "rft.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* U: a unit record of 3 bytes (malformed); B0, BX: a begin of 0 registers
 * and of one more than the entries; U2: a unit record of both units; W2: a
 * write of both units (issue 31, rft(5)'s sizes and bits) */
enum op { K, B, W, R, A, E, U, B0, BX, U2, W2, X0, DONE };  /* X0: an empty record of kind 0x40 */
typedef struct {
    enum op op;
    uint64_t cycle;
    uint32_t wf;
    uint16_t cu;            /* slice cu:0 (0 unless given) */
} step;

typedef struct {
    const char *name;
    unsigned record;        /* the record a reader must name (1 = first) */
    const char *what;
    step s[8];
    int lie;                /* end record count off by this */
    int geom;               /* 1: the format's largest lanes and entries;
                               2: 65,535 entries on 16,384 slices;
                               3: 12 lanes in blocks of 4, a write's exec
                               mask with bits for lanes 12-15 too;
                               4: 65,535 entries, MANY_WAVES wavefronts of
                               65,535 registers running at once */
    uint32_t kernel;        /* index of the kernel record */
} hostile;

static const hostile cases[] = {
    {"ok", 0, "a stream that keeps every rule (every stage takes it)",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {R, 3, 0, 0}, {W, 4, 0, 0}, {E, 5, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"cycle-back", 4, "a write at an earlier cycle than the write before it",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 5, 0, 0}, {W, 3, 0, 0}, {E, 6, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"begin-back", 3, "a begin at an earlier cycle than the kernel before it",
     {{K, 9, 0, 0}, {B, 10, 0, 0}, {B, 2, 1, 0}, {W, 11, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"write-unbegun", 3, "a write to a wavefront that never began",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 7, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"read-unbegun", 3, "a read of a wavefront that never began",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {R, 2, 9, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"end-before-begin", 2, "a wavefront's end before its begin",
     {{K, 0, 0, 0}, {E, 1, 0, 0}, {B, 2, 0, 0}, {W, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"write-after-end", 5, "a write to a wavefront after its end",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {W, 4, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"begin-twice", 3, "a wavefront begins again before its end",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {B, 2, 0, 0}, {W, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"kernel-back", 5, "a kernel record at an earlier cycle than the end before it",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 6, 0, 0}, {K, 4, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"read-back", 4, "a read at an earlier cycle than the write before it",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 5, 0, 0}, {R, 3, 0, 0}, {E, 6, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"end-back", 5, "a wavefront's end at an earlier cycle than the write before it",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {B, 2, 1, 0}, {W, 5, 0, 0}, {E, 3, 1, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"bundle-back", 4, "a bundle at an earlier cycle than the write before it",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 5, 0, 0}, {A, 3, 0, 0}, {E, 6, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"bundle-unbegun", 3, "a bundle of a wavefront that never began",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {A, 2, 5, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"end-twice", 5, "a wavefront's end after its end",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {E, 4, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"write-other-slice", 3, "a write to a wavefront that began on another slice",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 1}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"count-low", 5, "an end record counting one record less than there are",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, -1, 0, 0},
    {"count-high", 5, "an end record counting one record more than there are",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 1, 0, 0},
    {"geom-max", 0, "1024 lanes and 65535 entries (the format's limits), one write",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 1, 0},
    {"slices-many", 0, "65535 entries on 16384 slices, a write on each",
     {{K, 0, 0, 0}, {DONE, 0, 0, 0}}, 0, 2, 0},
    {"mask-beyond-lanes", 0, "12 lanes; a 1-work-item wavefront's exec mask also sets the bits "
     "of lanes 12-15, which do not exist (a stage counts 1 work-item)",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 3, 0},
    {"waves-many", 0, "65535 entries; 20000 wavefronts of 65535 registers each, all running "
     "(the replay's state: about 14 GB)",
     {{K, 0, 0, 0}, {DONE, 0, 0, 0}}, 0, 4, 0},
    {"unit-malformed", 0, "a unit record of 3 bytes (rft(5): 17), which the replay refuses",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {U, 3, 0, 0}, {E, 4, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"kernel-2^31", 1, "a kernel record of index 2^31 (rft-view looped forever)",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 1u << 31},
    {"begin-0-regs", 2, "a begin record of 0 registers (rft(5): 1 to entries)",
     {{K, 0, 0, 0}, {B0, 1, 0, 0}, {E, 2, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"begin-over-entries", 2, "a begin record of one register more than the entries",
     {{K, 0, 0, 0}, {BX, 1, 0, 0}, {E, 2, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"write-both-units", 3, "a write record of both units, vmem and lds",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W2, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"unit-both", 0, "a unit record of both units (a malformed one: the stages refuse it)",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {U2, 3, 0, 0}, {E, 4, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"unknown-empty", 0, "an empty record of an unknown kind (0x40) among a wavefront's",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {X0, 1, 0, 0}, {W, 2, 0, 0}, {X0, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 0},
    {"kernel-2^24", 1, "a kernel record of index 2^24",
     {{K, 0, 0, 0}, {B, 1, 0, 0}, {W, 2, 0, 0}, {E, 3, 0, 0}, {DONE, 0, 0, 0}}, 0, 0, 1u << 24},
};
#define NCASES (sizeof cases / sizeof cases[0])
#define MANY_SLICES 16384u
#define MANY_WAVES 20000u
static uint16_t begin_nregs = 4;    /* registers of a begin record */

/* What a case breaks: the ordering rules, the count, the geometry, the
 * kernel index, or nothing; mask: well formed, with exec mask bits for
 * lanes beyond the geometry's. */
static const char *class_of(const hostile *c)
{
    for (const step *s = c->s; s->op != DONE; s++)
        if (s->op == U || s->op == U2)
            return "unit";
        else if (s->op == B0 || s->op == BX || s->op == W2)
            return "size";
    return c->lie ? "count" : c->geom == 3 ? "mask" : c->geom == 4 ? "waves" : c->geom ? "geometry"
         : c->kernel ? "kernel" : c->record ? "order" : "ok";
}

static void put(rft_writer *w, rft_rec *r, const rft_geom *g, enum op op, uint64_t cycle,
                uint16_t cu, uint32_t wf, uint32_t kernel)
{
    int e = 0;
    switch (op) {
    case K: {
        rft_kernel k = {cycle, kernel, 0, "k", 1};
        e = rft_write_kernel(w, &k);
        break;
    }
    case B:
    case B0:
    case BX: {
        uint16_t n = op == B ? begin_nregs : op == B0 ? 0 : (uint16_t)(g->entries + 1);
        rft_wfbegin b = {cycle, cu, 0, wf, n, RFT_BF_KERNEL, RFT_NO_WG, kernel};
        e = rft_write_begin(w, &b);
        break;
    }
    case U2: {
        rft_unitrec u = {cycle, cu, 0, wf, RFT_WF_VMEM | RFT_WF_LDS};
        uint8_t b[RFT_UNITREC_LEN];
        rft_unit_encode(b, &u);
        rft_rec x = {.kind = RFT_UNITREC, .raw = b, .len = sizeof b};
        e = rft_write_rec(w, &x);
        break;
    }
    case W:
    case W2: {
        rft_write *x = &r->w;
        memset(x, 0, offsetof(rft_write, val));
        x->cycle = cycle;
        x->cu = cu;
        x->wf = wf;
        x->vreg = 1;
        x->phys = 1;        /* placed (window at 0): rft-gate and rft-duty take it */
        x->on_bits = RFT_NO_GATE;
        memset(x->mask, 0, sizeof x->mask);
        for (uint32_t i = 0; i < g->lanes; i++) {
            x->mask[i / 8] |= (uint8_t)(1u << (i % 8));
            x->val[i] = 100 + i;
        }
        if (op == W2)
            x->flags = RFT_WF_VMEM | RFT_WF_LDS;
        if (g->lanes == 12) {   /* case mask-beyond-lanes: lane 0, and 12-15 */
            x->mask[0] = 0x01;
            x->mask[1] = 0xf0;
        }
        e = rft_write_write(w, x);
        break;
    }
    case R: {
        rft_regread x = {cycle, cu, 0, wf, 1, 1};
        e = rft_write_regread(w, &x);
        break;
    }
    case A: {
        rft_bundle x = {cycle, cu, 0, wf, RFT_SLOT_X, 0, {0}};
        for (uint32_t i = 0; i < g->lanes; i++)
            x.mask[i / 8] |= (uint8_t)(1u << (i % 8));
        e = rft_write_bundle(w, &x);
        break;
    }
    case E: {
        rft_wfend x = {cycle, cu, 0, wf};
        e = rft_write_end(w, &x);
        break;
    }
    case U: {
        static const uint8_t three[3] = {0};
        rft_rec x = {.kind = RFT_UNITREC, .raw = three, .len = 3};
        e = rft_write_rec(w, &x);
        break;
    }
    case X0: {
        rft_rec x = {.kind = 0x40, .raw = NULL, .len = 0};
        e = rft_write_rec(w, &x);
        break;
    }
    case DONE: break;
    }
    CHECK(e == 0);
}

/* The end record's count changed by lie: the stream decompressed, its last
 * 8 content bytes (the count) rewritten, compressed again. */
static void lie_about_count(const char *path, int lie)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    static unsigned char in[1 << 20], out[1 << 20];
    size_t n = fread(in, 1, sizeof in, f);
    fclose(f);
    size_t m = ZSTD_decompress(out, sizeof out, in, n);
    CHECK(!ZSTD_isError(m) && m >= 8);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++)
        c |= (uint64_t)out[m - 8 + i] << (8 * i);
    c += (uint64_t)(int64_t)lie;
    for (int i = 0; i < 8; i++)
        out[m - 8 + i] = (unsigned char)(c >> (8 * i));
    n = ZSTD_compress(in, sizeof in, out, m, 1);
    CHECK(!ZSTD_isError(n));
    CHECK((f = fopen(path, "wb")) && fwrite(in, 1, n, f) == n && fclose(f) == 0);
}

static void write_case(const hostile *c, const char *path)
{
    rft_header h;
    rft_header_init(&h, "hostile_gen");
    if (c->geom == 1) {
        h.geom.lanes = RFT_MAX_LANES;
        h.geom.entries = RFT_MAX_ENTRIES;
    } else if (c->geom == 2 || c->geom == 4) {
        h.geom.entries = RFT_MAX_ENTRIES;
    } else if (c->geom == 3) {
        h.geom.lanes = 12;
        h.geom.block_lanes = 4;
    }
    char err[320];
    rft_writer *w = rft_writer_open(path, &h, NULL, err, sizeof err);
    if (!w) {
        fprintf(stderr, "hostile_gen: %s: %s\n", path, err);
        exit(1);
    }
    rft_rec *r = malloc(sizeof *r);
    CHECK(r);
    uint32_t kernels = 0;   /* a kernel record's index: 0, 1, ... from c->kernel */
    for (const step *s = c->s; s->op != DONE; s++)
        put(w, r, &h.geom, s->op, s->cycle, s->cu, s->wf,
            c->kernel + (s->op == K ? kernels++ : kernels ? kernels - 1 : 0));
    if (c->geom == 2)       /* a begin and a write on slice (cu, 0) of every cu */
        for (uint32_t cu = 0; cu < MANY_SLICES; cu++) {
            put(w, r, &h.geom, B, 1 + 2 * (uint64_t)cu, (uint16_t)cu, 0, 0);
            put(w, r, &h.geom, W, 2 + 2 * (uint64_t)cu, (uint16_t)cu, 0, 0);
        }
    if (c->geom == 4) {     /* MANY_WAVES begins of 65,535 registers, a write each */
        begin_nregs = RFT_MAX_ENTRIES;
        for (uint32_t wf = 0; wf < MANY_WAVES; wf++)
            put(w, r, &h.geom, B, 1 + (uint64_t)wf, 0, wf, 0);
        for (uint32_t wf = 0; wf < MANY_WAVES; wf++)
            put(w, r, &h.geom, W, 1 + MANY_WAVES + (uint64_t)wf, 0, wf, 0);
        begin_nregs = 4;
    }
    CHECK(rft_writer_close(w, 1, err, sizeof err) == 0);
    free(r);
    rft_header_free(&h);
    if (c->lie)
        lie_about_count(path, c->lie);
}

static const hostile *find(const char *name)
{
    for (size_t i = 0; i < NCASES; i++)
        if (strcmp(cases[i].name, name) == 0)
            return &cases[i];
    return NULL;
}

/* make check: every ordering and count case fails in the reader at its
 * record; the geometry cases read whole (they are well formed). */
static int self_check(void)
{
    char path[] = "/tmp/hostile_gen.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    rft_rec *r = malloc(sizeof *r);
    CHECK(r);
    for (size_t i = 0; i < NCASES; i++) {
        const hostile *c = &cases[i];
        write_case(c, path);
        for (int order = 0; order < 2; order++) {
            char err[320];
            rft_reader *rd = rft_reader_open_flags(path, order ? RFT_READ_ORDER : 0, err, sizeof err);
            CHECK(rd);
            int e;
            while ((e = rft_read(rd, r)) == 0)
                ;
            const char *cls = class_of(c);
            /* the plain reader takes rule 8 on trust; kernel indexes are the stages' */
            if (!strcmp(cls, "count") || !strcmp(cls, "size") || (order && !strcmp(cls, "order"))) {
                char want[32];
                snprintf(want, sizeof want, "record %u: ", c->record);
                if (e != RFT_EFORMAT || strncmp(rft_reader_error(rd), want, strlen(want)) != 0) {
                    fprintf(stderr, "hostile_gen: %s: %s\n", c->name, rft_reader_error(rd));
                    return 1;
                }
            } else {
                CHECK(e == RFT_EOF);
            }
            rft_reader_close(rd);
        }
    }
    free(r);
    unlink(path);
    printf("hostile_gen: %zu cases\n", NCASES);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return self_check();
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < NCASES; i++)
            printf("%s %s %u\t%s\n", cases[i].name, class_of(&cases[i]), cases[i].record, cases[i].what);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--stages") == 0) {
        for (size_t i = 0; i < NCASES; i++) {
            if (cases[i].geom == 2 || cases[i].geom == 4)
                continue;
            char path[4096];
            CHECK(snprintf(path, sizeof path, "%s/%s.rft", argv[2], cases[i].name) < (int)sizeof path);
            write_case(&cases[i], path);
        }
        return 0;
    }
    const hostile *c = argc == 3 ? find(argv[1]) : NULL;
    if (!c) {
        fprintf(stderr, "usage: hostile_gen [--list | --stages DIR | NAME FILE]\n");
        return 2;
    }
    write_case(c, argv[2]);
    return 0;
}
