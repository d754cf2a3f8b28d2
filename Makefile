# Storefront — the two commands people need are `make run` and `make test`.
SWIFT      ?= swift
CATALOG    ?= Catalogs/Demo.storekit
BUILD_ARGS ?=

.PHONY: run test bench coverage fuzz deps build clean

# Install the system libraries (OpenSSL libcrypto, ncursesw) and tools the build and
# tests use, only when they are missing. Needs root or sudo on a fresh machine.
deps:
	@./scripts/install-deps

build: deps
	$(SWIFT) build $(BUILD_ARGS)

run: deps
	$(SWIFT) build $(BUILD_ARGS) --product storefront
	./.build/debug/storefront --catalog $(CATALOG)

test: deps
	$(SWIFT) test $(BUILD_ARGS)

bench: deps
	$(SWIFT) build -c release $(BUILD_ARGS) --product storefront-bench
	./.build/release/storefront-bench

coverage: deps
	$(SWIFT) test --enable-code-coverage $(BUILD_ARGS)
	./scripts/coverage-report

clean:
	rm -rf .build
