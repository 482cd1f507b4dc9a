# The two commands: `make start` runs the whole suite, `make test` runs every test.
SHELL := /bin/bash
export PATH := $(CURDIR)/.tools/bin:$(PATH)

.PHONY: start test test-faults setup check bench clean help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

setup: ## install the toolchain, system packages and dependencies, then build
	@bash scripts/setup.sh

start: setup ## set up, then run the whole suite in the foreground (Ctrl-C stops everything)
	@exec node tools/devstack/dist/start.js

test: setup check ## set up, then format check, lint, type check and every test
	@node tools/devstack/dist/test.js

test-faults: setup ## fault tests: killed workers, Redis/Postgres restarts, SIGTERM, fuzz
	@NODE_COMPILE_CACHE=$${NODE_COMPILE_CACHE:-$(CURDIR)/node_modules/.cache/node-compile-cache} \
	  node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js -c jest.faults.config.js

check: ## format check, lint with zero warnings, type check (after make setup)
	@pnpm run format:check
	@pnpm run lint
	@pnpm run typecheck

bench: setup ## run the runner's benchmarks on an idle machine (results in bench/results/latest.md)
	@node bench/run.ts

clean: ## remove build output (keeps .data/)
	@rm -rf apps/*/dist libs/*/dist tools/*/dist *.tsbuildinfo
