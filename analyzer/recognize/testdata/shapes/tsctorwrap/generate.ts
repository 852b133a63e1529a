// tsctorwrap: the model reply wrapped by constructors of the set before it is read, as
// @genkit-ai/ai@1.42.0 does (src/generate/action.ts:477-511: const response = new
// GenerateResponse(modelResponse, …); const generatedMessage = response.message!; toolRequests
// = generatedMessage.content.filter(…); src/generate/response.ts:59-97: the constructor builds
// this.message = new Message(generatedMessage)): the instance carries the reply on. Genkit
// repeats the turn by a recursion through helpers; here a counted loop does (the loop form
// is not what this shape is about), the tools looked up by name in a record (toolMap[name],
// src/generate/resolve-tool-requests.ts:100).
export interface Part {
  text?: string;
  toolRequest?: { name: string; input: unknown };
  toolResponse?: { name: string; output: unknown };
}

export interface MessageData {
  role: string;
  content: Part[];
}

export type ToolAction = ((input: unknown) => Promise<unknown>) & { toolName: string };
export type ModelAction = (req: { messages: MessageData[] }) => Promise<{ message?: MessageData }>;

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

export async function generate(
  model: ModelAction,
  tools: ToolAction[],
  messages: MessageData[],
  maxTurns = 5
): Promise<MessageData | undefined> {
  const toolMap: Record<string, ToolAction> = {};
  for (const t of tools) {
    toolMap[t.toolName] = t;
  }
  for (let currentTurn = 0; currentTurn < maxTurns; currentTurn++) {
    const modelResponse = await model({ messages });
    const response = new GenerateResponse(modelResponse);
    const generatedMessage = response.message!;
    const toolRequests = generatedMessage.content.filter((part) => !!part.toolRequest);
    if (toolRequests.length === 0) {
      return generatedMessage;
    }
    const responseParts: Part[] = [];
    for (const part of toolRequests) {
      const tool = toolMap[part.toolRequest!.name];
      const output = await tool(part.toolRequest!.input);
      responseParts.push({ toolResponse: { name: part.toolRequest!.name, output } });
    }
    messages = [...messages, generatedMessage, { role: "tool", content: responseParts }];
  }
  throw new Error(`Exceeded maximum tool call iterations (${maxTurns})`);
}
