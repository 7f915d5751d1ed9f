// Makes llama.cpp's Jinja engine render `+` as Python's jinja2 does in transformers'
// environment (autoescape off), where the two differ in what a template prints:
//
// - jinja2 raises on `+` with an undefined operand (UndefinedError) or None (TypeError); the
//   engine reads both as "" for string concatenation. Command R+'s tool-use template adds every
//   parameter's `description` to text, so transformers cannot render a tool with an undescribed
//   parameter; neither do we, and the error says which name was undefined.
// - `'…'|safe` is a Markup string in jinja2, and Markup HTML-escapes a plain string added to it
//   on either side (the result is Markup again); the engine's `safe` returns plain text.
//   Functionary v3.1 writes `'…'|safe + tool | tojson`, so its prompt holds `&#34;` for every
//   quote of the JSON. Which operands are Markup is decided from the expression (a `safe` filter,
//   or a `+` with one), which covers Markup built and used in one expression; Markup kept in a
//   variable first is not followed.
//
// Without llama.cpp's headers this file is an error too, as chat_template_engine.cpp is: a file
// that compiled to nothing would not be compiled again once the set-up has installed them.
#if !__has_include("../../.deps/llama/include/common/jinja/runtime.h")
#error "llama.cpp is not set up: run 'swift package --allow-network-connections all setup' once (it builds the pinned llama.cpp for this machine)"
#else
#include "../../.deps/llama/include/common/jinja/runtime.h"

#include "jinja2_semantics.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace jinja;

/// An operand of `+`, checked (and escaped, next to Markup) as jinja2 would.
struct jinja2_operand : public expression {
  statement_ptr operand;
  bool escapes;

  jinja2_operand(statement_ptr &&operand, bool escapes) : operand(std::move(operand)), escapes(escapes) {
    pos = this->operand->pos;
  }
  std::string type() const override { return "Jinja2Operand"; }
  void visit(context &ctx) const override { ctx.visitor(false, this, {{"operand", {operand.get()}}}); }

  value execute_impl(context &ctx) const override {
    value result = operand->execute(ctx);
    if (result->is_undefined()) {
      throw std::runtime_error(
          named() + "is undefined, and jinja2 raises UndefinedError when an undefined value is added with '+' "
          "(as transformers renders templates)");
    }
    if (result->is_none()) {
      throw std::runtime_error(
          named() + "is None, and jinja2 raises TypeError when None is added with '+' (as transformers renders "
          "templates)");
    }
    if (!escapes) return result;
    auto escaped = mk_val<value_string>();
    for (const auto &part : result->as_string().parts) {
      escaped->val_str.parts.push_back({part.is_input, html_escaped(part.val)});
    }
    return escaped;
  }

private:
  /// "'name' " where the operand is a variable or an attribute, else "a value ".
  std::string named() const {
    const statement *node = operand.get();
    if (auto member = dynamic_cast<const member_expression *>(node); member && !member->computed) {
      node = member->property.get();
    }
    if (auto name = dynamic_cast<const identifier *>(node)) return "'" + name->val + "' ";
    return "a value ";
  }

  /// markupsafe's escape: & < > ' " as entities.
  static std::string html_escaped(const std::string &text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char character : text) {
      switch (character) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '\'': escaped += "&#39;"; break;
      case '"': escaped += "&#34;"; break;
      default: escaped += character;
      }
    }
    return escaped;
  }
};

bool is_safe_filter(const statement *node) {
  auto filter = dynamic_cast<const filter_expression *>(node);
  if (!filter) return false;
  const statement *name = filter->filter.get();
  if (auto call = dynamic_cast<const call_expression *>(name)) name = call->callee.get();
  auto identifier_ = dynamic_cast<const identifier *>(name);
  return identifier_ && identifier_->val == "safe";
}

bool is_plus(const statement *node) {
  auto binary = dynamic_cast<const binary_expression *>(node);
  return binary && binary->op.value == "+";
}

/// Whether jinja2 evaluates `node` to Markup.
bool is_markup(const statement *node) {
  if (is_safe_filter(node)) return true;
  if (!is_plus(node)) return false;
  auto binary = static_cast<const binary_expression *>(node);
  return is_markup(binary->left.get()) || is_markup(binary->right.get());
}

/// Every `+` expression of the program, parents before children. The engine's visitor treats
/// array, tuple and object literals as leaves, so their items are visited here.
std::vector<const binary_expression *> plus_expressions(const program &program) {
  std::vector<const binary_expression *> found;
  context ctx;
  ctx.visitor = [&](bool is_leaf, const statement *node, std::vector<visitor_pair> children) {
    if (is_plus(node)) found.push_back(static_cast<const binary_expression *>(node));
    if (auto array = dynamic_cast<const array_literal *>(node)) {
      for (const auto &item : array->val) item->visit(ctx);
    } else if (auto tuple = dynamic_cast<const tuple_literal *>(node)) {
      for (const auto &item : tuple->val) item->visit(ctx);
    } else if (auto object = dynamic_cast<const object_literal *>(node)) {
      for (const auto &[key, item] : object->val) {
        key->visit(ctx);
        item->visit(ctx);
      }
    }
    if (is_leaf) return;
    for (const auto &[label, nodes] : children) {
      for (const statement *child : nodes) {
        if (child) child->visit(ctx);
      }
    }
  };
  for (const auto &statement : program.body) statement->visit(ctx);
  return found;
}

}  // namespace

void fm_apply_jinja2_semantics(jinja::program &program) {
  struct rewrite {
    binary_expression *node;
    bool escapes_left, escapes_right;
  };
  // Decided on the whole unchanged tree first: is_markup looks into operands not yet wrapped.
  std::vector<rewrite> rewrites;
  for (const binary_expression *node : plus_expressions(program)) {
    const bool left = is_markup(node->left.get()), right = is_markup(node->right.get());
    // The program is ours to change; the visitor hands nodes out const.
    rewrites.push_back({const_cast<binary_expression *>(node), right && !left, left && !right});
  }
  for (auto &[node, escapes_left, escapes_right] : rewrites) {
    node->left = std::make_unique<jinja2_operand>(std::move(node->left), escapes_left);
    node->right = std::make_unique<jinja2_operand>(std::move(node->right), escapes_right);
  }
}

#endif
