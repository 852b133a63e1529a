def run(client, tools, messages):
    """A ReAct loop with no step limit and no cancellation check."""
    while True:
        reply = client.chat(messages)
        if not reply.tool_calls:
            return reply.content
        for call in reply.tool_calls:
            result = tools[call.name](**call.args)
            messages.append({"role": "tool", "content": result})
