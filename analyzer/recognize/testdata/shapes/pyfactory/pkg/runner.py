from .base import AbstractRunner


class ChatCompletionRunner(AbstractRunner):
    @classmethod
    def run_tools(cls, client, params, options=None):
        runner = cls()
        opts = dict(options or {})
        opts["headers"] = {**opts.get("headers", {}), "X-Helper-Method": "run_tools"}
        runner._run(lambda: runner._run_tools(client, params, opts))
        return runner
