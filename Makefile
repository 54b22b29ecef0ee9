# Builds the engine the way OpenBench and other testers do, for the CPU it
# will run on:
#
#   make                      # ./tessera for this machine (ARCH=native)
#   make portable             # any x86-64 CPU with SSE4.2 and POPCNT (x86-64-v2)
#   make avx2                 # AVX2 and BMI2 CPUs: Haswell, Zen 3 and later (x86-64-v3)
#   make native               # this machine's CPU, every feature it has (the default)
#   make ARCH=x86-64-v4       # any other -C target-cpu value
#   make RUSTFLAGS_EXTRA=-Ctarget-feature=-bmi2   # more rustc flags (here: magics, not PEXT)
#   make EXE=/tmp/x           # any output path (OpenBench passes EXE)
#   make EXE=x EVALFILE=net   # a network file for the build to embed
#   make FEATURES=tune        # cargo features (the tune build: docs/search.md, Tuning)
#   make install PREFIX=~/.local   # builds for this machine, installs PREFIX/bin/tessera
#   make release              # dist/: the portable, avx2 and avx512 binaries, named with the
#                             # version, and their SHA256SUMS (DIST= for another folder;
#                             # -j3 builds the three side by side)
#   make check-builds         # builds the release and native; each must give the same bench
#
# OpenBench builds Rust engines with this cargo command. The CPU goes to every
# crate of the build through RUSTFLAGS (which replaces .cargo/config.toml's
# target-cpu=native), not only to the binary: with fat LTO, code from a crate
# built for another CPU would keep that CPU's instructions. `--target` names
# the host, so that build scripts are built for this machine, not for ARCH. Each ARCH builds in
# a target directory of its own (target/<ARCH>), so that switching between them
# does not rebuild everything. EVALFILE is passed to the build as the
# environment variable TESSERA_EVALFILE (an absolute path): crates/eval/build.rs
# embeds that network instead of the default one.

EXE ?= tessera
FEATURES ?=
ARCH ?= native
RUSTFLAGS_EXTRA ?=
DIST ?= dist
PREFIX ?= /usr/local
# The machine's own target, named explicitly: then RUSTFLAGS reach only the
# engine's code, not the build scripts, which run here and must not need
# instructions this CPU lacks (an avx512 release built on an AVX2 machine).
HOST := $(shell rustc -vV | sed -n 's/^host: //p')
# The package version, from the workspace's Cargo.toml.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The release binaries: name suffix and -C target-cpu, one pair each.
RELEASES := portable:x86-64-v2 avx2:x86-64-v3 avx512:x86-64-v4
RELEASE_NAME = tessera-$(VERSION)-$(shell uname -s | tr A-Z a-z)-$(1)
# One target per release binary (release-portable, ...), so that `make -j3
# release` builds them side by side, each in its own target directory.
RELEASE_SUFFIXES := $(foreach r,$(RELEASES),$(word 1,$(subst :, ,$(r))))
release_arch = $(word 2,$(subst :, ,$(filter $(1):%,$(RELEASES))))

ifneq ($(strip $(EVALFILE)),)
    export TESSERA_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: default portable avx2 native install release $(addprefix release-,$(RELEASE_SUFFIXES)) check-builds test bench clean

default:
	RUSTFLAGS="-C target-cpu=$(ARCH) $(RUSTFLAGS_EXTRA)" cargo rustc --release --bin tessera $(if $(strip $(FEATURES)),--features $(FEATURES)) \
	    --target $(HOST) --target-dir target/$(ARCH) -- --emit link=$(EXE)

portable:
	$(MAKE) default ARCH=x86-64-v2

avx2:
	$(MAKE) default ARCH=x86-64-v3

native:
	$(MAKE) default ARCH=native

install:
	$(MAKE) --no-print-directory default EXE=$(abspath target/tessera-install)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 target/tessera-install $(DESTDIR)$(PREFIX)/bin/tessera

release: $(addprefix release-,$(RELEASE_SUFFIXES))
	cd $(DIST) && sha256sum $(foreach s,$(RELEASE_SUFFIXES),$(call RELEASE_NAME,$(s))) >SHA256SUMS

$(addprefix release-,$(RELEASE_SUFFIXES)): release-%:
	mkdir -p $(DIST)
	$(MAKE) --no-print-directory default ARCH=$(call release_arch,$*) EXE=$(abspath $(DIST))/$(call RELEASE_NAME,$*)

check-builds:
	scripts/check_builds.sh

test:
	scripts/test

bench: default
	$(abspath $(EXE)) bench

clean:
	cargo clean
