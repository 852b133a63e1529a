// tsrecurhelper: a turn recursion whose tools run in a helper handed the model's reply, and
// whose results reach the next turn only as an argument of the recursive call, reduced from
// @genkit-ai/ai@1.42.0 src/generate/action.ts:337-570: the request is built by a helper
// before the model call (const request = await actionToGenerateRequest(rawRequest, …), 421),
// the model is asked through a closure (dispatchModel, 453-481) and its reply wrapped by a
// constructor of the set (new GenerateResponse(modelResponse), 492); the tools run in
// resolveToolRequests(rawRequest, generatedMessage, tools) (524; resolve-tool-requests.ts
// 186-243: Promise.all over the message's parts, each looked up by name, toolMap[name], 100,
// and run, 132), which returns { toolMessage }; the tool message is pushed onto the next
// request's messages and handed to generateHelper(registry, { rawRequest: nextRequest,
// currentTurn: currentTurn + 1 }) (551-569), which runs this function again through a span
// callback and generateActionImpl. Before the model call a resume helper waits, under
// Promise.all, for the previous message's parts (resolve-tool-requests.ts:384): a join of
// tasks, no decision.
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
export type ModelAction = (req: { messages: MessageData[] }) => Promise<{ message?: MessageData }>;

export interface Registry {
  model: ModelAction;
  tools: ToolAction[];
}

export class Message {
  role: string;
  content: Part[];
  constructor(message: MessageData) {
    this.role = message.role;
    this.content = message.content;
  }
}

export class GenerateResponse {
  message?: Message;
  constructor(response: { message?: MessageData }) {
    const generatedMessage = response.message;
    if (generatedMessage) {
      this.message = new Message(generatedMessage);
    }
  }
}

async function runInNewSpan<T>(name: string, fn: (meta: { name: string }) => Promise<T>): Promise<T> {
  return await fn({ name });
}

function toToolMap(tools: ToolAction[]): Record<string, ToolAction> {
  const toolMap: Record<string, ToolAction> = {};
  for (const t of tools) {
    toolMap[t.toolName] = t;
  }
  return toolMap;
}

async function resolveResumeOption(rawRequest: GenerateOptions, tools: ToolAction[]): Promise<{ revisedRequest?: GenerateOptions }> {
  if (!rawRequest.resume) return { revisedRequest: rawRequest };
  const toolMap = toToolMap(tools);
  const lastMessage = rawRequest.messages[rawRequest.messages.length - 1];
  lastMessage.content = await Promise.all(
    lastMessage.content.map(async (part) => {
      if (!part.toolRequest) return part;
      const tool = toolMap[part.toolRequest.name];
      return { toolResponse: { name: part.toolRequest.name, output: await tool(part.toolRequest.input) } };
    })
  );
  return { revisedRequest: { ...rawRequest, resume: false } };
}

async function resolveToolRequest(part: Part, toolMap: Record<string, ToolAction>): Promise<Part> {
  const tool = toolMap[part.toolRequest!.name];
  const output = await tool(part.toolRequest!.input);
  return { toolResponse: { name: part.toolRequest!.name, output } };
}

async function resolveToolRequests(
  rawRequest: GenerateOptions,
  generatedMessage: Message,
  tools: ToolAction[]
): Promise<{ toolMessage?: MessageData }> {
  const toolMap = toToolMap(tools);
  const responseParts: Part[] = [];
  await Promise.all(
    generatedMessage.content.map(async (part) => {
      if (!part.toolRequest) return;
      responseParts.push(await resolveToolRequest(part, toolMap));
    })
  );
  return { toolMessage: { role: "tool", content: responseParts } };
}

async function actionToGenerateRequest(options: GenerateOptions, tools: ToolAction[]): Promise<{ messages: MessageData[]; tools: string[] }> {
  return { messages: options.messages, tools: tools.map((t) => t.toolName) };
}

export async function generate(registry: Registry, request: GenerateOptions) {
  return await generateHelper(registry, { rawRequest: request });
}

export async function generateHelper(
  registry: Registry,
  options: { rawRequest: GenerateOptions; currentTurn?: number }
): Promise<MessageData> {
  const currentTurn = options.currentTurn ?? 0;
  return await runInNewSpan("generate", async (metadata) => {
    metadata.name = "generate";
    return await generateActionImpl(registry, { rawRequest: options.rawRequest, currentTurn });
  });
}

async function generateActionImpl(registry: Registry, args: { rawRequest: GenerateOptions; currentTurn: number }): Promise<MessageData> {
  return generateActionTurn(registry, { ...args });
}

async function generateActionTurn(
  registry: Registry,
  { rawRequest, currentTurn }: { rawRequest: GenerateOptions; currentTurn: number }
): Promise<MessageData> {
  const model = registry.model;
  const tools = registry.tools;
  const { revisedRequest } = await resolveResumeOption(rawRequest, tools);
  if (revisedRequest && revisedRequest !== rawRequest) {
    return await generateHelper(registry, { rawRequest: revisedRequest, currentTurn });
  }
  const request = await actionToGenerateRequest(rawRequest, tools);
  const dispatchModel = async (req: { messages: MessageData[] }) => {
    return await model(req);
  };
  const modelResponse = await dispatchModel(request);
  const response = new GenerateResponse(modelResponse);
  const generatedMessage = response.message!;
  const toolRequests = generatedMessage.content.filter((part) => !!part.toolRequest);
  if (toolRequests.length === 0) {
    return generatedMessage;
  }

  const maxIterations = rawRequest.maxTurns ?? 5;
  if (currentTurn + 1 > maxIterations) {
    throw new Error(`Exceeded maximum tool call iterations (${maxIterations})`);
  }

  const { toolMessage } = await resolveToolRequests(rawRequest, generatedMessage, tools);
  const messages = [...rawRequest.messages, generatedMessage];
  if (toolMessage) {
    messages.push(toolMessage);
  }
  const nextRequest = { ...rawRequest, messages };
  return await generateHelper(registry, {
    rawRequest: nextRequest,
    currentTurn: currentTurn + 1,
  });
}
