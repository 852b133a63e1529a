"""A small tool-calling agent instrumented with the OpenTelemetry Python SDK, for trying
`lifeline serve` (README: "lifeline serve").

It exports its spans with the SDK's own OTLP/HTTP protobuf exporter
(opentelemetry-exporter-otlp-proto-http), configured only by the standard environment
variables: OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 (or
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:4318/v1/traces), OTEL_EXPORTER_OTLP_HEADERS
for a token ("Authorization=Bearer T"), OTEL_SERVICE_NAME. The spans follow the OpenTelemetry
GenAI semantic conventions an instrumented agent framework writes: an `invoke_agent` span for
each run, a `chat` span for each model call (gen_ai.input.messages / gen_ai.output.messages,
token usage, finish reasons) and an `execute_tool` span for each tool call, children of the run.

The model is scripted (no network, no key): each scenario says what it answers at each step.
The agent loop is an ordinary one: call the model, run the tool calls it asks for, feed their
results back, stop on an answer, on a model error, or at max_steps (then the run span ends in
error "max_steps"). At the end it prints, as JSON, what it did: the runs with their steps, tool
calls, outcome and the error of each failed tool call, for comparing with what lifeline shows.

    pip install -r scripts/serve/requirements.txt
    OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 python scripts/serve/otel_agent.py
"""

import json
import sys

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Status, StatusCode

MODEL = "scripted-model-1"


class ModelError(Exception):
    pass


class ToolError(Exception):
    pass


def get_weather(city):
    if city == "Atlantis":
        raise ToolError("no weather station in " + city)
    return {"city": city, "temp_c": {"Paris": 18, "Oslo": 7}.get(city, 21)}


def convert(amount, to):
    return {"amount": round(amount * 0.92, 2), "currency": to}


TOOLS = {"get_weather": get_weather, "convert": convert}

# Each scenario: the agent's name, the session it belongs to, the user's question, max_steps,
# and what the scripted model does at each step: ("tools", [(name, args), ...]), ("answer",
# text) or ("error", message).
SCENARIOS = [
    ("travel-assistant", "demo-session-1", "Weather in Paris and Oslo?", 5, [
        ("tools", [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Oslo"})]),
        ("answer", "Paris 18 C, Oslo 7 C."),
    ]),
    ("travel-assistant", "demo-session-1", "And in Atlantis?", 5, [
        ("tools", [("get_weather", {"city": "Atlantis"})]),
        ("answer", "I could not get the weather in Atlantis."),
    ]),
    ("budget-assistant", "demo-session-2", "Convert 100 USD to EUR, then again, and again", 3, [
        ("tools", [("convert", {"amount": 100, "to": "EUR"})]),
        ("tools", [("convert", {"amount": 92, "to": "EUR"})]),
        ("tools", [("convert", {"amount": 84.64, "to": "EUR"})]),
        ("tools", [("convert", {"amount": 77.87, "to": "EUR"})]),
    ]),
    ("budget-assistant", "demo-session-3", "What is my budget?", 5, [
        ("error", "upstream model overloaded (HTTP 529)"),
    ]),
]


def run(tracer, agent, session, question, max_steps, script):
    """One run of the agent loop; returns what it did."""
    did = {"agent": agent, "session": session, "steps": 0, "tool_calls": 0, "tool_errors": [], "outcome": ""}
    messages = [{"role": "user", "parts": [{"type": "text", "content": question}]}]
    call_n = 0
    with tracer.start_as_current_span("invoke_agent " + agent, attributes={
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": agent,
        "gen_ai.conversation.id": session,
        "gen_ai.request.model": MODEL,
    }) as root:
        did["run_id"] = format(root.get_span_context().trace_id, "032x")
        for step in range(max_steps + 1):
            if step == max_steps:
                did["outcome"] = "max_steps"
                root.set_attribute("error.type", "max_steps")
                root.set_status(Status(StatusCode.ERROR, "agent stopped after %d steps without an answer" % max_steps))
                break
            kind, what = script[step]
            did["steps"] += 1
            with tracer.start_as_current_span("chat " + MODEL, attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": MODEL,
                "gen_ai.input.messages": json.dumps(messages),
            }) as chat:
                if kind == "error":
                    chat.set_attribute("error.type", "ModelError")
                    chat.record_exception(ModelError(what))
                    chat.set_status(Status(StatusCode.ERROR, what))
                    did["outcome"] = "model_error"
                    root.set_attribute("error.type", "ModelError")
                    root.set_status(Status(StatusCode.ERROR, what))
                    break
                chat.set_attribute("gen_ai.response.model", MODEL)
                chat.set_attribute("gen_ai.usage.input_tokens", 40 + 15 * step)
                chat.set_attribute("gen_ai.usage.output_tokens", 12)
                if kind == "answer":
                    out = [{"role": "assistant", "parts": [{"type": "text", "content": what}], "finish_reason": "stop"}]
                    chat.set_attribute("gen_ai.output.messages", json.dumps(out))
                    chat.set_attribute("gen_ai.response.finish_reasons", ["stop"])
                    messages += out
                    did["outcome"] = "answer"
                    root.set_attribute("gen_ai.response.finish_reasons", ["stop"])
                    break
                calls = []
                for name, args in what:
                    call_n += 1
                    calls.append({"type": "tool_call", "id": "call_%s_%d" % (did["run_id"][:8], call_n), "name": name, "arguments": args})
                out = [{"role": "assistant", "parts": calls, "finish_reason": "tool_calls"}]
                chat.set_attribute("gen_ai.output.messages", json.dumps(out))
                chat.set_attribute("gen_ai.response.finish_reasons", ["tool_calls"])
                messages += out
            results = []
            for c in calls:
                did["tool_calls"] += 1
                with tracer.start_as_current_span("execute_tool " + c["name"], attributes={
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": c["name"],
                    "gen_ai.tool.call.id": c["id"],
                    "gen_ai.tool.call.arguments": json.dumps(c["arguments"]),
                }) as tool:
                    try:
                        result = TOOLS[c["name"]](**c["arguments"])
                        tool.set_attribute("gen_ai.tool.call.result", json.dumps(result))
                    except ToolError as e:
                        did["tool_errors"].append(c["name"] + ": " + str(e))
                        tool.set_attribute("error.type", "ToolError")
                        tool.record_exception(e)
                        tool.set_status(Status(StatusCode.ERROR, str(e)))
                        result = {"error": str(e)}
                results.append({"type": "tool_call_response", "id": c["id"], "response": result})
            messages.append({"role": "tool", "parts": results})
    return did


def main():
    provider = TracerProvider(resource=Resource.create({"service.name": "lifeline-otel-agent"}))
    exporter = OTLPSpanExporter()  # endpoint, headers from OTEL_EXPORTER_OTLP_* (default http://localhost:4318/v1/traces)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    tracer = provider.get_tracer("lifeline-otel-agent", "1")
    runs = [run(tracer, *sc) for sc in SCENARIOS]
    provider.force_flush()
    provider.shutdown()
    json.dump({"runs": runs}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
