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
#   make check-builds         # builds portable, avx2 and native; each must give the same bench
#
# OpenBench builds Rust engines with this cargo command. The CPU goes to every
# crate of the build through RUSTFLAGS (which replaces .cargo/config.toml's
# target-cpu=native), not only to the binary: with fat LTO, code from a crate
# built for another CPU would keep that CPU's instructions. Each ARCH builds in
# a target directory of its own (target/<ARCH>), so that switching between them
# does not rebuild everything. EVALFILE is passed to the build as the
# environment variable TESSERA_EVALFILE (an absolute path): crates/eval/build.rs
# embeds that network instead of the default one.

EXE ?= tessera
ARCH ?= native
RUSTFLAGS_EXTRA ?=

ifneq ($(strip $(EVALFILE)),)
    export TESSERA_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: default portable avx2 native check-builds test bench clean

default:
	RUSTFLAGS="-C target-cpu=$(ARCH) $(RUSTFLAGS_EXTRA)" cargo rustc --release --bin tessera \
	    --target-dir target/$(ARCH) -- --emit link=$(EXE)

portable:
	$(MAKE) default ARCH=x86-64-v2

avx2:
	$(MAKE) default ARCH=x86-64-v3

native:
	$(MAKE) default ARCH=native

check-builds:
	scripts/check_builds.sh

test:
	scripts/test

bench: default
	$(abspath $(EXE)) bench

clean:
	cargo clean
