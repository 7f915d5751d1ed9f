// The pinned llama.cpp C API. `scripts/setup` builds it and links this checkout's
// `.deps/llama` to the build; the path is relative to this file, so the package (and any
// package that depends on it by path) needs no pkg-config or environment variables.
#if __has_include("../../.deps/llama/include/llama.h")
#include "../../.deps/llama/include/llama.h"
#else
#error "llama.cpp is not set up for this checkout: run scripts/setup once (it builds the pinned llama.cpp into .deps/llama)"
#endif
