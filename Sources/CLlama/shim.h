// The pinned llama.cpp C API (see scripts/build-llama). Headers come from the
// pkg-config file that the set-up writes (.deps/llama/lib/pkgconfig/llama.pc).
#include <llama.h>
