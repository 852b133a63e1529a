// Shared by gen.mjs and gen-approval.mjs: the capture (a TracingProcessor writing Trace.toJSON()
// at trace start and Span.toJSON() at span end, one per line) and the scripted model (no network).
import {
  setTraceProcessors,
  setTracingDisabled,
  withGenerationSpan,
  createGenerationSpan,
  setCurrentSpan,
  resetCurrentSpan,
  Usage,
} from '@openai/agents';

// ---------------------------------------------------------------- capture
// sink is the array of lines of the current fixture (null: not capturing)
export const cap = { sink: null };
class JsonlProcessor {
  async onTraceStart(trace) {
    const j = trace.toJSON();
    if (j && cap.sink) cap.sink.push(JSON.stringify(j));
  }
  async onTraceEnd() {}
  async onSpanStart() {}
  async onSpanEnd(span) {
    const j = span.toJSON();
    if (j && cap.sink) cap.sink.push(JSON.stringify(j));
  }
  async shutdown() {}
  async forceFlush() {}
}
setTracingDisabled(false);
setTraceProcessors([new JsonlProcessor()]);

// ---------------------------------------------------------------- scripted model
export const ids = { n: 0 };
export const nextId = (p) => `${p}_fake_${String(++ids.n).padStart(3, '0')}`;
export const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    if (signal) {
      if (signal.aborted) {
        clearTimeout(t);
        reject(signal.reason ?? new Error('aborted'));
        return;
      }
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          const e = new Error('Request was aborted.');
          e.name = 'AbortError';
          reject(e);
        },
        { once: true },
      );
    }
  });

// helpers to build scripted output items
export const call = (name, args) => ({
  type: 'function_call',
  id: nextId('fc'),
  callId: nextId('call'),
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
export const say = (text) => ({
  type: 'message',
  id: nextId('msg'),
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

// A script is an array of "responses"; each response is a function (request) => output items,
// or an object {delayMs, output}. Tokens are synthetic but deterministic.
export class ScriptedModel {
  constructor(script, name = 'fake-gpt-1') {
    this.script = script;
    this.name = name;
    this.calls = 0;
  }
  #next(request) {
    const i = this.calls++;
    const step = this.script[Math.min(i, this.script.length - 1)];
    const s = typeof step === 'function' ? step(request, i) : step;
    return Array.isArray(s) ? { output: s, delayMs: 3 } : { delayMs: 3, ...s };
  }
  #usage(i) {
    return { input: 110 + 10 * i, output: 21 + i };
  }
  async getResponse(request) {
    const idx = this.calls;
    return withGenerationSpan(
      async (span) => {
        span.spanData.model = this.name;
        span.spanData.model_config = { base_url: 'fake://scripted-model' };
        if (request.tracing === true) span.spanData.input = typeof request.input === 'string'
          ? [{ type: 'message', role: 'user', content: request.input }]
          : request.input;
        const { output, delayMs } = this.#next(request);
        await sleep(delayMs, request.signal);
        const u = this.#usage(idx);
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
  async *getStreamedResponse(request) {
    const idx = this.calls;
    const span = request.tracing ? createGenerationSpan(undefined, request._internal?.tracingParent) : undefined;
    try {
      if (span) {
        span.spanData.model = this.name;
        span.spanData.model_config = { base_url: 'fake://scripted-model' };
        if (request.tracing === true) span.spanData.input = typeof request.input === 'string'
          ? [{ type: 'message', role: 'user', content: request.input }]
          : request.input;
        span.start();
        setCurrentSpan(span);
      }
      const { output, delayMs } = this.#next(request);
      const u = this.#usage(idx);
      const responseId = nextId('resp');
      yield { type: 'response_started', providerData: {} };
      for (const item of output) {
        if (item.type === 'message') {
          const text = item.content[0].text;
          for (let k = 0; k < text.length; k += 12) {
            await sleep(1, request.signal);
            yield { type: 'output_text_delta', delta: text.slice(k, k + 12), providerData: {} };
          }
        } else {
          await sleep(delayMs, request.signal);
        }
      }
      if (span && request.tracing === true) span.spanData.output = output;
      if (span) span.spanData.usage = { input_tokens: u.input, output_tokens: u.output };
      yield {
        type: 'response_done',
        response: {
          id: responseId,
          usage: { requests: 1, inputTokens: u.input, outputTokens: u.output, totalTokens: u.input + u.output },
          output,
        },
      };
    } catch (err) {
      if (span) span.setError({ message: 'Error streaming response', data: { error: String(err) } });
      throw err;
    } finally {
      if (span) {
        span.end();
        resetCurrentSpan();
      }
    }
  }
}
export class ScriptedProvider {
  constructor(model) {
    this.model = model;
  }
  getModel() {
    return this.model;
  }
}

