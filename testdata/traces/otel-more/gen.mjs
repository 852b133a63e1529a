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
import { z } from 'zod';
import { generateText, streamText, tool, stepCountIs, APICallError, ToolLoopAgent } from 'ai';
import * as ai7 from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { OpenTelemetry } from '@ai-sdk/otel';
import { provider, capture, captureLines, toolCall, text, calls, answer, scripted, streamed, getWeather, getFx, lookupOrder, telemetry } from './harness.mjs';


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
