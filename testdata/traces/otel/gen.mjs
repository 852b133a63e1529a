// Generates OpenInference OTLP fixtures offline:
//   @arizeai/openinference-instrumentation-openai-agents 0.2.15 over @openai/agents 0.20.0
//   @arizeai/openinference-instrumentation-langchain 4.1.1 over @langchain/langgraph 1.7.3
// into the OpenTelemetry JS SDK (@opentelemetry/sdk-trace 3.1.1). Spans go to an
// InMemorySpanExporter; each fixture is the OTLP/HTTP JSON request body (resourceSpans) that an
// OTLP/HTTP JSON exporter would POST for those spans, produced by the SDK's own
// JsonTraceSerializer (@opentelemetry/otlp-transformer), pretty-printed.
// Models are scripted (no network).
//
// Usage: npm ci && node gen.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import * as agents from '@openai/agents';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { tool as lcTool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

const oaInst = new OpenAIAgentsInstrumentation({ tracerProvider: provider });
oaInst.manuallyInstrument(agents);
const lcInst = new LangChainInstrumentation({ tracerProvider: provider });
lcInst.manuallyInstrument(CallbackManagerModule);

async function capture(file, fn) {
  exporter.reset();
  let outcome;
  try {
    outcome = await fn();
  } catch (e) {
    outcome = `threw ${e?.constructor?.name}: ${e?.message}`;
  }
  await sleep(50);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const body = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)));
  const text = JSON.stringify(body, null, 1).split(HERE).join('/home/user/demo-project');
  fs.writeFileSync(path.join(HERE, file), text + '\n');
  console.log(`${file}: ${spans.length} spans; ${outcome}`);
}

// ---------------------------------------------------------------- OpenAI Agents scripted model
const { Agent, Runner, tool, handoff, withGenerationSpan, Usage } = agents;
let idCounter = 0;
const nextId = (p) => `${p}_fake_${String(++idCounter).padStart(3, '0')}`;
const call = (name, args) => ({
  type: 'function_call',
  id: nextId('fc'),
  callId: nextId('call'),
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const say = (text) => ({
  type: 'message',
  id: nextId('msg'),
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});
class ScriptedModel {
  constructor(script) {
    this.script = script;
    this.calls = 0;
  }
  async getResponse(request) {
    const idx = this.calls++;
    return withGenerationSpan(
      async (span) => {
        span.spanData.model = 'fake-gpt-1';
        span.spanData.model_config = { base_url: 'fake://scripted-model' };
        if (request.tracing === true)
          span.spanData.input = typeof request.input === 'string' ? [{ type: 'message', role: 'user', content: request.input }] : request.input;
        await sleep(3);
        const output = this.script[Math.min(idx, this.script.length - 1)](request, idx); // may throw
        const u = { input: 110 + 10 * idx, output: 21 + idx };
        if (request.tracing === true) span.spanData.output = output;
        span.spanData.usage = { input_tokens: u.input, output_tokens: u.output };
        return {
          usage: new Usage({ requests: 1, inputTokens: u.input, outputTokens: u.output, totalTokens: u.input + u.output }),
          output,
          responseId: nextId('resp'),
        };
      },
      undefined,
      request._internal?.tracingParent,
    );
  }
  async *getStreamedResponse() {
    throw new Error('not used');
  }
}
const runnerFor = (model, workflowName, groupId) =>
  new Runner({ modelProvider: { getModel: () => model }, workflowName, groupId, traceMetadata: { generator: 'lifeline-testdata' } });

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    await sleep(3);
    return `Weather in ${city}: 18C, light rain`;
  },
});
const getFx = tool({
  name: 'get_exchange_rate',
  description: 'Exchange rate between two currencies.',
  parameters: z.object({ from: z.string(), to: z.string() }),
  execute: async ({ from, to }) => {
    await sleep(4);
    return `1 ${from} = 1.08 ${to}`;
  },
});

// openai-agents 02: model/provider error on the second model call; the run fails.
await capture('openai-agents_02_model_error.otlp.json', async () => {
  const model = new ScriptedModel([
    () => [call('get_weather', { city: 'Rome' })],
    () => {
      const e = new Error('500 The server had an error while processing your request.');
      e.status = 500;
      throw e;
    },
  ]);
  const agent = new Agent({ name: 'travel_assistant', instructions: 'Help travellers.', tools: [getWeather] });
  await runnerFor(model, 'otel-02-model-error', 'conv_otel_02').run(agent, 'Weather in Rome?');
  return 'unexpectedly completed';
});

// openai-agents 03: handoff from triage_agent to billing_agent, which calls a tool and answers.
await capture('openai-agents_03_handoff.otlp.json', async () => {
  const model = new ScriptedModel([
    () => [call('transfer_to_billing_agent', {})],
    () => [call('get_exchange_rate', { from: 'EUR', to: 'USD' })],
    () => [say('Your invoice of 100 EUR is about 108 USD.')],
  ]);
  const billing = new Agent({ name: 'billing_agent', instructions: 'Answer billing questions.', tools: [getFx] });
  const triage = new Agent({ name: 'triage_agent', instructions: 'Route the user.', handoffs: [handoff(billing)] });
  const r = await runnerFor(model, 'otel-03-handoff', 'conv_otel_03').run(triage, 'How much is my 100 EUR invoice in USD?');
  return `final (${r.lastAgent?.name}): ${r.finalOutput}`;
});

// ---------------------------------------------------------------- LangGraph scripted chat model
class ScriptedChatModel extends BaseChatModel {
  static lc_name() {
    return 'ScriptedChatModel';
  }
  lc_namespace = ['langchain', 'chat_models', 'scripted-fake'];
  constructor(script) {
    super({});
    this.script = script;
    this.calls = 0;
  }
  _llmType() {
    return 'scripted-fake';
  }
  invocationParams() {
    return { model: 'fake-chat-1', temperature: 0 };
  }
  getLsParams() {
    return { ls_provider: 'fake', ls_model_name: 'fake-chat-1', ls_model_type: 'chat', ls_temperature: 0 };
  }
  bindTools(tools) {
    return this.withConfig({ tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description } })) });
  }
  async _generate(messages) {
    const i = ++this.calls;
    const d = this.script[Math.min(i - 1, this.script.length - 1)](messages, i - 1);
    await sleep(3);
    const toolCalls = (d.toolCalls ?? []).map((tc, k) => ({ name: tc.name, args: tc.args, id: `call_fake_${i}_${k + 1}`, type: 'tool_call' }));
    const message = new AIMessage({
      id: `msg_fake_${i}`,
      content: d.text ?? '',
      tool_calls: toolCalls,
      usage_metadata: { input_tokens: 100 + 10 * i, output_tokens: 20 + i, total_tokens: 120 + 11 * i },
      response_metadata: { finish_reason: toolCalls.length ? 'tool_calls' : 'stop', model_name: 'fake-chat-1' },
    });
    return { generations: [{ text: d.text ?? '', message }] };
  }
}
void AIMessageChunk;
void ChatGenerationChunk;

const lookupOrder = lcTool(
  async ({ order_id }) => {
    await sleep(2);
    throw new Error(`order database unavailable (order ${order_id})`);
  },
  { name: 'lookup_order', description: 'Look up an order by id.', schema: z.object({ order_id: z.string() }) },
);

// langgraph 02: a tool throws; ToolNode returns the error to the model, which answers.
await capture('langgraph_02_tool_error.otlp.json', async () => {
  const model = new ScriptedChatModel([
    () => ({ toolCalls: [{ name: 'lookup_order', args: { order_id: 'A-1001' } }] }),
    () => ({ text: 'Sorry, the order system is unavailable right now.' }),
  ]);
  const graph = createReactAgent({ llm: model, tools: [lookupOrder], name: 'otel-lg-02' });
  const out = await graph.invoke({ messages: [new HumanMessage('Where is my order A-1001?')] }, { configurable: { thread_id: 'thread-otel-02' } });
  return `final: ${out.messages.at(-1).content}`;
});

await provider.shutdown();
