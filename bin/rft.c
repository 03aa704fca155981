/* rft - front end: `rft CMD ARGS` runs rft-CMD found first beside this
 * program, then on PATH (as git runs git-CMD); `rft help` lists commands. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rft.h"

static const char usage[] =
    "rft command [argument ...]\n"
    "rft run [--threads N] [--max-memory MIB] [--shard K/N] pipeline ...\n"
    "rft help [command]\n"
    "rft --help | --version\n"
    "Run rft-command found beside this program, then on PATH; rft help lists the commands\n"
    "\n";
static const char options[] =
    "  -h, --help             Print this help, with the commands, and exit\n"
    "      --version          Print the version and exit\n";

/* one line per command known to this version, the first sentence of its
 * entry in rft(1) COMMANDS (tests/help.bats); others found are listed too */
static const char *const known[][2] = {
    {"run", "Pipelines of stages in one process, records passing in memory"},
    {"decode", "Text or CSV register-write trace (plain or zstd-compressed) to an rft stream"},
    {"view", "rft stream to text, TSV, CSV or JSON lines; its header and statistics"},
    {"synth", "Seeded synthetic GPU kernel workloads, for tests, demonstrations and benchmarks"},
    {"classify", "Register value patterns (RC/DC-Patch, WC), speculation and divergence"},
    {"repeat", "A trace run again and again: copies back to back, cycles shifted"},
    {"alloc", "Place the register window of every wavefront in its slice (first-fit, RAR, ARGO)"},
    {"gate", "Power state of register-file entries from their contents (RC, WC)"},
    {"duty", "Per-cell duty cycles: time at 0, at 1 and switched off"},
    {"split", "A stream cut into the files of its shards in one pass"},
    {"merge", "Add the duty maps and counters of several streams"},
    {"vth", "Duty-cycle summaries, threshold-voltage shift and SNM loss (NBTI)"},
    {"faultmap", "Fault maps of an undervolted register file"},
    {"dcpatch", "DC-Patch: compression-aware patching of a faulty register file"},
    {"energy", "Energy and performance cost of every scheme"},
    {"replay", "Run time replayed from the trace's cycles, other wavefronts hiding latency"},
    {"heal", "PE and SC healing (seed 003): slot and stream-core stress, Vth, cost"},
    {"plot", "TSV tables as figures drawn by gnuplot (SVG, PNG, PDF)"},
    {"batch", "A study over many traces, with make -j here or a Slurm job array"},
    {"collect", "The cross-trace table of a batch: a row per trace and scheme, the mean row"},
};

static const char *self_dir;   /* where this program lives, or "" */

int run_main(int argc, char **argv);    /* bin/run.c */

static int exists_beside(const char *name)
{
    if (strcmp(name, "run") == 0)   /* built in */
        return 1;
    char *p = xasprintf("%s/rft-%s", self_dir, name);
    int yes = self_dir[0] && access(p, X_OK) == 0;
    free(p);
    return yes;
}

/* rft --help and rft help: the usage, the options, then the commands */
static int list(void)
{
    fputs(usage, stdout);
    fputs(options, stdout);
    printf("\nCommands:\n");
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (exists_beside(known[i][0]))
            printf("  %-10s %s\n", known[i][0], known[i][1]);
    /* commands beside us that this table does not know */
    DIR *d = self_dir[0] ? opendir(self_dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "rft-", 4) != 0 || strchr(e->d_name, '.'))
            continue;
        int found = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            found |= strcmp(e->d_name + 4, known[i][0]) == 0;
        if (!found && exists_beside(e->d_name + 4))
            printf("  %-10s\n", e->d_name + 4);
    }
    if (d)
        closedir(d);
    printf("\nSee 'man rft-<command>' or 'rft <command> --help'.\n");
    return cli_close_stdout();
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list-options") == 0) {   /* tests/help.bats */
        fputs("-h\n--help\n--version\n", stdout);
        return cli_close_stdout();
    }
    self_dir = cli_self_dir(argv[0]);
    if (argc == 2 && (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0))
        return list();
    cli_init(argc > 1 ? 2 : argc, argv, usage);
    if (argc < 2)
        usage_error("no command");
    if (strcmp(argv[1], "run") == 0)
        return run_main(argc - 1, argv + 1);
    /* exec rft-CMD with our remaining arguments; rft help CMD = rft-CMD --help */
    const char *cmd = argv[1];
    char *help_args[3] = {NULL, "--help", NULL};
    char **args = argv + 1;
    if (strcmp(cmd, "help") == 0) {
        if (argc != 3)
            usage_error("rft help takes one command at most");
        cmd = argv[2];
        args = help_args;
    }
    if (strchr(cmd, '/') || *cmd == '-')
        usage_error("'%s' is not a command", cmd);
    static char *name, *path;  /* static: still reachable when we die */
    name = xasprintf("rft-%s", cmd);
    args[0] = name;
    if (exists_beside(cmd)) {
        path = xasprintf("%s/%s", self_dir, name);
        execv(path, args);
    } else {
        execvp(name, args);
    }
    if (errno == ENOENT)
        usage_error("'%s' is not an rft command; see 'rft help'", cmd);
    die("%s: %s", name, strerror(errno));
}
