// The same ReAct text loop in TypeScript: the reply text is parsed into a step, a final one
// returns, an action's tool is a plain function looked up by name.
const TOOLS: Record<string, (input: string) => Promise<string>> = {
  search: async (q: string) => "result for " + q,
  calculate: async (e: string) => String(e.length),
};

interface Parsed {
  final: boolean;
  answer?: string;
  action?: string;
  input?: string;
}

function parseReply(text: string): Parsed {
  const m = /Action: (\w+)\[(.*)\]/.exec(text);
  if (!m) return { final: true, answer: text };
  return { final: false, action: m[1], input: m[2] };
}

export class TextAgent {
  constructor(private client: any, private maxIterations: number = 10) {}

  async run(question: string): Promise<string | undefined> {
    let prompt = "Question: " + question;
    for (let i = 0; i < this.maxIterations; i++) {
      const reply = await this.client.complete(prompt);
      const parsed = parseReply(reply);
      if (parsed.final) {
        return parsed.answer;
      }
      const observation = await TOOLS[parsed.action!](parsed.input!);
      prompt += "\n" + reply + "\nObservation: " + observation;
    }
    return undefined;
  }
}
