"""Drives a running `fm serve`'s Messages API with the official `anthropic` package; exits 0 when
every check holds.

Usage: python3 anthropic_client_check.py BASE_URL MODEL_ID API_KEY
Checks properties only (shapes, tool input conformance, the cache, error classes), never
particular text or lengths.
"""
import sys

import anthropic

base, model, key = sys.argv[1], sys.argv[2], sys.argv[3]
client = anthropic.Anthropic(base_url=base, api_key=key, max_retries=0)
failures = []


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def finished(message, budget):
    used = message.usage.output_tokens
    reason = message.stop_reason
    return used <= budget and (reason == "max_tokens") == (used == budget) and reason in ("end_turn", "max_tokens")


system = "You are a helpful assistant. Answer in one short sentence."
user = [{"role": "user", "content": "Name a colour."}]
m = client.messages.create(model=model, max_tokens=12, system=system, messages=user)
check("id", m.id.startswith("msg_"), m.id)
check("role", m.type == "message" and m.role == "assistant", m)
check("blocks", [b.type for b in m.content] == ["text"], m.content)
check("finished", finished(m, 12), (m.stop_reason, m.usage))

# The same conversation resent with one more turn: its prefix comes from the cache.
again = client.messages.create(
    model=model,
    max_tokens=12,
    system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
    messages=user + [{"role": "assistant", "content": m.content}, {"role": "user", "content": "Another one."}],
)
total_before = m.usage.input_tokens + m.usage.cache_read_input_tokens
check("cache read", again.usage.cache_read_input_tokens >= total_before - 1, (m.usage, again.usage))

# A stop sequence: the answer ends before it, and the reason names it.
s = client.messages.create(model=model, max_tokens=40, messages=[{"role": "user", "content": "Count: 1, 2, 3"}],
                           stop_sequences=[","], extra_body={"temperature": 0})
if s.stop_reason == "stop_sequence":
    check("stop text", s.stop_sequence == "," and "," not in s.content[0].text, s)

# Tools, streamed: a forced call whose input satisfies the schema, then its result.
tools = [
    {
        "name": "get_weather",
        "description": "The weather in a city",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string", "enum": ["Paris", "Oslo", "Rome"]}}, "required": ["city"]},
    }
]
question = [{"role": "user", "content": "What is the weather in Paris?"}]
with client.messages.stream(
    model=model, max_tokens=80, messages=question, tools=tools, tool_choice={"type": "tool", "name": "get_weather"}
) as stream:
    kinds = [event.type for event in stream]
    final = stream.get_final_message()
check("stream order", kinds[0] == "message_start" and kinds[-1] == "message_stop", kinds)
if final.stop_reason == "tool_use":
    uses = [b for b in final.content if b.type == "tool_use"]
    check("a call", len(uses) >= 1 and uses[0].name == "get_weather" and uses[0].id.startswith("toolu_"), final.content)
    check("input", set(uses[0].input) == {"city"} and isinstance(uses[0].input["city"], str), uses[0].input)
    results = [{"type": "tool_result", "tool_use_id": u.id, "content": "Sunny, 21 C"} for u in uses]
    after = client.messages.create(
        model=model,
        max_tokens=12,
        messages=question + [{"role": "assistant", "content": final.content}, {"role": "user", "content": results}],
        tools=tools,
        tool_choice={"type": "none"},
    )
    check("after the result", finished(after, 12) and all(b.type == "text" for b in after.content), after)
else:
    check("call budget", final.stop_reason == "max_tokens", final)

# Counting tokens: the prompt the model would evaluate.
count = client.messages.count_tokens(model=model, messages=user, system=system)
check("count", count.input_tokens == m.usage.input_tokens + m.usage.cache_read_input_tokens, (count, m.usage))

# Refusals are the client's usual exceptions, with Anthropic's error shape.
try:
    client.messages.create(model=model, max_tokens=5, messages=user, extra_body={"top_k": 2, "top_p": 0.5})
    check("both samplers", False, "accepted")
except anthropic.BadRequestError as error:
    check("error shape", error.body["type"] == "error" and error.body["error"]["type"] == "invalid_request_error", error.body)
try:
    client.messages.create(model="no-such-model", max_tokens=5, messages=user)
    check("unknown model", False, "accepted")
except anthropic.NotFoundError as error:
    check("404 shape", error.body["error"]["type"] == "not_found_error", error.body)
try:
    anthropic.Anthropic(base_url=base, api_key="wrong", max_retries=0).messages.create(
        model=model, max_tokens=5, messages=user
    )
    check("wrong key", False, "accepted")
except anthropic.AuthenticationError:
    pass

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
