def run_loop(model, tools, messages, max_steps=10):
    for _ in range(max_steps):
        reply = model.generate(messages)
        if not reply.tool_calls:
            return reply.content
        for call in reply.tool_calls:
            messages.append(tools[call.name](**call.arguments))
    raise RuntimeError("max steps reached")
