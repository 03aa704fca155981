/* test_bundle.c - the VLIW bundle record (kind 0x06) through the library:
 * written, read back field by field with the mask padding cleared, printed
 * as an A line and parsed back to the same record, with 12 lanes (a mask
 * whose last byte is half padding). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rft.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static const rft_bundle in[] = {
    {.cycle = 4, .cu = 19, .simd = 0, .wf = 7, .slots = RFT_SLOT_X | RFT_SLOT_Z | RFT_SLOT_T,
     .flags = RFT_UF_TRANS, .mask = {0xff, 0xff}},      /* padding bits 12..15 set */
    {.cycle = 8, .cu = 19, .simd = 0, .wf = 7, .slots = RFT_SLOTS_XYZW, .flags = RFT_UF_VECTOR,
     .mask = {0x01, 0x08}},
    {.cycle = 8, .cu = 19, .simd = 0, .wf = 7, .slots = 0, .flags = 0, .mask = {0, 0}},
};
static const char *const text[] = {
    "A\t4\t19\t0\t7\tXZT\tfff\ttrans",
    "A\t8\t19\t0\t7\tXYZW\t801\tvector",
    "A\t8\t19\t0\t7\t-\t000",
};

int main(void)
{
    char path[] = "/tmp/test_bundle.XXXXXX", err[256];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    rft_header h;
    rft_header_init(&h, "test_bundle");
    h.geom.lanes = 12;
    h.geom.block_lanes = 4;
    CHECK(rft_bundle_len(&h.geom) == 20);
    rft_writer *w = rft_writer_open(path, &h, NULL, err, sizeof err);
    CHECK(w);
    rft_wfbegin b = {.cycle = 4, .cu = 19, .wf = 7, .nregs = 4, .wg = RFT_NO_WG,
                     .kernel = RFT_NO_KERNEL};
    CHECK(rft_write_begin(w, &b) == 0);
    for (int i = 0; i < 3; i++)
        CHECK(rft_write_bundle(w, &in[i]) == 0);
    CHECK(rft_writer_close(w, 1, err, sizeof err) == 0);

    rft_reader *r = rft_reader_open(path, err, sizeof err);
    CHECK(r);
    rft_rec rec;
    rft_textdec d;
    CHECK(rft_textdec_init(&d, &h.geom) == 0);
    CHECK(rft_read(r, &rec) == 0 && rec.kind == RFT_WFBEGIN);
    const char *f[] = {"B", "4", "19", "0", "7", "4"};
    size_t fl[] = {1, 1, 2, 1, 1, 1};
    CHECK(rft_textdec_line(&d, 6, f, fl) == 1);
    static char line[RFT_TEXT_MAX];
    for (int i = 0; i < 3; i++) {
        CHECK(rft_read(r, &rec) == 0);
        const rft_bundle *x = &rec.u.bundle;
        CHECK(rec.kind == RFT_BUNDLE && rec.len == 20);
        CHECK(x->cycle == in[i].cycle && x->cu == 19 && x->simd == 0 && x->wf == 7);
        CHECK(x->slots == in[i].slots && x->flags == in[i].flags);
        CHECK(x->mask[0] == in[i].mask[0] && x->mask[1] == (in[i].mask[1] & 0x0f));
        CHECK(rft_rec_cycle(&rec) == in[i].cycle);
        uint16_t cu, simd;
        uint32_t wf;
        CHECK(rft_rec_wf(&rec, &cu, &simd, &wf) && cu == 19 && simd == 0 && wf == 7);
        size_t n = rft_text_format(&h.geom, &rec, NULL, 0, '\t', line);
        line[n] = 0;
        CHECK(strcmp(line, text[i]) == 0);
        /* and back: split at tabs */
        const char *tf[9];
        size_t tl[9];
        int nf = 0;
        for (char *p = line; nf < 9;) {
            char *t = strchr(p, '\t');
            tf[nf] = p;
            tl[nf++] = t ? (size_t)(t - p) : strlen(p);
            if (!t)
                break;
            p = t + 1;
        }
        CHECK(rft_textdec_line(&d, nf, tf, tl) == 1);
        const rft_bundle *y = &d.rec[0].u.bundle;
        CHECK(d.rec[0].kind == RFT_BUNDLE && y->cycle == x->cycle && y->slots == x->slots &&
              y->flags == x->flags && memcmp(y->mask, x->mask, 2) == 0);
    }
    CHECK(rft_read(r, &rec) == RFT_EOF);
    CHECK(strcmp(rft_kind_name(RFT_BUNDLE), "bundle") == 0);
    rft_reader_close(r);
    rft_textdec_free(&d);
    rft_header_free(&h);
    unlink(path);
    printf("test_bundle: ok\n");
    return 0;
}
