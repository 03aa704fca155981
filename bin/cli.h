/* cli.h - helpers shared by the rft-* programs (not part of librft: these
 * print and exit, the library never does). */
#ifndef RFT_CLI_H
#define RFT_CLI_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>

#include "rft.h"

extern const char *prog;        /* program name for messages */

/* Call first in main(): sets prog, restores default SIGPIPE (a parent may
 * have ignored it: we must die quietly when our reader goes away), and
 * handles --help/--version when they are argv[1] (prints the usage text). */
void cli_init(int argc, char **argv, const char *usage);

/* --help: print usage and the options every program takes, exit. */
noreturn void cli_help(const char *usage);

/* --quiet, which every program takes (no progress on stderr): removed from
 * argv (before any "--") and noted in cli_quiet; returns the new argc. */
extern int cli_quiet;
int cli_take_quiet(int argc, char **argv);

/* --shard K/N (or --shard=K/N), which every program reading a stream and
 * `rft run` take: only shard K of N of the input is read (rft_reader_shard:
 * the records of the slices whose index is K modulo N, and those of no
 * slice).  cli_take_shard removes it from argv (before any "--"), a usage
 * error if K/N is not a shard, and returns the new argc; cli_shard_n is 0
 * without it.  cli_shard_ok: the program takes it (--help and
 * --list-options show it). */
extern uint32_t cli_shard_k, cli_shard_n;
extern int cli_shard_ok;
/* --shard-by cu|slice (with --shard only): RFT_SHARD_BY_SLICE (the default)
 * or RFT_SHARD_BY_CU, the index of a slice being its CU alone */
extern int cli_shard_by;
int cli_take_shard(int argc, char **argv);
#define CLI_SHARD_HELP                                                                        \
    "      --shard K/N        Read shard K of N of the input only: the records of the slices " \
    "whose index CU x SIMDs + SIMD is K modulo N, and those of no slice (rft(1))\n"          \
    "      --shard-by cu|slice  With --shard: the index of a slice is its CU alone (cu: a "   \
    "compute unit's SIMDs in one shard) or CU x SIMDs + SIMD (slice, the default)\n"
/* A reader open on input: the --shard filter set on it (dies on failure). */
void cli_reader_shard(rft_reader *r, const char *input);

/* "prog: fmt\n" on stderr (stdout flushed first).  die: exit 1. */
void warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* usage error: one line "prog: msg (see prog --help)", exit 2 */
noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* getopt_long(argc, argv, shortopts, longopts, NULL), but a lone hidden
 * --list-options prints every option the program takes, one a line, and
 * exits (tests/help.bats checks --help and the man page name them all). */
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

/* An old spelling of an option, kept for one release after its letter or
 * name was given to another meaning (one meaning per letter across the
 * programs: rft(1), OPTIONS).  spelling: "-s" (its letter in shortopts) or
 * "--format" (in longopts); val: the getopt value of the option it stands
 * for (the long option with that value names it); use: what to write
 * instead ("-S or --seed").  A list ends with a NULL spelling. */
typedef struct cli_old {
    const char *spelling;
    int val;
    const char *use;
} cli_old;
/* cli_getopt, where each spelling of old still works as the option it
 * stands for, with one line on standard error:
 *   "prog: warning: -s for --seed is deprecated, use -S or --seed (rft(1), OPTIONS)".
 * --list-options leaves the old spellings out (--help has no line for
 * them); a lone hidden --list-deprecated prints them, "SPELLING\t--LONG\tUSE"
 * a line (tests/options.bats). */
int cli_getopt_old(int argc, char **argv, const char *shortopts, const struct option *longopts,
                   const cli_old *old);

/* --help: a program's usage text is its synopsis (the man page SYNOPSIS,
 * without fonts), a one-line description, a blank line and its options, one
 * a line; the options every program takes follow it. */
#define CLI_COMMON_HELP                                                                       \
    "      --quiet            No progress on standard error\n"                                \
    "  -h, --help             Print this help and exit\n"                                     \
    "      --version          Print the version and exit\n"
/* the lines of CLI_FILTER_OPTIONS */
#define CLI_FILTER_HELP                                                                       \
    "  -o, --output FILE      Write the stream to FILE (default: standard output)\n"          \
    "      --level N          zstd level of the stream: -99..-1 (fast), 1..22 (default 1)\n"  \
    "      --flush            Flush the stream after every batch of records (live pipelines)\n"

/* getopt_long returned '?' (cli_init sets opterr = 0): a usage error naming
 * the offending argument. */
noreturn void cli_bad_option(char **argv);

/* The one input operand left after the options, or "-" (standard input)
 * when there is none; more than one is a usage error. */
const char *cli_input(int argc, char **argv);

/* --level: a zstd level, -99..-1 (fast) or 1..22; 0 ("zstd's default")
 * is refused as ambiguous.  A usage error otherwise. */
int cli_level(const char *s);

/* The directory this program's file is in (from /proc/self/exe, else
 * argv0), or "" when unknown: to find what is installed beside it. */
const char *cli_self_dir(const char *argv0);

/* Copy standard input into an unlinked temporary file (in $TMPDIR or /tmp),
 * for programs that read their input more than once; returns a path that
 * reopens it ("/dev/fd/N") and its descriptor in *fd.  Dies on failure. */
const char *cli_spool_stdin(int *fd);

/* realloc or die "out of memory" (a size of 0 is 1). */
void *xrealloc(void *p, size_t n);
/* The formatted text in a new allocation (free it), whatever its length;
 * dies "out of memory". */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The whole file at path in memory (*n bytes, allocated): NULL with errno
 * when it cannot be opened or read, or EFBIG past max bytes (0: no limit). */
char *cli_read_file(const char *path, size_t max, size_t *n);
/* The same of a va_list (not consumed: copied). */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Parse an unsigned decimal (or 0x hex) number in [lo, hi] for option opt;
 * a usage error otherwise. */
uint64_t cli_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi);
/* A size in bytes: a number, or one followed by K, M, G or T (KiB ... TiB). */
uint64_t cli_bytes(const char *opt, const char *s);
int64_t cli_int(const char *opt, const char *s, int64_t lo, int64_t hi);
double cli_double(const char *opt, const char *s, double lo, double hi);

/* Output format for tables: human (aligned), tsv, csv, json (JSON lines). */
enum cli_fmt { FMT_TABLE, FMT_TSV, FMT_CSV, FMT_JSON };
enum cli_fmt cli_format(const char *s);

/* A slice "CU:SIMD" for option opt, each number at most max; a usage error
 * "OPT: 'S' is not FORM" otherwise (FORM: what the option accepts). */
void cli_slice(const char *opt, const char *s, unsigned max, const char *form, uint16_t *cu,
               uint16_t *simd);

/* The index of arg among choices ("a|b|c"), or a usage error
 * "OPT: 'ARG' is not one of a, b, c". */
int cli_choice(const char *opt, const char *arg, const char *choices);

/* A finite number filling the whole string s (strtod's grammar): 1 and *v. */
int cli_number(const char *s, double *v);

/* A table of tab-separated text: lines starting with # and blank lines are
 * skipped, the first other line is the header, every later one a row of as
 * many cells, each trimmed of spaces (a trailing CR dropped).  Dies with
 * "NAME: line N: what" on a bad table, an empty one or one without rows. */
typedef struct cli_tsv {
    char **col;                 /* header cells */
    size_t ncols, nrows;
    char **cell;                /* nrows x ncols */
    char **lines;               /* the buffers the cells point into */
    size_t nlines;
    char **note;                /* the # lines before the header, without "# " */
    size_t nnotes;
} cli_tsv;
void cli_tsv_read(const char *path, const char *name, cli_tsv *t);
static inline const char *cli_tsv_at(const cli_tsv *t, size_t row, size_t col)
{
    return t->cell[row * t->ncols + col];
}
void cli_tsv_free(cli_tsv *t);

/* s as a JSON string, quoted and escaped, to out. */
void cli_json_str(FILE *out, const char *s);

/* -o FILE for a text output: written under a temporary name beside FILE and
 * renamed to FILE by cli_output_close (removed at exit or on a signal if it
 * never is); a
 * device such as /dev/full is written directly; NULL or "-" is stdout.  One
 * output at a time.  Both die on failure; close returns the exit status. */
FILE *cli_output_open(const char *output);
int cli_output_close(FILE *o);

/* -o FILE for a program that prints on standard output: standard output
 * becomes FILE's temporary (cli_output_open), renamed to FILE by
 * cli_close_stdout when all went well.  NULL or "-": standard output. */
void cli_stdout_to(const char *output);

/* Flush and close stdout; a failure (e.g. /dev/full) is an error: exit 1.
 * EPIPE dies quietly by SIGPIPE.  Call before returning from main(). */
int cli_close_stdout(void);

/* Die quietly if err is RFT_EPIPE (reader of our output went away). */
void cli_epipe(int err);

extern const char *cli_usage_text;

/* The one input and one output stream of a stage.  Every failure path
 * closes the output without its end record, so no later stage takes a
 * partial stream as complete. */
typedef struct cli_stage {
    const char *input, *output;     /* as given: "-" for stdin/stdout */
    rft_reader *r;
    rft_writer *w;
    int read_flags;                 /* for rft_reader_open_flags: RFT_IN_AHEAD */
} cli_stage;
extern cli_stage stage;

/* -o/--output, --level, --flush: the output options every filter takes, for
 * its getopt_long table, and their handling: 1 if c was one of them. */
#define CLI_FILTER_OPTIONS                                                                \
    {"output", required_argument, 0, 'o'}, {"level", required_argument, 0, 'l'},        \
        {"flush", no_argument, 0, 'F'}
int cli_filter_option(int c, const char **output, rft_writer_opts *wo);

/* --max-memory MIB, of the stages whose state grows with the slices or
 * the wavefronts (rft-alloc, rft-gate, rft-duty, rft-dcpatch, rft-energy
 * --scan, rft-replay, rft-heal): the process's budget (rft_mem_limit,
 * rft.h) in MiB, 0 for none; in rft run a stage's own limit besides. */
#define CLI_MEMORY_OPT 0x4d4d   /* no letter: getopt_long's value */
#define CLI_MEMORY_OPTION {"max-memory", required_argument, 0, CLI_MEMORY_OPT}
/* The bytes of a --max-memory MIB (a usage error if not a number). */
uint64_t cli_max_memory(const char *s);
#define CLI_MEMORY_HELP                                                                         \
    "      --max-memory MIB   Refuse a stream whose slices' or wavefronts' state would pass " \
    "MIB MiB, before allocating it (default 2048; 0: no limit)\n"

/* Called before a failing stage exits (bin/pipeline.c: every stream of
 * the pipeline left without its end record). */
extern void (*cli_abandon_hook)(void);

/* Open the input stream (die with "INPUT: why" on failure). */
rft_reader *stage_open(const char *input);
/* A stream is never written to a terminal (as zstd refuses): dies if
 * output (NULL or "-": standard output) is one. */
void cli_no_terminal(const char *output);
/* Set metadata key=val in h, or die naming the limit that refuses it (a
 * value longer than RFT_MAX_STR, more than RFT_MAX_META keys). */
void cli_header_set(rft_header *h, const char *key, const char *val);
/* Bad data: "INPUT: record N: what" (N = the record just read), exit 1. */
noreturn void stage_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* After the read loop: e must be RFT_EOF, else the reader's message. */
void stage_read_end(int e);
/* A secondary output of the stage (--summary, --events, --log; "-" is
 * standard output), opened before the work so that a path that cannot be
 * written fails before any of the stream is (dies on failure). */
FILE *side_open(const char *path);
/* Flush and close it (standard output: flush only).  Call before
 * the end record: on failure the stream is abandoned without its end record
 * (an -o file is left as it was) and the program dies.  A file is written
 * under a temporary name (as -o), renamed by cli_side_commit. */
void side_close(FILE *f, const char *path);
/* After every stream of the run is complete: each side output closed by
 * side_close renamed to its name.  A run that fails before, or a signal,
 * leaves the files of an earlier run as they were. */
void cli_side_commit(void);

/* rft_writer_open and rft_writer_close, the writer's temporary -o name
 * removed if the program dies by INT, TERM, HUP or PIPE (cli_output_open's
 * and side_open's too). */
rft_writer *cli_writer_open(const char *path, const rft_header *h, const rft_writer_opts *o,
                            char *err, size_t errlen);
int cli_writer_close(rft_writer *w, int complete, char *err, size_t errlen);

/* Tables for people and scripts.  Cells are added left to right; numeric
 * cells stay unquoted in JSON.  FMT_TABLE buffers rows to align columns,
 * the others stream.  table_free prints what is buffered. */
typedef struct cli_table cli_table;
cli_table *table_new(enum cli_fmt f, FILE *out, int ncols, const char *const *names);
void table_str(cli_table *t, const char *s);
void table_u64(cli_table *t, uint64_t v);
void table_i64(cli_table *t, int64_t v);
void table_dbl(cli_table *t, double v, int decimals);
/* n of whole as a percentage (2 decimals, 0 when whole is 0), or with
 * counts (--counts) n itself. */
void table_share(cli_table *t, int counts, uint64_t n, double whole);
/* Column names for --counts: a copy of names[0..n) with each final '%'
 * dropped ("avg_0%" -> "avg_0"); free with free(). */
const char **table_count_names(int n, const char *const *names);
/* A number already printed (s as strtod reads it): unquoted in JSON, where
 * nan and inf become null and a form JSON has not (0x10, .5) a string. */
void table_num(cli_table *t, const char *s);
/* A cell without a value: empty, null in JSON. */
void table_none(cli_table *t);
void table_end_row(cli_table *t);
void table_free(cli_table *t);
/* A note on what the table assumed (issue 22; each text once), given before
 * its first cell: "# " lines before the header in TSV and CSV (as samtools
 * stats), a first object {"notes": [...]} in JSON lines, lines under the
 * table for people after a blank line. */
void table_note(cli_table *t, const char *text);
void table_notef(cli_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Notes as a table says them in format fmt (table_note), to o. */
void cli_notes_print(FILE *o, enum cli_fmt fmt, const char *const *note, size_t n);

/* The NBTI constants: those in p, or all from the parameter file path (if
 * not NULL), with the --set pairs of set on top; dies with the message (a
 * usage error when a --set is at fault). */
#include "nbti.h"
void cli_nbti_params(rft_nbti *p, const char *path, rft_params *set);
/* The origin of parameters given by --set KEY=VALUE. */
#define CLI_SET_ORIGIN "--set"
/* A parameter problem why (a params.h message, which starts with the
 * origin): a usage error when the origin is --set, else exit 1. */
noreturn void cli_params_fail(const char *why);

/* A copy of s, or die "out of memory". */
char *xstrdup(const char *s);
/* A source that reads rft streams (rft-repeat, rft-merge): every record of
 * the stream open in stage.r to fn, which dies on bad data (stage_fail
 * names the record); a read error ends the run (stage_read_end), and the
 * reader is closed. */
void cli_read_each(void (*fn)(void *ctx, rft_rec *rec), void *ctx);

#endif
