# rftrace - build, test, install.  `make demo` and `make check` are the two
# entry points; both install missing Debian packages when run as root.
PREFIX ?= /usr/local
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
ifeq ($(SAN),1)
CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
LDLIBS = -lzstd -lcsv -lm -pthread

LIB_SRC = $(wildcard lib/*.c)
LIB_OBJ = $(LIB_SRC:.c=.o)
PROG_SRC = $(wildcard bin/rft-*.c) bin/rft.c
PROGS = $(PROG_SRC:.c=)
# programs written in sh: bin/rft-NAME.sh installed as rft-NAME
# programs written in shell: bin/sh/rft-NAME.sh, copied to bin/rft-NAME
PROG_SCRIPTS = $(patsubst bin/sh/%.sh,bin/%,$(wildcard bin/sh/rft-*.sh))
UNIT_SRC = $(wildcard tests/unit/*.c)
UNITS = $(UNIT_SRC:.c=)
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
PARAMS = $(wildcard params/*.conf)
SCRIPTS = $(wildcard examples/*.sh)
# installed headers: the stream API and the stage modules a simulator embeds
# (with what they include)
HEADERS = lib/rft.h lib/gate.h lib/pattern.h lib/duty.h lib/alloc.h lib/occupancy.h \
	lib/classify.h lib/dcpatch.h lib/faultmap.h lib/escan.h lib/synth.h

# Where install puts things.  bin/ and share/ stay under PREFIX: rft-energy
# finds its parameters in bin/../share/rftrace/params.
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
MANDIR = $(PREFIX)/share/man
RFTDATA = $(PREFIX)/share/rftrace
# rft.pc keeps ${prefix} in its paths where it can (pkg-config --define-prefix)
PC_LIBDIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
PC_INCLUDEDIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))

VERSION := $(shell sed -n 's/^\#define RFT_VERSION "\(.*\)"/\1/p' lib/rft.h)
SONAME := librft.so.$(shell sed -n 's/^\#define RFT_FORMAT_MAJOR \([0-9]*\).*/\1/p' lib/rft.h)
SHLIB = lib/librft.so.$(VERSION)
PIC_OBJ = $(LIB_SRC:lib/%.c=lib/pic/%.o)

DEB_PKGS = libzstd-dev libcsv-dev zstd bats bats-assert bats-support python3
# tests/embed.bats: a C and a C++ program built through pkg-config; the Python
# reader with and without python3-zstandard and NumPy (both optional to users)
DEB_PKGS += pkg-config g++ python3-zstandard python3-numpy
# rft-plot renders its figures through gnuplot (no X11 needed)
DEB_PKGS += gnuplot-nox
# tests/help.bats: every man page lint-clean (mandoc -T lint)
DEB_PKGS += mandoc
# bench/traces (tests/bench.bats): rft-duty's peak memory through /usr/bin/time,
# its table aligned by column (bsdextrautils): neither is in a minimal Debian 12
DEB_PKGS += time bsdextrautils
# tests/batch2.bats, hostile.bats: ps and pgrep find a batch's stages (procps is
# not in a minimal Debian 12)
DEB_PKGS += procps
# named after the package list, so that a package added later is installed too
DEPS_STAMP = .deps-ok-$(shell echo '$(DEB_PKGS)' | cksum | cut -d' ' -f1)

.PHONY: all programs check check-quick check-slurm demo install uninstall clean deps bench bench-deps bench-traces bench-study bench-compare fuzz \
	static bench-scaling \
	fuzz-build fuzz-replay fuzz-check fuzz-deps valgrind valgrind-deps check-deps
all: $(DEPS_STAMP) $(PROGS) $(PROG_SCRIPTS) $(UNITS) $(SHLIB) examples/gate-inline
# the programs alone (tests/longpath.bats builds no more)
programs: $(DEPS_STAMP) $(PROGS) $(PROG_SCRIPTS)

# $(call deb_install,PACKAGES): install the missing Debian 12 packages as
# root, or say exactly what to run and fail.
define deb_install
missing=""; for p in $(1); do \
  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ]; then \
    echo "installing:$$missing"; \
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) || exit 1; \
  else echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; fi; \
fi
endef

# Install what the build needs, or say exactly what to run.
$(DEPS_STAMP):
	@$(call deb_install,$(DEB_PKGS)); rm -f .deps-ok*; touch $@
deps: $(DEPS_STAMP)

# Rebuild everything when the flags change (e.g. `make check SAN=1` after a
# plain build), so a sanitizer run never links stale objects.
FLAGS_STAMP = .flags-$(shell echo '$(CC) $(CFLAGS) $(LDFLAGS)' | cksum | cut -d' ' -f1)
$(FLAGS_STAMP):
	@rm -f .flags-*; touch $@

lib/%.o: lib/%.c lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	$(CC) $(WARN) $(CFLAGS) -c -o $@ $<
lib/librft.a: $(LIB_OBJ)
	$(AR) rcs $@ $^
# The shared library, from its own position-independent objects (the static
# library and the programs stay as they are); its soname follows the format's
# major version, its file name the release.
lib/pic/%.o: lib/%.c lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	@mkdir -p lib/pic
	$(CC) $(WARN) $(CFLAGS) -fPIC -c -o $@ $<
$(SHLIB): $(PIC_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $@ $^ $(LDFLAGS) $(LDLIBS)
# helpers of the programs: bin/cli.o and bin/table.o for all, others where named below
bin/%.o: bin/%.c bin/*.h lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	$(CC) $(WARN) $(CFLAGS) -Ilib -c -o $@ $<
bin/rft-faultmap bin/rft-dcpatch: bin/fmsource.o
bin/rft-decode: bin/decinput.o bin/m2sfile.o
bin/rft-alloc: bin/occreport.o bin/notes.o
bin/rft-classify: bin/clsreport.o bin/notes.o
bin/rft-gate bin/rft-duty: bin/notes.o
# rft run (bin/run.c) links every stage program, built without its main(),
# and the helpers of those programs
RUN_STAGES := $(shell sed -n 's/^ *X(\([a-z]*\)).*/\1/p' bin/run.c)
RUN_HELPERS = bin/decinput.o bin/fmsource.o bin/occreport.o bin/clsreport.o bin/fmprint.o bin/dcpreport.o bin/pricing.o bin/replaycols.o bin/notes.o bin/m2sfile.o
bin/%.run.o: bin/%.c bin/*.h lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	$(CC) $(WARN) $(CFLAGS) -DCLI_NO_MAIN -Ilib -c -o $@ $<
bin/rft: bin/run.o $(RUN_STAGES:%=bin/rft-%.run.o) $(RUN_HELPERS)
bin/rft-faultmap: bin/fmprint.o bin/notes.o
bin/rft-dcpatch: bin/dcpreport.o bin/replaycols.o bin/notes.o
bin/rft-replay: bin/replaycols.o bin/notes.o bin/m2sfile.o
bin/rft-collect: bin/crosstab.o bin/batch_folder.o bin/notes.o
bin/rft-plot: bin/figure.o
bin/rft-energy: bin/pricing.o bin/notes.o
bin/rft-vth: bin/vth_report.o bin/notes.o
bin/rft-heal: bin/heal_report.o bin/heal_trace.o bin/heal_resting.o bin/replaycols.o bin/notes.o
bin/%: bin/%.c bin/cli.o bin/table.o bin/pipeline.o lib/librft.a lib/*.h bin/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< $(filter bin/%.o,$^) lib/librft.a $(LDFLAGS) $(LDLIBS)
# a script's '# @include FILE' lines replaced by bin/sh/FILE, whole
# (rft-batch's parts, bin/sh/batch/): one file is installed
SH_PARTS = $(wildcard bin/sh/batch/*.sh)
SH_INCLUDE = awk '/^\# @include / { f = "bin/sh/" $$3; n = 0; \
	  while ((r = (getline l < f)) > 0) { print l; n++ } \
	  if (r < 0 || !n) { print FILENAME ": " f ": cannot include it" > "/dev/stderr"; exit 1 } close(f); next } 1'
bin/%: bin/sh/%.sh $(SH_PARTS)
	$(SH_INCLUDE) $< > $@.tmp && chmod 755 $@.tmp && mv $@.tmp $@
# `make static`: every program linked statically (libzstd, libcsv and the C
# library inside), with what they read at run time, in STATIC_DIR laid out
# as an install (bin/, share/rftrace/params, share/man): a folder to copy to
# a machine with none of the build's libraries (bench/scaling runs from it).
# The objects are those of the plain build; only the link differs.
STATIC_DIR ?= static
HELPER_OBJ = $(patsubst %.c,%.o,$(filter-out $(PROG_SRC) bin/run.c,$(wildcard bin/*.c)))
STATIC_PROGS = $(PROGS:bin/%=$(STATIC_DIR)/bin/%) $(PROG_SCRIPTS:bin/%=$(STATIC_DIR)/bin/%)
bin/libhelpers.a: $(HELPER_OBJ)
	$(AR) rcs $@ $^
$(STATIC_DIR)/bin/rft: bin/run.o $(RUN_STAGES:%=bin/rft-%.run.o)
$(STATIC_DIR)/bin/%: bin/%.c bin/libhelpers.a lib/librft.a lib/*.h bin/*.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -Ilib -static -o $@ $< $(filter bin/%.o,$^) bin/libhelpers.a lib/librft.a \
	  $(LDFLAGS) $(LDLIBS)
$(STATIC_DIR)/bin/%: bin/sh/%.sh $(SH_PARTS)
	@mkdir -p $(@D)
	$(SH_INCLUDE) $< > $@.tmp && chmod 755 $@.tmp && mv $@.tmp $@
static: $(DEPS_STAMP) $(STATIC_PROGS)
	install -d $(STATIC_DIR)/share/rftrace/params $(STATIC_DIR)/share/rftrace/examples \
	  $(STATIC_DIR)/share/man/man1 $(STATIC_DIR)/share/man/man5
	install -m 644 $(PARAMS) $(STATIC_DIR)/share/rftrace/params/
	install -m 755 $(SCRIPTS) $(STATIC_DIR)/share/rftrace/examples/
	install -m 644 $(MAN1) $(STATIC_DIR)/share/man/man1/
	install -m 644 $(MAN5) $(STATIC_DIR)/share/man/man5/
	@for p in $(STATIC_PROGS); do case $$p in */rft-batch) ;; *) \
	  if ldd $$p >/dev/null 2>&1; then echo "static: $$p is dynamically linked" >&2; exit 1; fi;; esac; done
	@echo "static: $(words $(STATIC_PROGS)) programs in $(STATIC_DIR)/bin, none linked to a shared library"

# a C example of the library (tests/run.bats runs it)
examples/gate-inline: examples/gate-inline.c lib/librft.a lib/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< lib/librft.a $(LDFLAGS) $(LDLIBS)
tests/unit/%: tests/unit/%.c lib/librft.a lib/*.h tests/unit/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< lib/librft.a $(LDFLAGS) $(LDLIBS)

# ---- fuzzing (tests/fuzz/README) --------------------------------------------------------
# A harness is tests/fuzz/fuzz_NAME.c, or fuzz_dec.c once per decoder named in
# FUZZ_DECODERS (harness dec-NAME); its seeds are in tests/fuzz/corpus/NAME/,
# the crash reproducers found so far in tests/fuzz/regress/NAME/.  Each is
# built twice: with libFuzzer (clang) to fuzz, and with replay.c and any
# $(CC) with sanitizers to replay the corpora where libFuzzer is missing.
FUZZ_DECODERS = m2s gem5 nvbit columns evg cutracer
# the stage families of fuzz_stage.c (harness stage-NAME, FUZZ_STAGE=NAME)
FUZZ_STAGES = alloc classify dcpatch escan replay heal merge
FUZZ_HARNESSES = reader payload text faultmap params m2strace $(addprefix dec-,$(FUZZ_DECODERS)) \
	$(addprefix stage-,$(FUZZ_STAGES))
FUZZ_CC ?= clang
FUZZ_DEB_PKGS = clang libclang-rt-14-dev
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_CHECK_SECONDS ?= 2
# Harnesses whose inputs are cut at FUZZ_SHORT_LEN bytes: their seeds are
# 4-10 KB simulator logs decoded line by line, twice with a pre-scan; cut at
# 4 KiB they run 1.3-1.8 times as many inputs with the same coverage, and
# over 1,000 a second on a core (not dec-nvbit: cut, its 18 KB seed loses
# coverage).  An input's cost is its parsing: what the harness adds (the
# decoders made per input) is 2-3 % of it.
FUZZ_SHORT = dec-m2s dec-evg dec-cutracer
FUZZ_SHORT_LEN ?= 4096
FUZZ_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_DIR = tests/fuzz
FUZZ_OUT = $(FUZZ_DIR)/build
FUZZ_FUZZERS = $(addprefix $(FUZZ_OUT)/fuzz/,$(FUZZ_HARNESSES))
FUZZ_REPLAYS = $(addprefix $(FUZZ_OUT)/replay/,$(FUZZ_HARNESSES))

# $(call fuzz_flavor,NAME,CC,FLAGS,LINK): the library, the helpers and every
# harness built into $(FUZZ_OUT)/NAME/; LINK: what gives the harness a main()
define fuzz_flavor
$(FUZZ_OUT)/$(1)/lib/%.o: lib/%.c lib/*.h
	@mkdir -p $$(@D)
	$(2) $(WARN) $(3) -c -o $$@ $$<
$(FUZZ_OUT)/$(1)/bin/%.o: bin/%.c bin/*.h lib/*.h
	@mkdir -p $$(@D)
	$(2) $(WARN) $(3) -Ilib -c -o $$@ $$<
$(FUZZ_OUT)/$(1)/fuzz/%.o: $(FUZZ_DIR)/%.c $(FUZZ_DIR)/fuzz.h lib/*.h
	@mkdir -p $$(@D)
	$(2) $(WARN) $(3) -Ilib -c -o $$@ $$<
$(FUZZ_OUT)/$(1)/librft-fuzz.a: $(LIB_SRC:%.c=$(FUZZ_OUT)/$(1)/%.o) $(FUZZ_OUT)/$(1)/bin/cli.o $(FUZZ_OUT)/$(1)/bin/table.o \
		$(FUZZ_OUT)/$(1)/fuzz/fuzz_util.o
	$(AR) rcs $$@ $$^
$(FUZZ_OUT)/$(1)/dec-%: $(FUZZ_DIR)/fuzz_dec.c $(FUZZ_OUT)/$(1)/librft-fuzz.a
	$(2) $(WARN) $(3) -Ilib -DFUZZ_FORMAT='"$$*"' -o $$@ $$< $(4) $(FUZZ_OUT)/$(1)/librft-fuzz.a $(LDLIBS)
$(FUZZ_OUT)/$(1)/stage-%: $(FUZZ_DIR)/fuzz_stage.c $(FUZZ_OUT)/$(1)/librft-fuzz.a
	$(2) $(WARN) $(3) -Ilib -DFUZZ_STAGE='"$$*"' -o $$@ $$< $(4) $(FUZZ_OUT)/$(1)/librft-fuzz.a $(LDLIBS)
$(FUZZ_OUT)/$(1)/%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_OUT)/$(1)/librft-fuzz.a bin/rft-decode.c bin/*.h
	$(2) $(WARN) $(3) -Ilib -Ibin -o $$@ $$< $(4) $(FUZZ_OUT)/$(1)/librft-fuzz.a $(LDLIBS)
endef
$(eval $(call fuzz_flavor,fuzz,$(FUZZ_CC),$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,-fsanitize=fuzzer))
$(eval $(call fuzz_flavor,replay,$(CC),$(FUZZ_FLAGS),$(FUZZ_DIR)/replay.c))
$(FUZZ_REPLAYS): $(FUZZ_DIR)/replay.c

# The seeds and the reproducers of harness $$h (the reproducers may be absent)
FUZZ_INPUTS = $(FUZZ_DIR)/corpus/$$h $$(ls -d $(FUZZ_DIR)/regress/$$h 2>/dev/null)

# Every harness over its seeds and reproducers: no fuzzing, any compiler.
fuzz-replay: $(FUZZ_REPLAYS)
	@set -e; for h in $(FUZZ_HARNESSES); do \
	  printf 'fuzz replay: %-12s ' $$h; $(FUZZ_OUT)/replay/$$h $(FUZZ_INPUTS); done

fuzz-deps:
	@$(call deb_install,$(FUZZ_DEB_PKGS))
fuzz-build: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_FUZZERS)

# $(call fuzz_run,SECONDS,RUNS): each harness fuzzed, FUZZ_JOBS at a time
# (default: the CPUs; libFuzzer runs on one core), for SECONDS or RUNS
# inputs (empty: no limit), whichever comes first; those of FUZZ_SHORT on
# inputs of at most FUZZ_SHORT_LEN bytes.  New inputs go to
# $(FUZZ_DIR)/work/NAME/, crashes to $(FUZZ_DIR)/crashes/NAME/, the log to
# $(FUZZ_DIR)/work/NAME.log; a line per harness as it ends: runs, runs a
# second, and the coverage reached (libFuzzer's cov: edges, ft: features).
# A harness that fails does not stop the others: make fails at the end.
FUZZ_JOBS ?= $(QUICK_JOBS)
define fuzz_run
printf '%s\n' $(FUZZ_HARNESSES) | xargs -P $(FUZZ_JOBS) -I{} sh -c 'h={}; \
  mkdir -p $(FUZZ_DIR)/work/$$h $(FUZZ_DIR)/crashes/$$h; log=$(FUZZ_DIR)/work/$$h.log; \
  case " $(FUZZ_SHORT) " in *" $$h "*) len=-max_len=$(FUZZ_SHORT_LEN);; *) len=;; esac; \
  if $(FUZZ_OUT)/fuzz/$$h -max_total_time=$(1) $(if $(2),-runs=$(2)) $$len -timeout=10 \
      -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/crashes/$$h/ \
      $(FUZZ_DIR)/work/$$h $(FUZZ_INPUTS) >$$log 2>&1; \
  then echo "fuzz: $$h: $$(sed -n "s/^stat::number_of_executed_units: *//p" $$log) runs," \
            "$$(sed -n "s/^stat::average_exec_per_sec: *//p" $$log)/s," \
            "$$(grep -E "^#[0-9]+" $$log | tail -n 1 | grep -oE "cov: [0-9]+ ft: [0-9]+")"; \
  else { tail -n 40 $$log; echo "fuzz: $$h FAILED: reproducer in $(FUZZ_DIR)/crashes/$$h/ (log $$log)"; }; \
       exit 1; fi' || { echo "fuzz: FAILED (the harnesses named above)"; exit 1; }
endef

# The campaign README.md and tests/fuzz/README name: every harness for
# FUZZ_SECONDS (60) seconds or FUZZ_RUNS inputs (default: no limit), e.g.
#   make fuzz FUZZ_SECONDS=1800 FUZZ_RUNS=10000000
fuzz: fuzz-build
	@$(call fuzz_run,$(FUZZ_SECONDS),$(FUZZ_RUNS))

# Whether $(FUZZ_CC) links libFuzzer harnesses at all
FUZZ_TOOLCHAIN = { mkdir -p $(FUZZ_OUT) && \
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | \
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c -o $(FUZZ_OUT)/toolchain - ; } >/dev/null 2>&1

# The short session of `make check`; announced and skipped where clang
# cannot build libFuzzer harnesses and the packages cannot be installed.
fuzz-check:
	@if [ "$(FUZZ_CHECK_SECONDS)" = 0 ]; then echo "fuzz: short session skipped (FUZZ_CHECK_SECONDS=0)"; \
	elif ! { $(MAKE) --no-print-directory -s fuzz-deps || true; } || ! $(FUZZ_TOOLCHAIN); then \
	  echo "fuzz: SKIPPED the short fuzzing session: $(FUZZ_CC) cannot build libFuzzer harnesses" \
	       "(Debian: apt-get install $(FUZZ_DEB_PKGS))"; \
	else $(MAKE) --no-print-directory -s $(FUZZ_FUZZERS) && $(call fuzz_run,$(FUZZ_CHECK_SECONDS)); fi

# VALGRIND=1: every rft program the Bats tests run goes through valgrind
# (tests/test_helper.bash); `make valgrind` runs the Bats tests alone so.
ifeq ($(VALGRIND),1)
export VALGRIND
check: valgrind-deps
endif
# What the benchmarks and bench/m2s-model/campaign use beyond the build's:
# GNU time (/usr/bin/time: run times and peak memory), not in build-essential
BENCH_DEB_PKGS = time
bench-deps: | $(DEPS_STAMP)
	@$(call deb_install,$(BENCH_DEB_PKGS))
# What the tests alone use (tests/slurm.bats: a one-node Slurm; tests/python.bats,
# notes.bats: pandas and matplotlib; tests/m2s-campaign.bats and bench.bats run
# the benchmarks' scripts): installed here so that a fresh Debian 12 runs every
# test; as another user the tests that need them skip, saying why.
CHECK_DEB_PKGS = slurmctld slurmd slurm-client munge python3-pandas python3-matplotlib \
	$(BENCH_DEB_PKGS)
# (after the build's packages: two apt-get at once under make -j fail on its lock)
check-deps: | $(DEPS_STAMP)
	@( $(call deb_install,$(CHECK_DEB_PKGS)) ) || echo "check: the tests that need them will skip"


# A developer's check while working: the unit tests and the Bats files of
# tests/ but those of QUICK_SKIP (a tree rebuilt under a long path, an
# install and C/C++ programs built against it, a Slurm cluster, timings,
# whole studies over suites and their shards (rft-batch in batch*, shards*,
# the study scripts in every format in notes2, examples/reproduce.sh),
# signals sent to running studies) and no fuzzing, the files run QUICK_JOBS at a time (default: the
# CPUs); a failing file's output is printed.  `make check` runs everything.
QUICK_SKIP = longpath embed slurm bench batch batch2 batch3 batch-steady merge hostile hostile-scripts \
	scaling shards shards2 notes2 reproduce reproduce-reasons reproduce-rules nvidia nvidia2 pyreader
# The files are started longest first (xargs takes them in order), so that
# the last to end is a short one and no core waits on a long file alone:
# CHECK_FIRST and QUICK_FIRST, measured with `bats --timing`, then the rest.
CHECK_FIRST = longpath reproduce-rules reproduce-reasons reproduce batch batch2 notes2 shards2 \
	batch3 bench embed hostile hostile-scripts merge batch-steady scaling nvidia nvidia2 pyreader
QUICK_FIRST = options corrupt hostile2 decode steady help conventions python view hostile4 \
	synth notes3 vth cutracer figures classify dcpatch decode-formats
# Files run one at a time after the others: each starts a one-node Slurm
# cluster on localhost, as tests/shards2.bats does (two at once would race
# for one port and share the node); shards2 is the only one in the first
# group, so no two clusters ever run together
CHECK_ALONE = slurm shards
bats_in = $(filter $(wildcard tests/*.bats),$(1:%=tests/%.bats))
QUICK_BATS = $(call bats_in,$(QUICK_FIRST)) \
	$(filter-out $(QUICK_FIRST:%=tests/%.bats) $(QUICK_SKIP:%=tests/%.bats),$(wildcard tests/*.bats))
SKIP_BATS = $(call bats_in,$(CHECK_FIRST)) \
	$(filter-out $(CHECK_FIRST:%=tests/%.bats) $(CHECK_ALONE:%=tests/%.bats),$(call bats_in,$(QUICK_SKIP)))
QUICK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# make check builds QUICK_JOBS at a time unless given its own -j
CHECK_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(QUICK_JOBS))
# $(call bats_files,FILES,JOBS,WHO): the Bats files JOBS at a time, a line
# for each that passed, a failing file's output; fails when one failed
define bats_files
log=$$(mktemp -d); trap 'rm -rf "$$log"' EXIT; \
	printf '%s\n' $(1) | xargs -P $(2) -I{} sh -c \
	  'f={}; n=$${f##*/}; t0=$$(date +%s); if bats "$$f" > "'"$$log"'/$$n.log" 2>&1; \
	   then echo "ok   $$f ($$(grep -c "^ok" "'"$$log"'/$$n.log") tests, $$(( $$(date +%s) - t0 )) s)"; \
	   else echo "FAIL $$f"; grep -v "^ok" "'"$$log"'/$$n.log"; exit 1; fi' || \
	  { echo "$(3): FAILED"; exit 1; }
endef
check-quick: all check-deps
	@set -e; for t in $(UNITS); do ./$$t >/dev/null || { echo "unit: $$t FAILED"; exit 1; }; done; \
	echo "unit: $(words $(UNITS)) programs ok"; \
	$(call bats_files,$(QUICK_BATS),$(QUICK_JOBS),check-quick (make check runs every test))
	@echo "check-quick: passed; left out: $(QUICK_SKIP:%=tests/%.bats), fuzzing (make check)"

# Every test: the program and the sanitized fuzz replayers built QUICK_JOBS
# at a time, the unit tests, the Bats files of check-quick and those it
# leaves out (whole studies, signals, timings that are only reported)
# QUICK_JOBS at a time, longest first, then those of CHECK_ALONE one at a
# time, then the fuzz corpora and a short fuzzing session.
check: check-deps
	@$(MAKE) --no-print-directory $(CHECK_J) all $(FUZZ_REPLAYS)
	@set -e; for t in $(UNITS); do echo "unit: $$t"; ./$$t; done
	@$(call bats_files,$(SKIP_BATS) $(QUICK_BATS),$(QUICK_JOBS),check)
	@$(if $(call bats_in,$(CHECK_ALONE)),$(call bats_files,$(call bats_in,$(CHECK_ALONE)),1,check),:)
	@$(MAKE) --no-print-directory fuzz-replay
	@$(MAKE) --no-print-directory $(CHECK_J) fuzz-check

valgrind: all valgrind-deps
	VALGRIND=1 bats tests/
valgrind-deps:
	@$(call deb_install,valgrind)

# the Slurm tests alone (check runs them too): a one-node cluster on localhost
check-slurm: all check-deps
	bats tests/slurm.bats

demo: all
	PATH="$(CURDIR)/bin:$$PATH" sh examples/demo.sh

bench: all bench-deps
	PATH="$(CURDIR)/bin:$$PATH" bench/run

bench-traces: all bench-deps
	PATH="$(CURDIR)/bin:$$PATH" bench/traces

# the aging study -j 1 against -j N --shards N on one trace repeated to
# WRITES (30M) writes (bench/scaling; N: JOBS, default nproc), e.g.
#   make bench-scaling WRITES=2000000 JOBS=2 TRACES=trace.tsv.zst
bench-scaling: all bench-deps
	PATH="$(CURDIR)/bin:$$PATH" bench/scaling $(if $(JOBS),-j $(JOBS)) $(if $(WRITES),--writes $(WRITES)) $(TRACES)

# this tree against an older built one (OLD=DIR), on TRACES (else synthetic)
bench-study bench-compare: all bench-deps
	@test -n "$(OLD)" || { echo "usage: make $@ OLD=BUILT_TREE [TRACES='T...']" >&2; exit 2; }
	PATH="$(CURDIR)/bin:$$PATH" bench/$(@:bench-%=%) $(OLD) $(TRACES)

# DESTDIR stages an install (packaging, tests/embed.bats); rft.pc is made
# here, so that it names the PREFIX and LIBDIR of this install.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(RFTDATA)/params $(DESTDIR)$(RFTDATA)/examples
	install -m 755 $(PROGS) $(PROG_SCRIPTS) $(DESTDIR)$(BINDIR)/
	install -m 644 lib/librft.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/librft.so
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(PC_LIBDIR)|' \
	  -e 's|@INCLUDEDIR@|$(PC_INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	  lib/rft.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/rft.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/rft.pc
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(PARAMS) $(DESTDIR)$(RFTDATA)/params/
	install -m 755 examples/rft_reader.py examples/duty_figure.py $(DESTDIR)$(RFTDATA)/
	install -m 755 $(SCRIPTS) $(DESTDIR)$(RFTDATA)/examples/
	install -m 644 examples/paper-values.tsv $(DESTDIR)$(RFTDATA)/examples/

# Removes what install put there, and the folders of share/rftrace it made.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGS) $(PROG_SCRIPTS))) \
	  $(addprefix $(DESTDIR)$(LIBDIR)/,librft.a librft.so $(SONAME) $(notdir $(SHLIB))) \
	  $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(HEADERS))) $(DESTDIR)$(LIBDIR)/pkgconfig/rft.pc \
	  $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	  $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
	  $(addprefix $(DESTDIR)$(RFTDATA)/params/,$(notdir $(PARAMS))) \
	  $(addprefix $(DESTDIR)$(RFTDATA)/examples/,$(notdir $(SCRIPTS)) paper-values.tsv) \
	  $(DESTDIR)$(RFTDATA)/rft_reader.py $(DESTDIR)$(RFTDATA)/duty_figure.py \
	  $(DESTDIR)$(RFTDATA)/__pycache__/rft_reader.*.pyc
	rmdir $(DESTDIR)$(RFTDATA)/__pycache__ $(DESTDIR)$(RFTDATA)/params \
	  $(DESTDIR)$(RFTDATA)/examples $(DESTDIR)$(RFTDATA) 2>/dev/null || true

clean:
	rm -f lib/*.o lib/pic/*.o bin/*.o bin/libhelpers.a lib/librft.a lib/librft.so* .flags-* $(PROGS) $(PROG_SCRIPTS) $(UNITS) \
	  examples/gate-inline
	rm -rf $(FUZZ_OUT) $(STATIC_DIR)
