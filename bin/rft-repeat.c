/* rft-repeat - a trace run again and again: N copies of an rft stream back to
 * back, each copy's cycles after the previous copy's last one.  The seeds
 * report lifetimes over kernels run many times, while a simulator trace is
 * one short run: window reassignments (RAR, ARGO) and the weight of ramp-up
 * and drain depend on how often the kernel runs. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "dcpatch.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-repeat [-n N] [--gap CYCLES] [-o FILE] [--level N] [--flush] [FILE]\n"
    "Write N copies of a trace stream (rft(5)) back to back, each copy's cycles\n"
    "shifted past the end of the one before.\n";

static struct {
    const char *input, *path, *output;  /* path: input, or its spool */
    uint64_t copies, gap;
    rft_writer_opts wo;
    int spool_fd;
} g = {.input = "-", .copies = 2, .spool_fd = -1};

typedef struct {
    int any;
    uint64_t first, last;   /* cycles of the stream */
    uint32_t kernels;       /* kernel indexes seen: highest + 1 */
} extent;

/* The cycle a record happens at, if it has one. */
static int cycle_of(const rft_rec *r, uint64_t *c)
{
    rft_alloc_rec a;
    rft_patch_rec p;
    switch (r->kind) {
    case RFT_KERNEL: case RFT_WFBEGIN: case RFT_WFEND: case RFT_WRITE: case RFT_READ:
    case RFT_BUNDLE:
        *c = rft_rec_cycle(r);
        return 1;
    case RFT_ALLOC:
        if (rft_alloc_parse(r->raw, r->len, &a))
            stage_fail("malformed allocation record");
        *c = a.cycle;
        return 1;
    case RFT_PATCH:
        if (rft_patch_parse(r->raw, r->len, &p))
            stage_fail("malformed patch record");
        *c = p.cycle;
        return 1;
    default:
        return 0;
    }
}

/* Copy k of the input: cycles + shift, kernel indexes + koff.  The first
 * copy opens the output and measures the input's extent. */
static void copy(uint64_t k, uint64_t shift, uint32_t koff, extent *x)
{
    if (g.spool_fd >= 0 && lseek(g.spool_fd, 0, SEEK_SET) < 0)
        die("%s: %s", g.input, strerror(errno));
    rft_reader *r = stage_open(g.path);
    stage.input = g.input;  /* messages name what the user gave, not the spool */
    if (k == 0) {
        char meta[64];
        snprintf(meta, sizeof meta, "copies=%llu gap=%llu", (unsigned long long)g.copies,
                 (unsigned long long)g.gap);
        stage_output_as(g.output ? g.output : "-", "repeat", meta, &g.wo, NULL);
    }
    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    int e;
    uint64_t c;
    while ((e = rft_read(r, rec)) == 0) {
        if (rec->kind == RFT_DUTY)
            stage_fail("a duty map: repeat the trace, then compute its map");
        if (rec->kind == RFT_FAULTMAP && k > 0)
            continue;           /* the hardware, not an event: once */
        if (cycle_of(rec, &c)) {
            if (k == 0) {
                if (!x->any || c < x->first)
                    x->first = c;
                if (!x->any || c > x->last)
                    x->last = c;
                x->any = 1;
            } else if (!x->any || c < x->first || c > x->last) {
                stage_fail("cycle %llu: the input changed between two readings",
                           (unsigned long long)c);
            }
        }
        switch (rec->kind) {
        case RFT_KERNEL:
            if (k == 0 && rec->u.kernel.index >= x->kernels)
                x->kernels = rec->u.kernel.index + 1;
            if (rec->u.kernel.index >= x->kernels)
                stage_fail("kernel %u: the input changed between two readings",
                           rec->u.kernel.index);
            rec->u.kernel.index += koff;
            rec->u.kernel.cycle += shift;
            break;
        case RFT_WFBEGIN:
            if (rec->u.begin.kernel != RFT_NO_KERNEL)
                rec->u.begin.kernel += koff;
            rec->u.begin.cycle += shift;
            break;
        case RFT_WFEND: rec->u.end.cycle += shift; break;
        case RFT_WRITE: rec->w.cycle += shift; break;
        case RFT_READ: rec->u.read.cycle += shift; break;
        case RFT_BUNDLE: rec->u.bundle.cycle += shift; break;
        case RFT_ALLOC: {
            rft_alloc_rec a;
            rft_alloc_parse(rec->raw, rec->len, &a);
            a.cycle += shift;
            stage_put(rft_write_alloc(stage.w, &a));
            continue;
        }
        case RFT_PATCH: {
            rft_patch_rec p;
            rft_patch_parse(rec->raw, rec->len, &p);
            p.cycle += shift;
            stage_put(rft_write_patch(stage.w, &p));
            continue;
        }
        }
        stage_put(rft_write_rec(stage.w, rec));
    }
    stage_read_end(e);
    free(rec);
    rft_reader_close(r);
    stage.r = NULL;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"copies", required_argument, 0, 'n'}, {"gap", required_argument, 0, 'g'},
        CLI_FILTER_OPTIONS,                    {0, 0, 0, 0}};
    int c;
    cli_init(argc, argv, usage);
    g.wo.level = RFT_DEFAULT_LEVEL;
    while ((c = getopt_long(argc, argv, "n:o:", opts, NULL)) != -1) {
        switch (c) {
        case 'n': g.copies = cli_uint("-n", optarg, 1, UINT32_MAX); break;
        case 'g': g.gap = cli_uint("--gap", optarg, 0, UINT64_MAX / 2); break;
        default:
            if (!cli_filter_option(c, &g.output, &g.wo))
                cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    g.path = g.input;
    if (strcmp(g.input, "-") == 0 && g.copies > 1)
        g.path = cli_spool_stdin(&g.spool_fd);

    /* the first copy as it is read; its extent sets the others' shift */
    extent x = {0};
    copy(0, 0, 0, &x);
    /* copy k + 1 starts the cycle after copy k ends, plus the gap */
    uint64_t span = x.any ? x.last - x.first : 0, period = span + 1 + g.gap;
    if (x.any && (span == UINT64_MAX || period < span ||
                  (g.copies - 1) > (UINT64_MAX - x.last) / period))
        die("%s: %llu copies of %llu cycles after cycle %llu pass 2^64", g.input,
            (unsigned long long)g.copies, (unsigned long long)span + 1,
            (unsigned long long)x.first);
    if ((uint64_t)x.kernels * g.copies > RFT_NO_KERNEL)
        die("%s: %llu copies of %u kernels are too many kernel indexes", g.input,
            (unsigned long long)g.copies, x.kernels);
    for (uint64_t k = 1; k < g.copies; k++)
        copy(k, k * period, (uint32_t)(k * x.kernels), &x);
    stage_close();
    if (g.spool_fd >= 0)
        close(g.spool_fd);
    return cli_close_stdout();
}
