#!/bin/sh
# Vets and tests each bridge module (each has its own go.mod, so the
# root module's go test ./... does not reach them). The examples run a
# real executor: the guest must be built (make guest or ptc-run guest build).
set -eu
cd "$(dirname "$0")"
for m in anthropic openai gemini eino genkit; do
	echo "bridge/$m"
	(cd "$m" && go vet ./... && go test -race -count=1 ./...)
done
