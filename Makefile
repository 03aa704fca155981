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
UNIT_SRC = $(wildcard tests/unit/*.c)
UNITS = $(UNIT_SRC:.c=)
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
PARAMS = $(wildcard params/*.conf)
SCRIPTS = $(wildcard examples/*.sh)

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
DEPS_STAMP = .deps-ok

.PHONY: all check demo install uninstall clean deps bench bench-traces
all: $(DEPS_STAMP) $(PROGS) $(UNITS) $(SHLIB)

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
# The shared library, from its own position-independent objects (the static
# library and the programs stay as they are); its soname follows the format's
# major version, its file name the release.
lib/pic/%.o: lib/%.c lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	@mkdir -p lib/pic
	$(CC) $(WARN) $(CFLAGS) -fPIC -c -o $@ $<
$(SHLIB): $(PIC_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $@ $^ $(LDFLAGS) $(LDLIBS)
# helpers of the programs: bin/cli.o for all, others where named below
bin/%.o: bin/%.c bin/*.h lib/*.h $(DEPS_STAMP) $(FLAGS_STAMP)
	$(CC) $(WARN) $(CFLAGS) -Ilib -c -o $@ $<
bin/rft-faultmap bin/rft-dcpatch: bin/fmsource.o
bin/%: bin/%.c bin/cli.o lib/librft.a lib/*.h bin/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< $(filter bin/%.o,$^) lib/librft.a $(LDFLAGS) $(LDLIBS)
tests/unit/%: tests/unit/%.c lib/librft.a lib/*.h
	$(CC) $(WARN) $(CFLAGS) -Ilib -o $@ $< lib/librft.a $(LDFLAGS) $(LDLIBS)

check: all
	@set -e; for t in $(UNITS); do echo "unit: $$t"; ./$$t; done
	bats tests/

demo: all
	PATH="$(CURDIR)/bin:$$PATH" sh examples/demo.sh

bench: all
	PATH="$(CURDIR)/bin:$$PATH" bench/run

bench-traces: all
	PATH="$(CURDIR)/bin:$$PATH" bench/traces

# DESTDIR stages an install (packaging, tests/embed.bats); rft.pc is made
# here, so that it names the PREFIX and LIBDIR of this install.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(RFTDATA)/params $(DESTDIR)$(RFTDATA)/examples
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)/
	install -m 644 lib/librft.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/librft.so
	install -m 644 lib/rft.h $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(PC_LIBDIR)|' \
	  -e 's|@INCLUDEDIR@|$(PC_INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	  lib/rft.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/rft.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/rft.pc
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(PARAMS) $(DESTDIR)$(RFTDATA)/params/
	install -m 755 examples/rft_reader.py $(DESTDIR)$(RFTDATA)/
	install -m 755 $(SCRIPTS) $(DESTDIR)$(RFTDATA)/examples/

# Removes what install put there, and the folders of share/rftrace it made.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGS))) \
	  $(addprefix $(DESTDIR)$(LIBDIR)/,librft.a librft.so $(SONAME) $(notdir $(SHLIB))) \
	  $(DESTDIR)$(INCLUDEDIR)/rft.h $(DESTDIR)$(LIBDIR)/pkgconfig/rft.pc \
	  $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	  $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
	  $(addprefix $(DESTDIR)$(RFTDATA)/params/,$(notdir $(PARAMS))) \
	  $(addprefix $(DESTDIR)$(RFTDATA)/examples/,$(notdir $(SCRIPTS))) \
	  $(DESTDIR)$(RFTDATA)/rft_reader.py $(DESTDIR)$(RFTDATA)/__pycache__/rft_reader.*.pyc
	rmdir $(DESTDIR)$(RFTDATA)/__pycache__ $(DESTDIR)$(RFTDATA)/params \
	  $(DESTDIR)$(RFTDATA)/examples $(DESTDIR)$(RFTDATA) 2>/dev/null || true

clean:
	rm -f lib/*.o lib/pic/*.o bin/*.o lib/librft.a lib/librft.so* .flags-* $(PROGS) $(UNITS)
