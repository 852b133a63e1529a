package srcir

import (
	"regexp"

	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// table is one language's knowledge, as declarative data: which node kinds and fields of its
// tree-sitter grammar play which part. The lowering (lower.go, flow.go) is shared.
type table struct {
	lang string // ir.Program.Lang
	// self is the receiver name of methods ("self", "this").
	self string
	// node kinds by role
	funcs, classes, whiles, dos, cfors, foreachs, calls, news, members, subscripts, ifs,
	returns, raises, yields, awaits, assigns, augAssigns, updates, declarators, compares,
	nots, bools, idents, stringKinds, numbers, literals, tries, catches, breaks, blocks,
	ternaries, comprehensions, lambdas, seqs, spreads, keywordArgs, fieldDefs, continues kinds
	// objects are the object/dictionary literals, pairs their key: value members
	objects, pairs kinds
	// exprStmts are the statements made of one expression (a call whose value is dropped)
	exprStmts kinds
	// cases are the arms of a switch or match; caseValue names the field of the value or
	// pattern an arm matches, or casePatterns the kinds of its patterns when they have no
	// field (Python's case_clause)
	cases        kinds
	caseValue    string
	casePatterns kinds
	// detaches are the methods that hand a promise to a continuation: a call of an async
	// function chained to one and never awaited runs beside its caller
	detaches set
	// invokes are the methods of a function that call it (fn.call(this, x), fn.apply);
	// privateGets the compiler helpers that read a private method (tsc's
	// __classPrivateFieldGet(this, _X_instances, "m", _X_send)): its fourth argument; and
	// privateSets the helpers that write a private field (see privates.go)
	invokes, privateGets, privateSets set
	// fieldDefines are the compilers' helpers that define an instance field in a constructor
	// (helper(this, "name", value), for a class field name = value)
	fieldDefines set
	// asyncHelpers run a generator function as an async function, asyncGenHelpers as an
	// async generator, in which awaitHelpers mark the awaits (see lowered.go; asyncgen.go rewrites
	// some async generators on the text first)
	asyncHelpers, asyncGenHelpers, awaitHelpers set
	// nameHelpers give a function or class its name and return it (esbuild's __name)
	nameHelpers set
	// interopRequires wrap a require("./x") into the module object an import reads (tsc's
	// __importDefault, esbuild's __toESM, babel's and swc's interop helpers)
	interopRequires set
	// field names that differ between grammars
	memberProp, subObj, subIndex, classBases, classBody, callArgs, ternCond, ternThen, ternElse string
	// generic-expression names of "empty" values
	nones set
	// eachMethods are methods of a collection that run a callback per element.
	eachMethods set
	// namedReceivers: an untyped receiver named like the one class defining the method is
	// taken for an instance of it (compiled JS names values after their classes: loop.tick()
	// is PregelLoop.tick; Python code has annotations for that).
	namedReceivers bool
	// forTargetsOutlive: the variables a for-each loop binds stay bound after it, to the
	// last item (Python's for targets); scopedFors are the declaration keywords that keep
	// them in the loop's block instead (JS's for (const x of xs), for (let x of xs)).
	forTargetsOutlive bool
	scopedFors        set
}

type set map[string]bool

// kinds is a set of node kinds, as a bit set over syntax.KindID: the lowering tests every
// node against these, so a test is an index, not a string hash.
type kinds []uint64

func mkKinds(xs ...string) kinds {
	var k kinds
	for _, x := range xs {
		id := int(syntax.KindID(x))
		for len(k) <= id>>6 {
			k = append(k, 0)
		}
		k[id>>6] |= 1 << (id & 63)
	}
	return k
}

// has reports whether n (nil: no) is of one of the kinds.
func (k kinds) has(n *syntax.Node) bool {
	if n == nil {
		return false
	}
	w := int(n.KindID >> 6)
	return w < len(k) && k[w]&(1<<(n.KindID&63)) != 0
}

func mk(xs ...string) set {
	s := set{}
	for _, x := range xs {
		s[x] = true
	}
	return s
}

var python = &table{
	lang: "python", self: "self",
	funcs: mkKinds("function_definition"), lambdas: mkKinds("lambda"), classes: mkKinds("class_definition"),
	whiles: mkKinds("while_statement"), dos: mkKinds(), cfors: mkKinds(), foreachs: mkKinds("for_statement"),
	calls: mkKinds("call"), news: mkKinds(), members: mkKinds("attribute"), subscripts: mkKinds("subscript"),
	ifs: mkKinds("if_statement", "elif_clause"), returns: mkKinds("return_statement"), raises: mkKinds("raise_statement"),
	yields: mkKinds("yield"), awaits: mkKinds("await"), assigns: mkKinds("assignment"), augAssigns: mkKinds("augmented_assignment"),
	updates: mkKinds(), declarators: mkKinds(), compares: mkKinds("comparison_operator"), nots: mkKinds("not_operator"),
	bools: mkKinds("boolean_operator"), idents: mkKinds("identifier"), stringKinds: mkKinds("string", "concatenated_string"),
	numbers: mkKinds("integer", "float"), literals: mkKinds("true", "false", "none"), tries: mkKinds("try_statement"),
	catches: mkKinds("except_clause", "except_group_clause"), breaks: mkKinds("break_statement"), blocks: mkKinds("block"),
	continues: mkKinds("continue_statement"),
	ternaries: mkKinds("conditional_expression"), comprehensions: mkKinds("for_in_clause"), seqs: mkKinds(),
	spreads: mkKinds("list_splat", "dictionary_splat"), keywordArgs: mkKinds("keyword_argument"), fieldDefs: mkKinds(),
	memberProp: "attribute", subObj: "value", subIndex: "subscript", classBases: "superclasses", classBody: "body",
	callArgs: "arguments", nones: mk("None"), eachMethods: mk("map"), cases: mkKinds("case_clause"), caseValue: "",
	casePatterns: mkKinds("case_pattern"),
	objects:      mkKinds("dictionary"), pairs: mkKinds("pair"), exprStmts: mkKinds("expression_statement"),
	forTargetsOutlive: true,
}

var typescript = &table{
	lang: "typescript", self: "this",
	funcs: mkKinds("function_declaration", "generator_function_declaration", "function_expression", "generator_function",
		"method_definition", "function"),
	lambdas: mkKinds("arrow_function"), classes: mkKinds("class_declaration", "class", "abstract_class_declaration"),
	whiles: mkKinds("while_statement"), dos: mkKinds("do_statement"), cfors: mkKinds("for_statement"), foreachs: mkKinds("for_in_statement"),
	calls: mkKinds("call_expression"), news: mkKinds("new_expression"), members: mkKinds("member_expression"),
	subscripts: mkKinds("subscript_expression"), ifs: mkKinds("if_statement"), returns: mkKinds("return_statement"),
	raises: mkKinds("throw_statement"), yields: mkKinds("yield_expression"), awaits: mkKinds("await_expression"),
	assigns: mkKinds("assignment_expression"), augAssigns: mkKinds("augmented_assignment_expression"),
	updates: mkKinds("update_expression"), declarators: mkKinds("variable_declarator"), compares: mkKinds("binary_expression"),
	nots: mkKinds("unary_expression"), bools: mkKinds(), idents: mkKinds("identifier", "property_identifier",
		"shorthand_property_identifier", "shorthand_property_identifier_pattern", "private_property_identifier"),
	stringKinds: mkKinds("string", "template_string"), numbers: mkKinds("number"), literals: mkKinds("true", "false", "null", "undefined"),
	tries: mkKinds("try_statement"), catches: mkKinds("catch_clause"), breaks: mkKinds("break_statement"), continues: mkKinds("continue_statement"),
	blocks: mkKinds("statement_block"), ternaries: mkKinds("ternary_expression"), comprehensions: mkKinds(),
	seqs: mkKinds("sequence_expression"), spreads: mkKinds("spread_element"), keywordArgs: mkKinds(),
	fieldDefs:  mkKinds("public_field_definition", "field_definition"),
	memberProp: "property", subObj: "object", subIndex: "index", classBases: "", classBody: "body",
	cases: mkKinds("switch_case"), caseValue: "value", detaches: mk("then", "catch", "finally"),
	invokes: mk("call", "apply"), privateGets: mk("__classPrivateFieldGet"), privateSets: mk("__classPrivateFieldSet"),
	fieldDefines:    mk("__publicField", "_defineProperty", "_define_property"),
	asyncHelpers:    mk("__awaiter", "__async", "_async_to_generator", "_asyncToGenerator"),
	asyncGenHelpers: mk("__asyncGenerator", "_wrap_async_generator", "_wrapAsyncGenerator"),
	awaitHelpers:    mk("__await", "_await_async_generator", "_awaitAsyncGenerator"),
	nameHelpers:     mk("__name"),
	interopRequires: mk("__importStar", "__importDefault", "__toESM", "_interopRequireDefault", "_interopRequireWildcard",
		"_interop_require_default", "_interop_require_wildcard"),
	callArgs: "arguments", ternCond: "condition", ternThen: "consequence", ternElse: "alternative",
	nones: mk("null", "undefined"), eachMethods: mk("map", "forEach", "flatMap", "filter"),
	namedReceivers: true,
	objects:        mkKinds("object"), pairs: mkKinds("pair"), exprStmts: mkKinds("expression_statement"),
	forTargetsOutlive: true, scopedFors: mk("const", "let"),
}

var javascript = func() *table { t := *typescript; t.lang = "javascript"; return &t }()

func tableOf(l syntax.Lang) *table {
	switch l {
	case syntax.Python:
		return python
	case syntax.TypeScript, syntax.TSX:
		return typescript
	case syntax.JavaScript:
		return javascript
	}
	return nil
}

// Knowledge shared by the languages: names of library calls, as written in either.
var (
	// concurrentAll run their arguments (or the callbacks in them) together.
	concurrentAll = mk("Promise.all", "Promise.allSettled", "Promise.race", "Promise.any", "asyncio.gather",
		"gather", "asyncio.wait", "anyio.gather")
	// concurrentTask start one task: the callback or coroutine runs beside the caller.
	concurrentTask = mk("create_task", "ensure_future", "submit", "run_in_executor", "start_soon", "to_thread",
		"run_coroutine_threadsafe", "Thread", "setImmediate", "queueMicrotask",
		"setTimeout", "call_soon", "call_later", "call_soon_threadsafe")
	// boundCalls bind a callable to arguments without running it (functools.partial(f, x=1)):
	// whoever later runs what they return runs f with those arguments, so the call stands for
	// a call of f.
	boundCalls = mk("partial", "functools.partial")
	// mintCalls mint ids.
	mintCalls = mk("uuid4", "uuid.uuid4", "uuid1", "uuid.uuid1", "uuid7", "uuid.uuid7", "randomUUID",
		"crypto.randomUUID", "uuidv4", "uuid.v4", "v4", "nanoid", "ulid", "secrets.token_hex", "secrets.token_urlsafe",
		"uuid_lib.uuid4", "generateId", "createId", "cuid")
	// mintName matches a helper outside the analysed set named for minting an id of a run or
	// of a part of one (_generate_id(): agentscope==2.0.11 agent/_agent.py:1113,
	// _utils/_common.py:79; gen_uuid, new_run_id, createTurnId): a call of it mints one. Trace
	// and span ids (generateTraceId) and other ids (generateFallbackId) are not runs'.
	mintName = regexp.MustCompile(`(?i)^_*(generate|gen|new|make|create|mint)_?((run|reply|turn|session|request|message|msg|task|step)_?)?(id|uuid)$`)
	// parentRead matches the calls that read the trace or run the caller is in (the
	// ambient context a nested run joins): getCurrentTraceContext, get_current_trace,
	// getCurrentRunTree; its group names the layer read. (A current span parents spans, not runs.)
	parentRead = regexp.MustCompile(`(?i)^get_?current_?((?:trace|run_?tree|run)(?:_?context)?)$`)
	// runStartHook matches the hooks a run reports its start to (a tracer's or callback
	// manager's on_chain_start, handleChainStart, on_run_start): handed the run's id when
	// the caller has one, the hook mints it otherwise; runIDArg matches that argument.
	runStartHook = regexp.MustCompile(`(?i)^(on|handle)_?[a-z_]*start$`)
	runIDArg     = regexp.MustCompile(`(?i)^(run_?id|\w*\.run_?id)$`)
	// idRead matches a read of an object's id (checkpoint.id, checkpoint["id"], run.run_id):
	// group 1 is the object.
	idRead = regexp.MustCompile(`^([A-Za-z_$][\w$.]*?)(?:\.|\[["'])(?:id|_?[a-z]+_id|[a-z]+Id)["']?\]?$`)
	// cancelCalls check cancellation (they raise or return when cancelled).
	cancelCalls = mk("throwIfAborted", "raise_if_cancelled", "raise_if_canceled", "throw_if_cancelled",
		"check_cancelled", "check_canceled", "checkCancelled", "checkCanceled", "checkAborted", "throwIfCancelled",
		"ensure_not_cancelled", "check_interrupt", "checkpoint", "is_cancelled", "isCancelled", "cancelled")
	// throwingChecks are the cancellation checks that raise when cancelled (their call is a
	// way out of the function, not a test it branches on).
	throwingChecks = mk("throwIfAborted", "throwIfCancelled", "raise_if_cancelled", "raise_if_canceled",
		"throw_if_cancelled", "throw_if_canceled", "ensure_not_cancelled")
	// stateKeys are the discriminator fields of a state or result object (turnEnds = {kind:
	// 'completed'}, {"status": "interrupted"}): its value says how the function ended.
	stateKeys = mk("kind", "type", "status", "state", "outcome", "reason", "stop_reason", "stopReason",
		"finish_reason", "finishReason")
	// ignoredCallees are calls that never run a tool (logging, formatting, conversion).
	ignoredCallees = mk("print", "str", "repr", "len", "isinstance", "int", "float", "bool", "format", "String",
		"Number", "Boolean", "JSON.stringify", "JSON.parse", "json.dumps", "json.loads", "dict", "list", "tuple",
		"set", "type", "id", "hasattr", "getattr", "setattr", "Object.keys", "Object.entries", "Array.isArray",
		"Error", "TypeError", "ValueError", "RuntimeError", "Exception", "KeyError", "Symbol",
		// tsc's helpers for private members below ES2022
		"__classPrivateFieldGet", "__classPrivateFieldSet", "__classPrivateFieldIn")
	ignoredRoots = mk("console", "logger", "log", "logging", "self.logger", "this.logger", "this.log", "self.log",
		"debug", "tracer", "span", "warnings", "self.monitor", "self._logger", "this._logger")
	// genericErrors are exception classes that name no stop reason.
	genericErrors = mk("Exception", "BaseException", "Error", "ValueError", "RuntimeError", "TypeError", "KeyError",
		"NotImplementedError", "AssertionError", "IndexError", "AttributeError", "RangeError", "StopIteration",
		"StopAsyncIteration", "NotImplemented")
	// interruptErrors are the built-in exceptions that stop a run from outside besides those
	// whose names say cancel or abort (Ctrl+C): caught and returned from, the run ends
	// cancelled
	interruptErrors = mk("KeyboardInterrupt")
)

// stdinReads are, per language, the calls that wait for a line the user types.
// anyFuncs are the functions, and anyMeths the collection methods, that test whether any item
// satisfies a predicate (Python's any(gen), JS's xs.some(pred)).
var (
	anyFuncs = mk("any")
	anyMeths = mk("some")
)

// elemGenerics are the collection annotations whose one type argument is the type of their
// elements (Python typing and builtins, TypeScript's arrays).
var elemGenerics = []struct{ open, close string }{
	{"Sequence[", "]"}, {"typing.Sequence[", "]"}, {"List[", "]"}, {"typing.List[", "]"}, {"list[", "]"},
	{"Iterable[", "]"}, {"typing.Iterable[", "]"}, {"MutableSequence[", "]"}, {"Set[", "]"}, {"set[", "]"},
	{"Array<", ">"}, {"ReadonlyArray<", ">"},
}

var stdinReads = map[string]map[string]bool{
	"python": {"input": true, "raw_input": true, "sys.stdin.readline": true, "stdin.readline": true},
}
