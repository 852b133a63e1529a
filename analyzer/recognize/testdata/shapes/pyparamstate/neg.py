"""Loops testing a field of an object they hand along that no model step wrote: none is a turn loop."""


def serve(worker, jobs):
    """A queue consumer: its handler is handed the job, not the results the loop tests."""
    while True:
        job = jobs.get()
        worker.results.append(worker.handler(job))
        for item in worker.results[-1] or []:
            worker.sinks[item["kind"]](item)
        if worker.results[-1] is None:
            break


def ask(client, req):
    """A retry loop around one call handed the request's messages."""
    for attempt in range(3):
        try:
            reply = client.complete(req.messages)
            req.messages.append(reply)
            return reply
        except TimeoutError:
            if req.messages[-1]["role"] == "system":
                break
            continue
    return None
