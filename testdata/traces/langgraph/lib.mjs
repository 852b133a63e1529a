// Shared by gen.mjs and gen-pause.mjs: the scripted chat model (no network) and the two capture
// tracers (BaseTracer.persistRun roots; the createRun/updateRun calls LangChainTracer makes on its
// LangSmith client, which is replaced by a recorder).
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { BaseTracer } from '@langchain/core/tracers/base';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- scripted chat model
// script: array of functions (messages, callIndex) => {text?, toolCalls?: [{name, args}]}
export class ScriptedChatModel extends BaseChatModel {
  static lc_name() {
    return 'ScriptedChatModel';
  }
  lc_namespace = ['langchain', 'chat_models', 'scripted-fake'];
  constructor(script, opts = {}) {
    super({});
    this.script = script;
    this.calls = 0;
    this.delayMs = opts.delayMs ?? 3;
    this.boundTools = [];
  }
  _llmType() {
    return 'scripted-fake';
  }
  invocationParams() {
    return { model: 'fake-chat-1', temperature: 0 };
  }
  _identifyingParams() {
    return this.invocationParams();
  }
  getLsParams(options) {
    return { ls_provider: 'fake', ls_model_name: 'fake-chat-1', ls_model_type: 'chat', ls_temperature: 0 };
  }
  bindTools(tools) {
    const bound = this.withConfig({
      tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description } })),
    });
    return bound;
  }
  #decide(messages) {
    const i = this.calls++;
    const step = this.script[Math.min(i, this.script.length - 1)];
    const d = step(messages, i);
    return { i: i + 1, ...d };
  }
  async *_streamResponseChunks(messages, options, runManager) {
    const d = this.#decide(messages);
    const id = `msg_fake_${d.i}`;
    const toolCalls = (d.toolCalls ?? []).map((tc, k) => ({
      name: tc.name,
      args: tc.args,
      id: `call_fake_${d.i}_${k + 1}`,
      type: 'tool_call',
    }));
    const usage = { input_tokens: 100 + 10 * d.i, output_tokens: 20 + d.i, total_tokens: 120 + 11 * d.i };
    // stream text in pieces, then tool call chunks, then a final usage chunk
    if (d.text) {
      for (let k = 0; k < d.text.length; k += 10) {
        await sleep(1);
        if (options?.signal?.aborted) throw new Error('Aborted');
        const piece = d.text.slice(k, k + 10);
        const chunk = new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ id, content: piece }) });
        await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
        yield chunk;
      }
    }
    await sleep(this.delayMs);
    if (options?.signal?.aborted) throw new Error('Aborted');
    if (toolCalls.length) {
      const chunk = new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({
          id,
          content: '',
          tool_call_chunks: toolCalls.map((tc, k) => ({
            type: 'tool_call_chunk',
            index: k,
            id: tc.id,
            name: tc.name,
            args: JSON.stringify(tc.args),
          })),
        }),
      });
      await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk });
      yield chunk;
    }
    const last = new ChatGenerationChunk({
      text: '',
      message: new AIMessageChunk({
        id,
        content: '',
        usage_metadata: usage,
        response_metadata: { finish_reason: toolCalls.length ? 'tool_calls' : 'stop', model_name: 'fake-chat-1' },
      }),
    });
    await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk: last });
    yield last;
  }
  async _generate(messages, options, runManager) {
    let final;
    for await (const c of this._streamResponseChunks(messages, options, runManager)) {
      final = final ? final.concat(c) : c;
    }
    return { generations: [{ text: final.text, message: new AIMessage({ ...final.message }) }] };
  }
}

// ---------------------------------------------------------------- tracers (capture)
export class RunTreeCollector extends BaseTracer {
  name = 'run_tree_collector';
  constructor() {
    super();
    this.roots = [];
  }
  async persistRun(run) {
    this.roots.push(run);
  }
}
export function makeLangSmithCapture() {
  const payloads = [];
  const client = {
    async createRun(run) {
      payloads.push(JSON.stringify({ op: 'createRun', run }));
    },
    async updateRun(runId, run) {
      payloads.push(JSON.stringify({ op: 'updateRun', run_id: runId, run }));
    },
    async awaitPendingTraceBatches() {},
  };
  const tracer = new LangChainTracer({ client, projectName: 'lifeline-testdata' });
  return { tracer, payloads };
}

