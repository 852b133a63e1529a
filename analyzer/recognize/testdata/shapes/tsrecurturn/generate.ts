// tsrecurturn: a tool loop that is a recursion through helpers handing the turn on in an
// options object, reduced from @genkit-ai/ai@1.42.0 src/generate/action.ts: generateHelper
// (127-164: const currentTurn = options.currentTurn ?? 0, then a tracing span's callback calls
// generateActionImpl with { currentTurn }), generateActionImpl (232-331: const { currentTurn }
// = args, then generateActionTurn({ ...args })), generateActionTurn (337-570: destructured
// parameters; the bound read as `const maxIterations = rawRequest.maxTurns ?? 5; if
// (currentTurn + 1 > maxIterations) throw` at 514-516; the recursion `generateHelper(registry,
// { currentTurn: currentTurn + 1, abortSignal })` at 562-569). A restart's tool interruption
// (`const { interruptedResponse } = await resolveResumeOption(...)`, 375-390, and the
// interrupted response returned at 529-536) is a pause a tool asked for, not cancellation:
// the abort signal is only handed on (to the model through a closure, dispatchModel, 453-481).
export interface Part {
  text?: string;
  toolRequest?: { name: string; input: unknown };
  toolResponse?: { name: string; output: unknown };
}

export interface MessageData {
  role: string;
  content: Part[];
}

export interface GenerateOptions {
  messages: MessageData[];
  maxTurns?: number;
  resume?: boolean;
}

export type ToolAction = ((input: unknown) => Promise<unknown>) & { toolName: string };
export type ModelAction = (
  req: { messages: MessageData[] },
  opts: { abortSignal?: AbortSignal }
) => Promise<{ message: MessageData }>;

export interface Registry {
  model: ModelAction;
  tools: ToolAction[];
}

async function runInNewSpan<T>(name: string, fn: (meta: { name: string }) => Promise<T>): Promise<T> {
  return await fn({ name });
}

// resolve-tool-requests.ts:354-420: a resumed tool that interrupts again sets a local flag
async function resolveResumeOption(
  rawRequest: GenerateOptions,
  toolMap: Record<string, ToolAction>
): Promise<{ revisedRequest?: GenerateOptions; interruptedResponse?: MessageData }> {
  if (!rawRequest.resume) return { revisedRequest: rawRequest };
  const lastMessage = rawRequest.messages[rawRequest.messages.length - 1];
  let interrupted = false;
  lastMessage.content = await Promise.all(
    lastMessage.content.map(async (part) => {
      if (!part.toolRequest) return part;
      const resolved = await resumeTool(part, toolMap);
      if (resolved.interrupt) {
        interrupted = true;
        return resolved.interrupt;
      }
      return resolved.part;
    })
  );
  if (interrupted) {
    return { interruptedResponse: lastMessage };
  }
  return { revisedRequest: { ...rawRequest, resume: false } };
}

async function resumeTool(part: Part, toolMap: Record<string, ToolAction>): Promise<{ part: Part; interrupt?: Part }> {
  const tool = toolMap[part.toolRequest!.name];
  if (!tool) {
    return { part, interrupt: part };
  }
  return { part };
}

export async function generate(registry: Registry, request: GenerateOptions, abortSignal?: AbortSignal) {
  return await generateHelper(registry, { rawRequest: request, abortSignal });
}

export async function generateHelper(
  registry: Registry,
  options: { rawRequest: GenerateOptions; currentTurn?: number; abortSignal?: AbortSignal }
): Promise<MessageData> {
  const currentTurn = options.currentTurn ?? 0;
  return await runInNewSpan("generate", async (metadata) => {
    metadata.name = "generate";
    return await generateActionImpl(registry, {
      rawRequest: options.rawRequest,
      currentTurn,
      abortSignal: options.abortSignal,
    });
  });
}

async function generateActionImpl(
  registry: Registry,
  args: { rawRequest: GenerateOptions; currentTurn: number; abortSignal?: AbortSignal }
): Promise<MessageData> {
  const { rawRequest, currentTurn } = args;
  if (rawRequest.messages.length === 0 && currentTurn === 0) {
    throw new Error("no messages");
  }
  return generateActionTurn(registry, { ...args });
}

async function generateActionTurn(
  registry: Registry,
  {
    rawRequest,
    currentTurn,
    abortSignal,
  }: { rawRequest: GenerateOptions; currentTurn: number; abortSignal?: AbortSignal }
): Promise<MessageData> {
  const model = registry.model;
  const toolMap: Record<string, ToolAction> = {};
  for (const t of registry.tools) {
    toolMap[t.toolName] = t;
  }
  const { revisedRequest, interruptedResponse } = await resolveResumeOption(rawRequest, toolMap);
  if (revisedRequest && revisedRequest !== rawRequest) {
    if (interruptedResponse) {
      throw new Error("One or more tools triggered an interrupt during a restarted execution.");
    }
    return await generateHelper(registry, { rawRequest: revisedRequest, currentTurn, abortSignal });
  }

  const dispatchModel = async (req: { messages: MessageData[] }, opts: { abortSignal?: AbortSignal }) => {
    return await model(req, opts);
  };
  const response = await dispatchModel({ messages: rawRequest.messages }, { abortSignal });
  const generatedMessage = response.message;
  const toolRequests = generatedMessage.content.filter((part) => !!part.toolRequest);
  if (toolRequests.length === 0) {
    return generatedMessage;
  }

  const maxIterations = rawRequest.maxTurns ?? 5;
  if (currentTurn + 1 > maxIterations) {
    throw new Error(`Exceeded maximum tool call iterations (${maxIterations})`);
  }

  const responseParts = await Promise.all(
    toolRequests.map(async (part) => {
      const tool = toolMap[part.toolRequest!.name];
      const output = await tool(part.toolRequest!.input);
      return { toolResponse: { name: part.toolRequest!.name, output } };
    })
  );
  const messages = [...rawRequest.messages, generatedMessage, { role: "tool", content: responseParts }];
  return await generateHelper(registry, {
    rawRequest: { ...rawRequest, messages },
    currentTurn: currentTurn + 1,
    abortSignal,
  });
}
