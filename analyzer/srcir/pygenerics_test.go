//go:build cgo

package srcir

import (
	"strings"
	"testing"
)

// pyGenericsSrc is reduced from pydantic-ai-slim==2.68.0 / pydantic-graph==2.68.0: a field
// assigned a parameter annotated with a generic class of the set and its type arguments
// (AgentRun.__init__(self, graph_run: GraphRun[StateT, DepsT, OutputT]), pydantic_ai/run.py;
// self._graph_run.next(task), run.py:531), and the with item of an async context manager method
// annotated AsyncGenerator[AgentRun[...]] (AbstractAgent.iter, pydantic_ai/agent/abstract.py:
// 1688-1715; async with self.iter(...) as agent_run: ... agent_run.next(node), 632-696), and a
// local rebound to typing.cast of a generic base (node = cast(BaseNode[StateT, DepsT, Any],
// node); node.run(...), pydantic_graph/step.py:249-253): the base's method and its overrides.
const pyGenericsSrc = `from contextlib import asynccontextmanager
from typing import Any, AsyncGenerator, Generic, TypeVar, cast

StateT = TypeVar("StateT")
DepsT = TypeVar("DepsT")


class GraphRun(Generic[StateT, DepsT]):
    async def next(self, task):
        return task


class BaseNode(Generic[StateT, DepsT]):
    async def run(self, ctx):
        raise NotImplementedError


class ModelRequestNode(BaseNode[StateT, DepsT]):
    async def run(self, ctx):
        return None


class NodeStep:
    def __init__(self, node_type):
        self.node_type = node_type

    async def _call_node(self, ctx):
        node = ctx.inputs
        if not isinstance(node, self.node_type):
            raise ValueError("wrong node")
        node = cast(BaseNode[StateT, DepsT, Any], node)
        return await node.run(ctx)


class Cursor:
    def next(self, task):
        return None


class AgentRun(Generic[DepsT]):
    def __init__(self, graph_run: GraphRun[StateT, DepsT]):
        self._graph_run = graph_run

    async def next(self, node):
        return await self._graph_run.next(node)


class Agent(Generic[DepsT]):
    @asynccontextmanager
    async def iter(self, prompt) -> AsyncGenerator[AgentRun[DepsT]]:
        yield AgentRun(self.graph.run(prompt))

    async def run(self, prompt):
        async with self.iter(prompt) as agent_run:
            node = prompt
            while node is not None:
                node = await agent_run.next(node)
        return node
`

func TestPythonGenericReceivers(t *testing.T) {
	p := buildPy(t, pyGenericsSrc)
	for _, tc := range []struct {
		fn, call, key string
	}{
		// a parameter annotated GraphRun[StateT, DepsT], kept in a field
		{"m.AgentRun.next", "self._graph_run.next(", "m.GraphRun.next"},
		// async with self.iter(...) as agent_run, iter -> AsyncGenerator[AgentRun[DepsT]]
		{"m.Agent.run", "agent_run.next(", "m.AgentRun.next"},
		// node = cast(BaseNode[StateT, DepsT, Any], node)
		{"m.NodeStep._call_node", "node.run(", "m.BaseNode.run m.ModelRequestNode.run"},
	} {
		c := callText(t, funcNamed(t, p, tc.fn), tc.call)
		if strings.Join(c.Keys, " ") != tc.key {
			t.Errorf("%s in %s: keys %v, want %s", tc.call, tc.fn, c.Keys, tc.key)
		}
	}
}
