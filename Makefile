EXE ?= escaque

# OpenBench builds with `make -j EXE=<path>`.
.PHONY: all bench clean
all:
	cargo rustc --release --bin escaque -- -C target-cpu=native --emit link=$(EXE)

bench: all
	./$(EXE) bench

clean:
	cargo clean
