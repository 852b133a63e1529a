#!/bin/sh
# Installs the explored Python/TypeScript/JavaScript agent corpus (frameworks in no other corpus,
# read to find the shapes lifeline misses) the way users have them, at pinned exact versions:
# Python packages with `pip install --no-deps --target DIR/py`, npm packages with `npm install
# --prefix DIR/npm --no-save --ignore-scripts --legacy-peer-deps` (compiled JS in
# DIR/npm/node_modules). Idempotent (a stamp per pinned set).
#
#   bench/corpus-pyts-explore/install.sh [DIR]          # install into DIR (default $CORPUS_PYTS_EXPLORE_DIR or /tmp/lifeline-corpus-pyts-explore); prints DIR
#   bench/corpus-pyts-explore/install.sh --list [DIR]   # install, then print name<TAB>package root<TAB>paths to map
#
# The package roots of --list are what the ground truth's positions are relative to
# (bench/corpus-pyts-explore/*.truth.json); bench/corpus-pyts-explore/run.sh scores lifeline on them.
set -eu
list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
. "$(dirname "$0")/../corpus-pyts/lib.sh"
# name	package root	paths to map (relative to the root)
pyts_install lifeline-corpus-pyts-explore "${1:-${CORPUS_PYTS_EXPLORE_DIR:-/tmp/lifeline-corpus-pyts-explore}}" "$list" \
	"mcp-agent==0.2.6 griptape==1.13.0 langroid==0.69.16 pydantic-ai-slim==2.68.0 pydantic-graph==2.68.0 browser-use==0.13.14 swarms==16.0.3 google-genai==1.52.0 semantic-kernel==1.37.0 langchain==0.3.27 llama-index-core==0.12.52.post1 autogen-agentchat==0.7.5 autogen-core==0.7.5 camel-ai==0.2.90 agno==3.1.10 agentscope==2.0.11 atomic-agents==1.1.11" \
	"@strands-agents/sdk@1.19.0 @aigne/core@1.72.0 @genkit-ai/ai@1.42.0 @voltagent/core@2.10.0 ai@6.0.325 langchain@1.5.14 @langchain/langgraph@1.7.3 @langchain/core@1.4.0 @google/genai@3.3.0 @mastra/core@1.71.0" \
	mcp-agent @py "mcp_agent/workflows/llm/augmented_llm.py mcp_agent/workflows/llm/augmented_llm_openai.py mcp_agent/workflows/llm/augmented_llm_anthropic.py mcp_agent/executor/executor.py mcp_agent/agents/agent.py" \
	griptape @py "griptape/tasks/prompt_task.py griptape/tasks/actions_subtask.py griptape/tasks/base_task.py griptape/tasks/base_subtask.py griptape/tasks/output_schema_validation_subtask.py griptape/drivers/prompt/base_prompt_driver.py griptape/tools/base_tool.py" \
	strands-ts @npm/@strands-agents/sdk "dist/src/agent dist/src/tools/executors" \
	aigne @npm/@aigne/core "lib/esm/agents" \
	genkit-js @npm/@genkit-ai/ai "src/generate src/generate.ts" \
	voltagent @npm/. "@voltagent/core/dist/index.js ai/dist/index.js" \
	langchain-js @npm/. "langchain/dist/agents @langchain/langgraph/dist" \
	genai-js @npm/@google/genai "dist/node/index.mjs" \
	langroid @py "langroid/agent/task.py langroid/agent/base.py langroid/agent/chat_agent.py langroid/language_models/base.py langroid/language_models/openai_gpt.py langroid/utils/configuration.py" \
	pydantic-ai @py "pydantic_ai/agent/abstract.py pydantic_ai/agent/__init__.py pydantic_ai/run.py pydantic_ai/_agent_graph.py pydantic_ai/_tool_execution.py pydantic_ai/tool_manager.py pydantic_ai/usage.py pydantic_ai/models/__init__.py pydantic_graph/graph_builder.py pydantic_graph/step.py pydantic_graph/basenode.py" \
	browser-use @py "browser_use/agent/service.py browser_use/agent/views.py browser_use/tools/service.py browser_use/tools/registry/service.py" \
	swarms @py "swarms/structs/agent.py swarms/agents/llm_manager.py swarms/agents/tool_manager.py swarms/tools/base_tool.py" \
	google-genai @py "google/genai/models.py google/genai/_extra_utils.py" \
	semantic-kernel @py "semantic_kernel/connectors/ai/chat_completion_client_base.py semantic_kernel/connectors/ai/function_choice_behavior.py semantic_kernel/kernel.py semantic_kernel/filters/kernel_filters_extension.py semantic_kernel/connectors/ai/open_ai/services/open_ai_chat_completion_base.py semantic_kernel/connectors/ai/open_ai/services/open_ai_handler.py" \
	langchain-py @py "langchain/agents/agent.py langchain/agents/output_parsers/react_single_input.py langchain/agents/react/agent.py" \
	llama-index @py "llama_index/core/agent/runner/base.py llama_index/core/agent/react/step.py llama_index/core/agent/react/base.py llama_index/core/agent/react/output_parser.py llama_index/core/agent/types.py llama_index/core/base/agent/types.py" \
	autogen-agentchat @py "autogen_agentchat/agents/_assistant_agent.py autogen_agentchat/agents/_base_chat_agent.py autogen_core/models/_model_client.py autogen_core/tools/_workbench.py autogen_core/tools/_static_workbench.py autogen_core/tools/_base.py" \
	camel @py "camel/agents/chat_agent.py" \
	agno @py "agno/agent/agent.py agno/agent/_run.py agno/models/base.py agno/models/fallback.py agno/models/openai/chat.py agno/tools/function.py" \
	agentscope @py "agentscope/agent/_agent.py agentscope/agent/_config.py agentscope/tool/_toolkit.py agentscope/model/_base.py agentscope/model/_openai_chat/_model.py" \
	atomic-agents @py "atomic_agents/agents/base_agent.py atomic_agents/lib/components/agent_memory.py atomic_agents/lib/components/system_prompt_generator.py atomic_agents/lib/base/base_tool.py atomic_agents/lib/factories/mcp_tool_factory.py" \
	mastra @npm/@mastra/core "dist/agent-BOxKOk3n.js"
