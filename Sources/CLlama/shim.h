// The pinned llama.cpp C API. The set-up (`swift package setup`) builds it and links this
// checkout's `.deps/llama` to the build; the path is relative to this file, so the package, and
// any package that depends on it, needs no pkg-config or environment variables.
#if __has_include("../../.deps/llama/include/llama.h")
#include "../../.deps/llama/include/llama.h"
#else
#error "llama.cpp is not set up: run 'swift package --allow-network-connections all setup' once (it builds the pinned llama.cpp for this machine)"
#endif
