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
	ternaries, comprehensions, lambdas, seqs, spreads, keywordArgs, fieldDefs, continues set
	// objects are the object/dictionary literals, pairs their key: value members
	objects, pairs set
	// exprStmts are the statements made of one expression (a call whose value is dropped)
	exprStmts set
	// cases are the arms of a switch or match; caseValue names the field of the value or
	// pattern an arm matches
	cases     set
	caseValue string
	// detaches are the methods that hand a promise to a continuation: a call of an async
	// function chained to one and never awaited runs beside its caller
	detaches set
	// invokes are the methods of a function that call it (fn.call(this, x), fn.apply);
	// privateGets the compiler helpers that read a private method (tsc's
	// __classPrivateFieldGet(this, _X_instances, "m", _X_send)): its fourth argument
	invokes, privateGets set
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
}

type set map[string]bool

func mk(xs ...string) set {
	s := set{}
	for _, x := range xs {
		s[x] = true
	}
	return s
}

var python = &table{
	lang: "python", self: "self",
	funcs: mk("function_definition"), lambdas: mk("lambda"), classes: mk("class_definition"),
	whiles: mk("while_statement"), dos: mk(), cfors: mk(), foreachs: mk("for_statement"),
	calls: mk("call"), news: mk(), members: mk("attribute"), subscripts: mk("subscript"),
	ifs: mk("if_statement", "elif_clause"), returns: mk("return_statement"), raises: mk("raise_statement"),
	yields: mk("yield"), awaits: mk("await"), assigns: mk("assignment"), augAssigns: mk("augmented_assignment"),
	updates: mk(), declarators: mk(), compares: mk("comparison_operator"), nots: mk("not_operator"),
	bools: mk("boolean_operator"), idents: mk("identifier"), stringKinds: mk("string", "concatenated_string"),
	numbers: mk("integer", "float"), literals: mk("true", "false", "none"), tries: mk("try_statement"),
	catches: mk("except_clause", "except_group_clause"), breaks: mk("break_statement"), blocks: mk("block"),
	continues: mk("continue_statement"),
	ternaries: mk("conditional_expression"), comprehensions: mk("for_in_clause"), seqs: mk(),
	spreads: mk("list_splat", "dictionary_splat"), keywordArgs: mk("keyword_argument"), fieldDefs: mk(),
	memberProp: "attribute", subObj: "value", subIndex: "subscript", classBases: "superclasses", classBody: "body",
	callArgs: "arguments", nones: mk("None"), eachMethods: mk("map"), cases: mk(), caseValue: "",
	objects: mk("dictionary"), pairs: mk("pair"), exprStmts: mk("expression_statement"),
}

var typescript = &table{
	lang: "typescript", self: "this",
	funcs: mk("function_declaration", "generator_function_declaration", "function_expression", "generator_function",
		"method_definition", "function"),
	lambdas: mk("arrow_function"), classes: mk("class_declaration", "class", "abstract_class_declaration"),
	whiles: mk("while_statement"), dos: mk("do_statement"), cfors: mk("for_statement"), foreachs: mk("for_in_statement"),
	calls: mk("call_expression"), news: mk("new_expression"), members: mk("member_expression"),
	subscripts: mk("subscript_expression"), ifs: mk("if_statement"), returns: mk("return_statement"),
	raises: mk("throw_statement"), yields: mk("yield_expression"), awaits: mk("await_expression"),
	assigns: mk("assignment_expression"), augAssigns: mk("augmented_assignment_expression"),
	updates: mk("update_expression"), declarators: mk("variable_declarator"), compares: mk("binary_expression"),
	nots: mk("unary_expression"), bools: mk(), idents: mk("identifier", "property_identifier",
		"shorthand_property_identifier", "shorthand_property_identifier_pattern", "private_property_identifier"),
	stringKinds: mk("string", "template_string"), numbers: mk("number"), literals: mk("true", "false", "null", "undefined"),
	tries: mk("try_statement"), catches: mk("catch_clause"), breaks: mk("break_statement"), continues: mk("continue_statement"),
	blocks: mk("statement_block"), ternaries: mk("ternary_expression"), comprehensions: mk(),
	seqs: mk("sequence_expression"), spreads: mk("spread_element"), keywordArgs: mk(),
	fieldDefs:  mk("public_field_definition", "field_definition"),
	memberProp: "property", subObj: "object", subIndex: "index", classBases: "", classBody: "body",
	cases: mk("switch_case"), caseValue: "value", detaches: mk("then", "catch", "finally"),
	invokes: mk("call", "apply"), privateGets: mk("__classPrivateFieldGet"),
	callArgs: "arguments", ternCond: "condition", ternThen: "consequence", ternElse: "alternative",
	nones: mk("null", "undefined"), eachMethods: mk("map", "forEach", "flatMap", "filter"),
	namedReceivers: true,
	objects:        mk("object"), pairs: mk("pair"), exprStmts: mk("expression_statement"),
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
		"run_coroutine_threadsafe", "Thread", "setImmediate", "queueMicrotask")
	// mintCalls mint ids.
	mintCalls = mk("uuid4", "uuid.uuid4", "uuid1", "uuid.uuid1", "uuid7", "uuid.uuid7", "randomUUID",
		"crypto.randomUUID", "uuidv4", "uuid.v4", "v4", "nanoid", "ulid", "secrets.token_hex", "secrets.token_urlsafe",
		"uuid_lib.uuid4", "generateId", "createId", "cuid")
	// parentRead matches the calls that read the trace or run the caller is in (the
	// ambient context a nested run joins): getCurrentTraceContext, get_current_trace,
	// getCurrentRunTree; its group names the layer read. (A current span parents spans, not runs.)
	parentRead = regexp.MustCompile(`(?i)^get_?current_?((?:trace|run_?tree|run)(?:_?context)?)$`)
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
)
