// A compiled (tsc) SDK class whose public methods are arrow functions the constructor assigns
// to fields of this (a class-field arrow written for lexical this): the turn loop of automatic
// function calling lives in one of them. Modelled on @google/genai@3.3.0
// dist/node/index.mjs:15980-16035 (this.generateContent = async (params) => { … while
// (remoteCalls < maxRemoteCalls) … } in Models' constructor), and 15249
// (DEFAULT_MAX_REMOTE_CALLS).
const DEFAULT_MAX_REMOTE_CALLS = 10;
export class Models {
    constructor(apiClient) {
        this.apiClient = apiClient;
        this.generateContent = async (params) => {
            var _a;
            const tools = new Map(params.tools.map((t) => [t.name, t]));
            const maxRemoteCalls = (_a = params.maxRemoteCalls) !== null && _a !== void 0 ? _a : DEFAULT_MAX_REMOTE_CALLS;
            let remoteCalls = 0;
            let response;
            while (remoteCalls < maxRemoteCalls) {
                response = await this.apiClient.request({ contents: params.contents });
                if (!response.functionCalls || response.functionCalls.length === 0) {
                    break;
                }
                for (const call of response.functionCalls) {
                    const out = await tools.get(call.name).callTool(call.args);
                    params.contents.push({ role: 'user', parts: [out] });
                }
                remoteCalls++;
            }
            return response;
        };
    }
}
export class Chat {
    constructor(models) {
        this.models = new Models(models);
    }
    async sendMessage(message) {
        return this.models.generateContent({ contents: [message], tools: [] });
    }
}
