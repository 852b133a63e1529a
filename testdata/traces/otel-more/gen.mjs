// Generates OTLP fixtures from the Vercel AI SDK's built-in OpenTelemetry spans, offline:
//   ai 6.0.326 (generateText / streamText / ToolLoopAgent with experimental_telemetry) driven by
//   the SDK's own scripted model MockLanguageModelV3 from 'ai/test' (no network),
// into the OpenTelemetry JS SDK (@opentelemetry/sdk-trace 3.1.1, AsyncLocalStorage context
// manager, registered as the global tracer provider, which is what the AI SDK's
// trace.getTracer('ai') uses). Spans go to an InMemorySpanExporter; each <name>.otlp.json is the
// OTLP/HTTP JSON request body (resourceSpans) an OTLP/HTTP JSON exporter would POST for them,
// produced by the SDK's own JsonTraceSerializer (@opentelemetry/otlp-transformer),
// pretty-printed. <name>.otlp.jsonl is the Collector file-exporter shape: one TracesData per line,
// one line per export batch (a BatchSpanProcessor flushed after each run).
//
// The second producer is ai 7.0.173 (npm alias "ai7") with its OpenTelemetry integration
// @ai-sdk/otel 1.0.173 (class OpenTelemetry), which emits OpenTelemetry GenAI semantic-convention
// spans natively: invoke_agent <functionId>, agent_step, chat <model>, execute_tool <tool>
// (files vercel-ai-v7-genai_*), driven by MockLanguageModelV4 from 'ai7/test'.
//
// Usage: npm ci && node gen.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { generateText, streamText, tool, stepCountIs, APICallError, ToolLoopAgent } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import * as ai7 from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { OpenTelemetry } from '@ai-sdk/otel';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Batches handed to the exporter, kept as they came (for the file-exporter shape).
class BatchRecorder {
  constructor() {
    this.batches = [];
  }
  export(spans, done) {
    this.batches.push(spans);
    done({ code: 0 });
  }
  shutdown() {
    return Promise.resolve();
  }
  forceFlush() {
    return Promise.resolve();
  }
}

const memory = new InMemorySpanExporter();
const batches = new BatchRecorder();
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'lifeline-otel-more' }),
  spanProcessors: [
    new SimpleSpanProcessor({ exporter: memory }),
    new BatchSpanProcessor({ exporter: batches, scheduledDelayMillis: 60000 }),
  ],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(provider);

const body = (spans) => JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)));
const scrub = (text) => text.split(HERE).join('/home/user/demo-project');

async function run(fn) {
  try {
    return await fn();
  } catch (e) {
    return `threw ${e?.constructor?.name}: ${e?.message}`;
  }
}

// capture runs fn and writes every span it produced as one OTLP/HTTP JSON body.
async function capture(file, fn) {
  memory.reset();
  const outcome = await run(fn);
  await sleep(20);
  await provider.forceFlush();
  batches.batches = [];
  const spans = memory.getFinishedSpans();
  fs.writeFileSync(path.join(HERE, file), scrub(JSON.stringify(body(spans), null, 1)) + '\n');
  console.log(`${file}: ${spans.length} spans; ${outcome}`);
}

// captureLines runs each fn in turn, flushing the batch processor after each, and writes one
// TracesData per export batch (the Collector file exporter's JSON Lines).
async function captureLines(file, fns) {
  memory.reset();
  await provider.forceFlush();
  batches.batches = [];
  const outcomes = [];
  for (const fn of fns) {
    outcomes.push(await run(fn));
    await sleep(20);
    await provider.forceFlush();
  }
  const lines = batches.batches.map((spans) => scrub(JSON.stringify(body(spans))));
  fs.writeFileSync(path.join(HERE, file), lines.join('\n') + '\n');
  console.log(`${file}: ${lines.length} lines, ${memory.getFinishedSpans().length} spans; ${outcomes.join(' | ')}`);
  batches.batches = [];
}

// ---------------------------------------------------------------- scripted model
let n = 0;
const usage = (i) => ({
  inputTokens: { total: 100 + 10 * i, noCache: 100 + 10 * i, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20 + i, text: 20 + i, reasoning: 0 },
});
const toolCall = (toolName, input) => ({ type: 'tool-call', toolCallId: `call_fake_${String(++n).padStart(3, '0')}`, toolName, input: JSON.stringify(input) });
const text = (t) => ({ type: 'text', text: t });
const calls = (...c) => ({ content: c, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
const answer = (t) => ({ content: [text(t)], finishReason: { unified: 'stop', raw: 'stop' } });

// scripted returns a MockLanguageModelV3 (V4 for ai 7) whose k-th doGenerate returns script[k]
// (a decision object, or a function of the call options that returns one or throws).
function scripted(script, Mock = MockLanguageModelV3) {
  let k = 0;
  return new Mock({
    provider: 'fake-provider',
    modelId: 'fake-model-1',
    doGenerate: async (opts) => {
      const i = k++;
      await sleep(3);
      let d = script[Math.min(i, script.length - 1)];
      if (typeof d === 'function') d = await d(opts, i);
      return { ...d, usage: usage(i), warnings: [], response: { id: `resp_fake_${i + 1}`, modelId: 'fake-model-1', timestamp: new Date() } };
    },
  });
}

// streamed returns a MockLanguageModelV3 whose k-th doStream streams script[k].
function streamed(script, Mock = MockLanguageModelV3) {
  let k = 0;
  return new Mock({
    provider: 'fake-provider',
    modelId: 'fake-model-1',
    doStream: async () => {
      const i = k++;
      const d = script[Math.min(i, script.length - 1)];
      const chunks = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: `resp_fake_s${i + 1}`, modelId: 'fake-model-1', timestamp: new Date() }];
      for (const part of d.content) {
        if (part.type === 'text') {
          chunks.push({ type: 'text-start', id: 't1' });
          for (const w of part.text.split(/(?<= )/)) chunks.push({ type: 'text-delta', id: 't1', delta: w });
          chunks.push({ type: 'text-end', id: 't1' });
        } else {
          chunks.push(part);
        }
      }
      chunks.push({ type: 'finish', finishReason: d.finishReason, usage: usage(i) });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: 3, chunkDelayInMs: 1 }) };
    },
  });
}

// ---------------------------------------------------------------- tools
const getWeather = tool({
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    await sleep(3);
    return `Weather in ${city}: 18C, light rain`;
  },
});
const getFx = tool({
  description: 'Exchange rate between two currencies.',
  inputSchema: z.object({ from: z.string(), to: z.string() }),
  execute: async ({ from, to }) => {
    await sleep(4);
    return `1 ${from} = 1.08 ${to}`;
  },
});
const lookupOrder = tool({
  description: 'Look up an order by id.',
  inputSchema: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => {
    await sleep(2);
    throw new Error(`order database unavailable (order ${order_id})`);
  },
});
const telemetry = (functionId, metadata) => ({ isEnabled: true, functionId, metadata });

// 01: multi-step tool loop: weather, then exchange rate, then the answer.
await capture('vercel-ai_01_tool_loop.otlp.json', async () => {
  const r = await generateText({
    model: scripted([calls(toolCall('get_weather', { city: 'Rome' })), calls(toolCall('get_exchange_rate', { from: 'EUR', to: 'USD' })), answer('Rome is 18C and rainy; 1 EUR is 1.08 USD.')]),
    tools: { get_weather: getWeather, get_exchange_rate: getFx },
    stopWhen: stepCountIs(5),
    prompt: 'Weather in Rome, and the EUR/USD rate?',
    experimental_telemetry: telemetry('travel-assistant'),
  });
  return `${r.steps.length} steps; final: ${r.text}`;
});

// 02: a tool throws; the AI SDK returns the error to the model as a tool-error result; the
// model answers.
await capture('vercel-ai_02_tool_error.otlp.json', async () => {
  const r = await generateText({
    model: scripted([calls(toolCall('lookup_order', { order_id: 'A-1001' })), answer('Sorry, the order system is unavailable right now.')]),
    tools: { lookup_order: lookupOrder },
    stopWhen: stepCountIs(5),
    prompt: 'Where is my order A-1001?',
    experimental_telemetry: telemetry('order-support'),
  });
  return `${r.steps.length} steps; final: ${r.text}`;
});

// 03: three tool calls in one response (executed in parallel), then the answer.
await capture('vercel-ai_03_parallel_tools.otlp.json', async () => {
  const r = await generateText({
    model: scripted([
      calls(toolCall('get_weather', { city: 'Rome' }), toolCall('get_weather', { city: 'Paris' }), toolCall('get_exchange_rate', { from: 'EUR', to: 'GBP' })),
      answer('Rome 18C, Paris 18C, 1 EUR = 1.08 GBP.'),
    ]),
    tools: { get_weather: getWeather, get_exchange_rate: getFx },
    stopWhen: stepCountIs(5),
    prompt: 'Weather in Rome and Paris, and EUR/GBP?',
    experimental_telemetry: telemetry('travel-assistant'),
  });
  return `${r.steps.length} steps; final: ${r.text}`;
});

// 04: stopWhen stepCountIs(2) reached while the model still calls tools: generateText returns
// normally after the second step's tool call, with finishReason tool-calls and no final answer.
await capture('vercel-ai_04_step_limit.otlp.json', async () => {
  const r = await generateText({
    model: scripted([calls(toolCall('get_weather', { city: 'Rome' })), calls(toolCall('get_weather', { city: 'Milan' })), answer('never reached')]),
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(2),
    prompt: 'Weather in every Italian city?',
    experimental_telemetry: telemetry('travel-assistant'),
  });
  return `${r.steps.length} steps; finishReason ${r.finishReason}; text ${JSON.stringify(r.text)}`;
});

// 05: the provider fails on the second model call (retryable 500), is retried once
// (maxRetries: 1), fails again; generateText throws RetryError.
await capture('vercel-ai_05_model_error.otlp.json', async () => {
  const fail = () => {
    throw new APICallError({
      message: 'The server had an error while processing your request.',
      url: 'http://127.0.0.1:1/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 500,
      isRetryable: true,
    });
  };
  const r = await generateText({
    model: scripted([calls(toolCall('get_weather', { city: 'Rome' })), fail, fail]),
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(5),
    maxRetries: 1,
    prompt: 'Weather in Rome?',
    experimental_telemetry: telemetry('travel-assistant'),
  });
  return `unexpectedly completed: ${r.text}`;
});

// 06: streamText tool loop: weather tool, then a streamed answer.
await capture('vercel-ai_06_stream_text.otlp.json', async () => {
  const r = streamText({
    model: streamed([calls(toolCall('get_weather', { city: 'Oslo' })), answer('Oslo is 18C with light rain.')]),
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(5),
    prompt: 'Weather in Oslo?',
    experimental_telemetry: telemetry('travel-assistant'),
  });
  const t = await r.text;
  return `${(await r.steps).length} steps; final: ${t}`;
});

// 07: AbortSignal fired during the second model call.
await capture('vercel-ai_07_aborted.otlp.json', async () => {
  const ac = new AbortController();
  const r = await generateText({
    model: scripted([
      calls(toolCall('get_weather', { city: 'Rome' })),
      async (opts) => {
        setTimeout(() => ac.abort(), 5);
        await new Promise((resolve, reject) => {
          opts.abortSignal?.addEventListener('abort', () => reject(opts.abortSignal.reason));
          setTimeout(resolve, 1000);
        });
        return answer('too late');
      },
    ]),
    tools: { get_weather: getWeather },
    stopWhen: stepCountIs(5),
    abortSignal: ac.signal,
    prompt: 'Weather in Rome?',
    experimental_telemetry: telemetry('travel-assistant'),
  });
  return `unexpectedly completed: ${r.text}`;
});

// 08: agent as a tool: the outer ToolLoopAgent's `research` tool runs an inner generateText
// (its own tool loop); the outer agent then answers.
await capture('vercel-ai_08_subagent.otlp.json', async () => {
  const research = tool({
    description: 'Research a question with a helper agent.',
    inputSchema: z.object({ question: z.string() }),
    execute: async ({ question }) => {
      const inner = await generateText({
        model: scripted([calls(toolCall('get_exchange_rate', { from: 'EUR', to: 'JPY' })), answer('1 EUR = 1.08 JPY (fake).')]),
        tools: { get_exchange_rate: getFx },
        stopWhen: stepCountIs(3),
        prompt: question,
        experimental_telemetry: telemetry('research-helper'),
      });
      return inner.text;
    },
  });
  const agent = new ToolLoopAgent({
    model: scripted([calls(toolCall('research', { question: 'EUR to JPY?' })), answer('About 1.08 JPY per EUR (fake data).')]),
    tools: { research },
    stopWhen: stepCountIs(4),
    experimental_telemetry: telemetry('concierge'),
  });
  const r = await agent.generate({ prompt: 'How many yen is one euro?' });
  return `${r.steps.length} steps; final: ${r.text}`;
});

// 09 (file-exporter shape): two generateText runs of one conversation, tagged with
// experimental_telemetry.metadata.sessionId (the convention Langfuse reads), one line per batch.
await captureLines('vercel-ai_09_two_runs_session.otlp.jsonl', [
  async () => {
    const r = await generateText({
      model: scripted([calls(toolCall('get_weather', { city: 'Lisbon' })), answer('Lisbon: 18C, light rain.')]),
      tools: { get_weather: getWeather },
      stopWhen: stepCountIs(5),
      prompt: 'Weather in Lisbon?',
      experimental_telemetry: telemetry('travel-assistant', { sessionId: 'chat-otel-more-09', userId: 'user-42' }),
    });
    return `run 1: ${r.steps.length} steps`;
  },
  async () => {
    const r = await generateText({
      model: scripted([answer('You asked about Lisbon.')]),
      tools: { get_weather: getWeather },
      stopWhen: stepCountIs(5),
      messages: [
        { role: 'user', content: 'Weather in Lisbon?' },
        { role: 'assistant', content: 'Lisbon: 18C, light rain.' },
        { role: 'user', content: 'Which city did I ask about?' },
      ],
      experimental_telemetry: telemetry('travel-assistant', { sessionId: 'chat-otel-more-09', userId: 'user-42' }),
    });
    return `run 2: ${r.steps.length} steps`;
  },
]);

// ---------------------------------------------------------------- ai 7 + @ai-sdk/otel (GenAI)
const genai = (functionId) => ({ functionId, integrations: [new OpenTelemetry({ tracer: provider.getTracer('gen_ai') })] });
const tool7 = (t) => ai7.tool({ description: t.description, inputSchema: t.inputSchema, execute: t.execute });
const v7tools = { get_weather: tool7(getWeather), get_exchange_rate: tool7(getFx), lookup_order: tool7(lookupOrder) };

// v7 01: step 1 asks for get_weather and lookup_order in parallel (lookup_order throws, the error
// goes back to the model), step 2 asks for get_exchange_rate, step 3 answers.
await capture('vercel-ai-v7-genai_01_tool_loop.otlp.json', async () => {
  const r = await ai7.generateText({
    model: scripted(
      [
        calls(toolCall('get_weather', { city: 'Rome' }), toolCall('lookup_order', { order_id: 'A-1001' })),
        calls(toolCall('get_exchange_rate', { from: 'EUR', to: 'USD' })),
        answer('Rome is 18C; the order system is down; 1 EUR = 1.08 USD.'),
      ],
      MockLanguageModelV4,
    ),
    tools: v7tools,
    stopWhen: ai7.stepCountIs(5),
    prompt: 'Weather in Rome, my order A-1001, and EUR/USD?',
    telemetry: genai('travel-assistant'),
  });
  return `${r.steps.length} steps; final: ${r.text}`;
});

// v7 02: streamText: get_weather, then a streamed answer.
await capture('vercel-ai-v7-genai_02_stream_text.otlp.json', async () => {
  const r = ai7.streamText({
    model: streamed([calls(toolCall('get_weather', { city: 'Oslo' })), answer('Oslo is 18C with light rain.')], MockLanguageModelV4),
    tools: v7tools,
    stopWhen: ai7.stepCountIs(5),
    prompt: 'Weather in Oslo?',
    telemetry: genai('travel-assistant'),
  });
  const t = await r.text;
  return `${(await r.steps).length} steps; final: ${t}`;
});

// v7 03: stopWhen stepCountIs(2) reached while the model still calls tools.
await capture('vercel-ai-v7-genai_03_step_limit.otlp.json', async () => {
  const r = await ai7.generateText({
    model: scripted([calls(toolCall('get_weather', { city: 'Rome' })), calls(toolCall('get_weather', { city: 'Milan' })), answer('never reached')], MockLanguageModelV4),
    tools: v7tools,
    stopWhen: ai7.stepCountIs(2),
    prompt: 'Weather in every Italian city?',
    telemetry: genai('travel-assistant'),
  });
  return `${r.steps.length} steps; finishReason ${r.finishReason}; text ${JSON.stringify(r.text)}`;
});

await provider.shutdown();
