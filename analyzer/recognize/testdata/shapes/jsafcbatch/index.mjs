// jsafcbatch: an SDK's own automatic function calling, reduced from @google/genai@3.3.0
// dist/node/index.mjs (a tsc-lowered ES module bundle). Models.generateContent (an arrow
// assigned in the constructor, 15980-16035) loops `while (remoteCalls < maxRemoteCalls)`
// around one request through the SDK's own client (generateContentWithContinuation ->
// generateContentInternal -> this.apiClient.request, 16317-16330, 16533-16583), leaves when
// the response has no functionCalls, and hands the whole list to each callable tool the
// caller configured (callableTool.callTool(response.functionCalls), 16013): no lookup by name
// in the loop, the caller's tool objects run them. The streaming twin (processAfcStream,
// 16452-16531) tests, in the async generator it returns, a local of the method around it
// (const maxRemoteCalls = ... ?? DEFAULT_MAX_REMOTE_CALLS, 16454); here its stream of chunks
// is one response and the tools are looked up by name from the response's calls
// (afcTools.get(name).callTool([call]), 16488-16490).
function __await(v) {
    return this instanceof __await ? (this.v = v, this) : new __await(v);
}

function __asyncGenerator(thisArg, _arguments, generator) {
    if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
    var g = generator.apply(thisArg, _arguments || []), i, q = [];
    return i = Object.create((typeof AsyncIterator === "function" ? AsyncIterator : Object).prototype), verb("next"), verb("throw"), verb("return", awaitReturn), i[Symbol.asyncIterator] = function () { return this; }, i;
    function awaitReturn(f) { return function (v) { return Promise.resolve(v).then(f, reject); }; }
    function verb(n, f) { if (g[n]) { i[n] = function (v) { return new Promise(function (a, b) { q.push([n, v, a, b]) > 1 || resume(n, v); }); }; if (f) i[n] = f(i[n]); } }
    function resume(n, v) { try { step(g[n](v)); } catch (e) { settle(q[0][3], e); } }
    function step(r) { r.value instanceof __await ? Promise.resolve(r.value.v).then(fulfill, reject) : settle(q[0][2], r); }
    function fulfill(value) { resume("next", value); }
    function reject(value) { resume("throw", value); }
    function settle(f, v) { if (f(v), q.shift(), q.length) resume(q[0][0], q[0][1]); }
}

const DEFAULT_MAX_REMOTE_CALLS = 10;

function isCallableTool(tool) {
    return 'callTool' in tool && typeof tool.callTool === 'function';
}

function hasCallableTools(params) {
    var _a, _b, _c;
    return (_c = (_b = (_a = params.config) === null || _a === void 0 ? void 0 : _a.tools) === null || _b === void 0 ? void 0 : _b.some((tool) => isCallableTool(tool))) !== null && _c !== void 0 ? _c : false;
}

function tContents(contents) {
    return Array.isArray(contents) ? contents : [contents];
}

class GenerateContentResponse {
    get functionCalls() {
        var _a, _b, _c;
        const parts = (_c = (_b = (_a = this.candidates) === null || _a === void 0 ? void 0 : _a[0]) === null || _b === void 0 ? void 0 : _b.content) === null || _c === void 0 ? void 0 : _c.parts;
        if (!parts) {
            return undefined;
        }
        const calls = parts.filter((part) => part.functionCall).map((part) => part.functionCall);
        return calls.length > 0 ? calls : undefined;
    }
}

class Models {
    constructor(apiClient) {
        this.apiClient = apiClient;
        this.generateContent = async (params) => {
            var _a, _b, _c, _d, _e;
            if (!hasCallableTools(params)) {
                return await this.generateContentInternal(params);
            }
            let response;
            let functionResponseContent;
            const transformedParams = Object.assign({}, params);
            const maxRemoteCalls = (_c = (_b = (_a = transformedParams.config) === null || _a === void 0 ? void 0 : _a.automaticFunctionCalling) === null || _b === void 0 ? void 0 : _b.maximumRemoteCalls) !== null && _c !== void 0 ? _c : DEFAULT_MAX_REMOTE_CALLS;
            let remoteCalls = 0;
            while (remoteCalls < maxRemoteCalls) {
                response = await this.generateContentWithContinuation(transformedParams);
                if (!response.functionCalls || response.functionCalls.length === 0) {
                    break;
                }
                const responseContent = response.candidates[0].content;
                const functionResponseParts = [];
                for (const tool of (_e = (_d = params.config) === null || _d === void 0 ? void 0 : _d.tools) !== null && _e !== void 0 ? _e : []) {
                    if (isCallableTool(tool)) {
                        const callableTool = tool;
                        const parts = await callableTool.callTool(response.functionCalls);
                        functionResponseParts.push(...parts);
                    }
                }
                remoteCalls++;
                functionResponseContent = {
                    role: 'user',
                    parts: functionResponseParts,
                };
                transformedParams.contents = tContents(transformedParams.contents);
                transformedParams.contents.push(responseContent);
                transformedParams.contents.push(functionResponseContent);
            }
            return response;
        };
    }
    async generateContentWithContinuation(params) {
        const response = await this.generateContentInternal(params);
        return response;
    }
    async generateContentInternal(params) {
        const body = { contents: params.contents, model: params.model };
        const response = this.apiClient
            .request({
            path: `${params.model}:generateContent`,
            body: JSON.stringify(body),
            httpMethod: 'POST',
        })
            .then((httpResponse) => httpResponse.json());
        return response.then((apiResponse) => {
            const resp = Object.assign(new GenerateContentResponse(), apiResponse);
            return resp;
        });
    }
    async initAfcToolsMap(params) {
        var _a, _b;
        const afcTools = new Map();
        for (const tool of (_b = (_a = params.config) === null || _a === void 0 ? void 0 : _a.tools) !== null && _b !== void 0 ? _b : []) {
            if (isCallableTool(tool)) {
                const declaration = await tool.tool();
                for (const fd of declaration.functionDeclarations) {
                    afcTools.set(fd.name, tool);
                }
            }
        }
        return afcTools;
    }
    async processAfcStream(params) {
        var _a, _b, _c;
        const maxRemoteCalls = (_c = (_b = (_a = params.config) === null || _a === void 0 ? void 0 : _a.automaticFunctionCalling) === null || _b === void 0 ? void 0 : _b.maximumRemoteCalls) !== null && _c !== void 0 ? _c : DEFAULT_MAX_REMOTE_CALLS;
        let wereFunctionsCalled = false;
        let remoteCallCount = 0;
        const afcToolsMap = await this.initAfcToolsMap(params);
        return (function (models, afcTools, params) {
            return __asyncGenerator(this, arguments, function* () {
                var _a;
                while (remoteCallCount < maxRemoteCalls) {
                    if (wereFunctionsCalled) {
                        remoteCallCount++;
                        wereFunctionsCalled = false;
                    }
                    const response = yield __await(models.generateContentInternal(params));
                    yield yield __await(response);
                    const calls = response.functionCalls;
                    if (!calls || calls.length === 0) {
                        break;
                    }
                    const functionResponses = [];
                    for (const call of calls) {
                        const responseParts = yield __await(afcTools
                            .get(call.name)
                            .callTool([call]));
                        functionResponses.push(...responseParts);
                    }
                    wereFunctionsCalled = true;
                    params.contents = tContents(params.contents).concat([response.candidates[0].content, { role: 'user', parts: functionResponses }]);
                }
            });
        })(this, afcToolsMap, params);
    }
}

export { Models, GenerateContentResponse };
