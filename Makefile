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
SCRIPTS = $(patsubst %.sh,%,$(wildcard bin/rft-*.sh))
UNIT_SRC = $(wildcard tests/unit/*.c)
UNITS = $(UNIT_SRC:.c=)
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)

DEB_PKGS = libzstd-dev libcsv-dev zstd bats bats-assert bats-support python3
DEPS_STAMP = .deps-ok

.PHONY: all check check-slurm demo install clean deps bench bench-traces
all: $(DEPS_STAMP) $(PROGS) $(SCRIPTS) $(UNITS) lib/rft.pc

# Install what the build needs (Debian 12), or say exactly what to run.
$(DEPS_STAMP):
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) || exit 1; \
	  else echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; fi; \
	fi; touch $@
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
# helpers of the programs: bin/cli.o for all, others where named below
bin/%.o: bin/%.c bin/*.h lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	$(CC) $(WARN) $(CFLAGS) -Ilib -c -o $@ $<
bin/rft-faultmap bin/rft-dcpatch: bin/fmsource.o
bin/%: bin/%.c bin/cli.o lib/librft.a lib/*.h bin/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< $(filter bin/%.o,$^) lib/librft.a $(LDFLAGS) $(LDLIBS)
bin/%: bin/%.sh
	cp $< $@ && chmod 755 $@
tests/unit/%: tests/unit/%.c lib/librft.a lib/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< lib/librft.a $(LDFLAGS) $(LDLIBS)
lib/rft.pc: lib/rft.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|'$$(sed -n 's/^#define RFT_VERSION "\(.*\)"/\1/p' lib/rft.h)'|' $< > $@

check: all
	@set -e; for t in $(UNITS); do echo "unit: $$t"; ./$$t; done
	bats tests/

# the Slurm tests alone (check runs them too): a one-node cluster on localhost
check-slurm: all
	bats tests/slurm.bats

demo: all
	PATH="$(CURDIR)/bin:$$PATH" sh examples/demo.sh

bench: all
	PATH="$(CURDIR)/bin:$$PATH" bench/run

bench-traces: all
	PATH="$(CURDIR)/bin:$$PATH" bench/traces

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(PROGS) $(SCRIPTS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 lib/librft.a $(DESTDIR)$(PREFIX)/lib/
	install -m 644 lib/rft.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 lib/rft.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 $(MAN1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(MAN5) $(DESTDIR)$(PREFIX)/share/man/man5/
	install -d $(DESTDIR)$(PREFIX)/share/rftrace/params
	install -m 644 params/*.conf $(DESTDIR)$(PREFIX)/share/rftrace/params/

clean:
	rm -f lib/*.o bin/*.o lib/librft.a lib/rft.pc .flags-* $(PROGS) $(SCRIPTS) $(UNITS)
