// Wraps llama.cpp's Jinja engine (common/jinja in libllama-common) behind the C interface of
// chat_template_engine.h. The headers are installed by the set-up next to llama.h; the path is
// relative to this file, as in Sources/CLlama/shim.h. Without them the file is one error that
// names the set-up command, not a cascade of undeclared names.
#if !__has_include("../../.deps/llama/include/common/jinja/runtime.h")
#error "llama.cpp is not set up: run 'swift package --allow-network-connections all setup' once (it builds the pinned llama.cpp for this machine)"
#else
#include "../../.deps/llama/include/common/jinja/caps.h"
#include "../../.deps/llama/include/common/jinja/lexer.h"
#include "../../.deps/llama/include/common/jinja/parser.h"
#include "../../.deps/llama/include/common/jinja/runtime.h"
#include "../../.deps/llama/include/common/jinja/value.h"
#include "../../.deps/llama/include/common/json.h"

#include "chat_template_engine.h"
#include "jinja2_semantics.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

struct fm_chat_template {
  std::string source;
  jinja::program program;
  /// From llama.cpp's capability probe: the template renders calls, but not with object arguments.
  bool takes_string_arguments = false;
};

namespace {

char *copy_string(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

/// The engine's value for a JSON value; a `{"__input__": "text"}` object is the string
/// `text`, marked as input.
jinja::value value_from_json(const common_json &json) {
  if (json.is_null()) return jinja::mk_val<jinja::value_none>();
  if (json.is_boolean()) return jinja::mk_val<jinja::value_bool>(json.get<bool>());
  if (json.is_number_integer()) return jinja::mk_val<jinja::value_int>(json.get<int64_t>());
  if (json.is_number_float()) return jinja::mk_val<jinja::value_float>(json.get<double>());
  if (json.is_string()) return jinja::mk_val<jinja::value_string>(json.get<std::string>());
  if (json.is_array()) {
    auto array = jinja::mk_val<jinja::value_array>();
    for (const auto &item : json) array->push_back(value_from_json(item));
    return array;
  }
  if (json.is_object()) {
    if (json.size() == 1 && json.contains("__input__") && json.at("__input__").is_string()) {
      auto string = jinja::mk_val<jinja::value_string>(json.at("__input__").get<std::string>());
      string->mark_input();
      return string;
    }
    auto object = jinja::mk_val<jinja::value_object>();
    for (auto it = json.begin(); it != json.end(); ++it) object->insert(it.key(), value_from_json(it.value()));
    return object;
  }
  throw std::runtime_error("unsupported JSON value in the template's context");
}

}  // namespace

extern "C" fm_chat_template *fm_chat_template_parse(const char *source, size_t length, char **error) {
  try {
    auto parsed = std::make_unique<fm_chat_template>();
    parsed->source.assign(source, length);
    jinja::lexer lexer;
    parsed->program = jinja::parse_from_tokens(lexer.tokenize(parsed->source));
    fm_apply_jinja2_semantics(parsed->program);
    // caps_get renders the probe conversations of common/chat.cpp and catches their failures;
    // supports_tool_calls without supports_object_arguments means the string probe rendered
    // the calls (llama.cpp then passes arguments as strings, func_args_not_string otherwise).
    try {
      const jinja::caps caps = jinja::caps_get(parsed->program);
      parsed->takes_string_arguments = caps.supports_tool_calls && !caps.supports_object_arguments;
    } catch (const std::exception &) {
      // A probe that fails tells nothing: arguments stay objects, as transformers passes them.
    }
    return parsed.release();
  } catch (const std::exception &exception) {
    *error = copy_string(exception.what());
    return nullptr;
  }
}

extern "C" void fm_chat_template_free(fm_chat_template *template_) { delete template_; }

extern "C" int fm_chat_template_takes_string_arguments(const fm_chat_template *template_) {
  return template_->takes_string_arguments ? 1 : 0;
}

extern "C" int fm_chat_template_render(
    const fm_chat_template *template_, const char *context_json, size_t length, int64_t now,
    fm_rendering *rendering, char **error) {
  try {
    const common_json variables = common_json::parse(std::string(context_json, length));
    if (!variables.is_object()) throw std::runtime_error("the template's context is not a JSON object");
    jinja::context context(template_->source);
    context.current_time = static_cast<std::time_t>(now);
    for (auto it = variables.begin(); it != variables.end(); ++it) {
      context.set_val(it.key(), value_from_json(it.value()));
    }
    jinja::runtime runtime(context);
    const jinja::value results = runtime.execute(template_->program);
    const auto parts = jinja::runtime::gather_string_parts(results)->val_str.parts;

    std::string text;
    for (const auto &part : parts) text += part.val;
    rendering->text = copy_string(text);
    rendering->text_length = text.size();
    rendering->part_count = parts.size();
    rendering->part_lengths = static_cast<size_t *>(std::malloc(sizeof(size_t) * (parts.size() + 1)));
    rendering->part_is_input = static_cast<unsigned char *>(std::malloc(parts.size() + 1));
    for (size_t index = 0; index < parts.size(); index++) {
      rendering->part_lengths[index] = parts[index].val.size();
      rendering->part_is_input[index] = parts[index].is_input ? 1 : 0;
    }
    return 0;
  } catch (const std::exception &exception) {
    *error = copy_string(exception.what());
    return -1;
  }
}

extern "C" void fm_rendering_free(fm_rendering *rendering) {
  std::free(rendering->text);
  std::free(rendering->part_lengths);
  std::free(rendering->part_is_input);
  *rendering = fm_rendering{};
}

extern "C" void fm_chat_template_free_string(char *string) { std::free(string); }

#endif
