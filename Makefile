# Builds the engine the way OpenBench and other testers do:
#
#   make                      # ./tessera
#   make EXE=/tmp/x           # any output path (OpenBench passes EXE)
#   make EXE=x EVALFILE=net   # a network file for the build to embed
#   make FEATURES=tune        # cargo features (the tune build: docs/search.md, Tuning)
#
# OpenBench builds Rust engines with exactly this cargo command. EVALFILE is
# passed to the build as the environment variable TESSERA_EVALFILE (an absolute
# path): crates/eval/build.rs embeds that network instead of the default one.

EXE ?= tessera
FEATURES ?=

ifneq ($(strip $(EVALFILE)),)
    export TESSERA_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: default test bench clean

default:
	cargo rustc --release --bin tessera $(if $(strip $(FEATURES)),--features $(FEATURES)) -- -C target-cpu=native --emit link=$(EXE)

test:
	scripts/test

bench: default
	$(abspath $(EXE)) bench

clean:
	cargo clean
