// Shared by gen.mjs and gen_approval.mjs: the OpenTelemetry JS SDK set up as README.md says
// (an InMemorySpanExporter for whole bodies, a BatchSpanProcessor for the Collector file
// exporter's batches), the capture helpers, the scripted models and the tools.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { tool } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';

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

export { sleep, BatchRecorder, memory, batches, provider, body, scrub, run, capture, captureLines, usage, toolCall, text, calls, answer, scripted, streamed, getWeather, getFx, lookupOrder, telemetry };
