# Shared settings for the set-up scripts. Sourced, never run.
# Everything heavy (llama.cpp build, model files) lives in the user's cache, keyed by version,
# so every clean checkout on the same machine reuses it.

PROJECT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# FOUNDATIONMODELS_VERSION, LLAMA_CPP_PYTHON_VERSION and LLAMA_CPP_SDIST_SHA256.
source "$PROJECT_ROOT/VERSIONS"
FM_CACHE_DIR="${FM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/foundationmodels-linux}"
# "noamx": built without Intel AMX (see build-llama), so a build made before that is not reused.
LLAMA_KEY="llama-cpp-python-${LLAMA_CPP_PYTHON_VERSION}-${LLAMA_CPP_SDIST_SHA256:0:12}-noamx"
LLAMA_PREFIX="$FM_CACHE_DIR/llama.cpp/$LLAMA_KEY"
LOCAL_PREFIX="$PROJECT_ROOT/.deps/llama"
# The reference tools the build installs next to the libraries; a cache without one of them
# (made before it was added) is built again.
LLAMA_TOOLS=(llama-bench llama-completion llama-server)
llama_is_built() {
  [ -f "$LLAMA_PREFIX/.complete" ] || return 1
  local tool
  for tool in "${LLAMA_TOOLS[@]}"; do [ -x "$LLAMA_PREFIX/lib/$tool" ] || return 1; done
  [ -f "$LLAMA_PREFIX/include/common/jinja/runtime.h" ] && [ -d "$LLAMA_PREFIX/share/chat-templates" ]
}
# The headers of llama.cpp's Jinja engine (libllama-common), which Sources/CChatTemplate wraps,
# into PREFIX/include/common; and the chat templates of its models/templates (the template
# parity tests render each) into PREFIX/share/chat-templates.
install_jinja_files() {
  local src="$1" prefix="$2"
  mkdir -p "$prefix/include/common/jinja" "$prefix/share/chat-templates"
  cp "$src/common/json.h" "$prefix/include/common/"
  cp "$src"/common/jinja/*.h "$prefix/include/common/jinja/"
  cp "$src"/models/templates/*.jinja "$prefix/share/chat-templates/"
}

# Package.swift finds the headers and libraries in .deps/llama itself; PATH is for llama-bench,
# llama-completion and llama-server, the benchmark and remote-model references.
export PATH="$LOCAL_PREFIX/bin:$PATH"
# Tools that pip installs with --user land here (see install-tools).
if [ -d "$HOME/.local/bin" ]; then export PATH="$PATH:$HOME/.local/bin"; fi
# The Swift toolchain may be unpacked outside PATH (this project's machines use /opt/swift).
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

FM_RELEASE_BINARY="$PROJECT_ROOT/.build/release/fm"
FM_DEFAULT_CHAT_MODEL="qwen2.5-coder-1.5b"
FM_DEFAULT_TEST_MODEL="smollm2-135m"
# The model without ChatML (and without a template of its own) that the template tests chat with.
FM_TEMPLATE_TEST_MODEL="gemma3-270m"

# Bold only on a terminal, and never when NO_COLOR is set (https://no-color.org).
if [ -t 2 ] && [ -z "${NO_COLOR:-}" ]; then
  step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
else
  step() { printf '==> %s\n' "$*" >&2; }
fi
note() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
