/* rft-repeat - a trace run again and again: N copies of an rft stream back to
 * back, each copy's cycles after the previous copy's last one (lib/repeat.c).
 * It reads its input once per copy (standard input is kept in a temporary
 * file), as the source of a pipeline (bin/pipeline.h). */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "repeat.h"

static const char usage[] =
    "rft-repeat [-n N] [--gap CYCLES] [-o FILE] [--level N] [--flush] [FILE]\n"
    "A trace run again and again: copies of an rft stream back to back\n"
    "\n"
    "  -n, --copies N         The number of copies, 1 to 2^32 - 1 (default 2)\n"
    "      --gap CYCLES       Idle cycles between two copies (default 0)\n"
    CLI_FILTER_HELP;

typedef struct {
    uint64_t copies, gap;
    const char *path;       /* the input, or its spool */
    int spool_fd;
    rft_repeat *rep;
    const rft_sink *out;
} repeat_cli;

/* Open the input for the next copy; messages name what the user gave. */
static void open_copy(cli_job *j, repeat_cli *c)
{
    if (c->spool_fd >= 0 && lseek(c->spool_fd, 0, SEEK_SET) < 0)
        die("%s: %s", j->input, strerror(errno));
    stage_open(c->path);
    stage.input = j->input;
}

/* The first copy's header, with the copies made and their gap. */
static void source_open(cli_job *j, rft_header *h)
{
    repeat_cli *c = j->ctx;
    char meta[64];
    if (strcmp(j->input, "-") == 0 && c->copies > 1)
        c->path = cli_spool_stdin(&c->spool_fd);
    open_copy(j, c);
    if (rft_header_copy(h, rft_reader_header(stage.r)))
        die("out of memory");
    snprintf(meta, sizeof meta, "copies=%llu gap=%llu", (unsigned long long)c->copies,
             (unsigned long long)c->gap);
    cli_header_set(h, "repeat", meta);
    if (!(c->rep = rft_repeat_new(c->copies, c->gap)))
        die("out of memory");
}

static void copy_rec(void *ctx, rft_rec *rec)
{
    repeat_cli *c = ctx;
    if (rft_repeat_feed(c->rep, rec, c->out))
        stage_fail("%s", rft_repeat_why(c->rep));
}

static void source_run(cli_job *j, const rft_sink *out)
{
    repeat_cli *c = j->ctx;
    c->out = out;
    for (uint64_t k = 0; k < c->copies; k++) {
        if (k > 0)
            open_copy(j, c);
        cli_read_each(copy_rec, c);
        if (rft_repeat_next(c->rep))
            stage_fail("%s", rft_repeat_why(c->rep));   /* the reader closed: no record */
    }
    rft_repeat_free(c->rep);
    if (c->spool_fd >= 0)
        close(c->spool_fd);
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        {"copies", required_argument, 0, 'n'}, {"gap", required_argument, 0, 'g'},
        CLI_FILTER_OPTIONS,                    {0, 0, 0, 0}};
    repeat_cli *c = xrealloc(NULL, sizeof *c);  /* one per run */
    *c = (repeat_cli){.copies = 2, .spool_fd = -1};
    int ch;
    while ((ch = cli_getopt(argc, argv, "n:o:", opts)) != -1) {
        switch (ch) {
        case 'n': c->copies = cli_uint("-n", optarg, 1, UINT32_MAX); break;
        case 'g': c->gap = cli_uint("--gap", optarg, 0, UINT64_MAX / 2); break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = c->path = cli_input(argc, argv);
    j->source_open = source_open;
    j->source_run = source_run;
    j->ctx = c;
}

const cli_prog cli_repeat = {"rft-repeat", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_repeat, argc, argv); }
#endif
