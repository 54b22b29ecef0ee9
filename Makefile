# Builds the engine the way OpenBench and other testers do, for the CPU it
# will run on, and the release for every platform:
#
#   make                      # ./tessera for this machine (ARCH=native)
#   make portable             # any x86-64 CPU with SSE4.2 and POPCNT (x86-64-v2)
#   make avx2                 # AVX2 and BMI2 CPUs: Haswell, Zen 3 and later (x86-64-v3)
#   make native               # this machine's CPU, every feature it has (the default)
#   make ARCH=x86-64-v4       # any other -C target-cpu value
#   make TARGET=x86_64-pc-windows-gnu ARCH=x86-64-v3 EXE=t.exe   # another platform
#   make RUSTFLAGS_EXTRA=-Ctarget-feature=-bmi2   # more rustc flags (here: magics, not PEXT)
#   make EXE=/tmp/x           # any output path (OpenBench passes EXE)
#   make EXE=x EVALFILE=net   # a network file for the build to embed
#   make FEATURES=tune        # cargo features (the tune build: docs/search.md, Tuning)
#   make install PREFIX=~/.local   # builds for this machine, installs PREFIX/bin/tessera
#   make release              # dist/: every release binary (RELEASES below), named with the
#                             # version, OS and CPU, and their SHA256SUMS (DIST= for another
#                             # folder; -j builds them side by side). Needs the Rust targets
#                             # and the cross linkers: docs/platforms.md
#   make web                  # dist/web/: the browser package (the engine built for WebAssembly
#                             # with threads and simd128, its Web Worker, the analysis page;
#                             # docs/platforms.md) and, where npm is, its `npm pack` tarball
#   make check-builds         # builds the release and native; each must give the same bench
#
# OpenBench builds Rust engines with this cargo command. The CPU goes to every
# crate of the build through RUSTFLAGS (which replaces .cargo/config.toml's
# target-cpu=native), not only to the binary: with fat LTO, code from a crate
# built for another CPU would keep that CPU's instructions. `--target` names
# the platform (this machine's by default), so that build scripts are built for
# this machine, not for ARCH. Each ARCH builds in a target directory of its own
# (target/<ARCH>, target/<TARGET>-<ARCH> for another platform), so that
# switching between them does not rebuild everything. EVALFILE is passed to the
# build as the environment variable TESSERA_EVALFILE (an absolute path):
# crates/eval/build.rs embeds that network instead of the default one.

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
TARGET ?= $(HOST)
# The package version, from the workspace's Cargo.toml.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The release: each binary's name (after tessera-VERSION-: the OS, the CPU
# and, for Windows, .exe), its Rust target and its -C target-cpu. Linux
# binaries are static (musl): they run on any distribution. ARM64 needs only
# NEON, which every ARM64 CPU has.
RELEASES := \
    linux-x86-64-portable:x86_64-unknown-linux-musl:x86-64-v2 \
    linux-x86-64-avx2:x86_64-unknown-linux-musl:x86-64-v3 \
    linux-x86-64-avx512:x86_64-unknown-linux-musl:x86-64-v4 \
    linux-aarch64:aarch64-unknown-linux-musl:generic \
    windows-x86-64-portable.exe:x86_64-pc-windows-gnu:x86-64-v2 \
    windows-x86-64-avx2.exe:x86_64-pc-windows-gnu:x86-64-v3 \
    windows-x86-64-avx512.exe:x86_64-pc-windows-gnu:x86-64-v4
RELEASE_NAMES := $(foreach r,$(RELEASES),$(word 1,$(subst :, ,$(r))))
# Field 2 (target) or 3 (CPU) of the release named $(1).
release_field = $(word $(2),$(subst :, ,$(filter $(1):%,$(RELEASES))))
# Cross linkers where this machine is not the platform (Debian's names); a
# value in the environment wins. Windows' (x86_64-w64-mingw32-gcc) is rustc's default.
ifneq ($(findstring aarch64,$(HOST)),aarch64)
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER ?= aarch64-linux-gnu-gcc
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER ?= aarch64-linux-gnu-gcc
endif
TARGET_DIR := target/$(if $(filter $(TARGET),$(HOST)),$(ARCH),$(TARGET)-$(ARCH))

ifneq ($(strip $(EVALFILE)),)
    export TESSERA_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: default portable avx2 native install release web $(addprefix release-,$(RELEASE_NAMES)) check-builds test bench clean

default:
	RUSTFLAGS="-C target-cpu=$(ARCH) $(RUSTFLAGS_EXTRA)" cargo rustc --release --bin tessera $(if $(strip $(FEATURES)),--features $(FEATURES)) \
	    --target $(TARGET) --target-dir $(TARGET_DIR) -- --emit link=$(EXE)

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

release: $(addprefix release-,$(RELEASE_NAMES)) web
	cd $(DIST) && sha256sum $(addprefix tessera-$(VERSION)-,$(RELEASE_NAMES)) $$(ls *.tgz 2>/dev/null) >SHA256SUMS

$(addprefix release-,$(RELEASE_NAMES)): release-%:
	mkdir -p $(DIST)
	$(MAKE) --no-print-directory default TARGET=$(call release_field,$*,2) \
	    ARCH=$(call release_field,$*,3) EXE=$(abspath $(DIST))/tessera-$(VERSION)-$*

# The web package: web/ (the worker, the JS host, the page), the engine built
# for WebAssembly (.cargo/config.toml gives that target simd128 and the
# runner; build.rs its memory's maximum), the licence, and the package's
# version from Cargo.toml. No RUSTFLAGS here: they would replace simd128.
WASM_TARGET := wasm32-wasip1-threads
web:
	env -u RUSTFLAGS cargo build --release --bin tessera --target $(WASM_TARGET)
	rm -rf $(DIST)/web
	mkdir -p $(DIST)/web
	cp -R web/. LICENSE target/$(WASM_TARGET)/release/tessera.wasm $(DIST)/web/
	sed -i 's/"version": "[^"]*"/"version": "$(VERSION)"/' $(DIST)/web/package.json
	if command -v npm >/dev/null; then cd $(DIST) && npm pack --silent ./web >/dev/null; fi

check-builds:
	scripts/check_builds.sh

test:
	scripts/test

bench: default
	$(abspath $(EXE)) bench

clean:
	cargo clean
