from .base import AbstractRunner


class StreamingRunner(AbstractRunner):
    @staticmethod
    def run_tools(client, params, options=None):
        runner = StreamingRunner()
        runner._run(lambda: runner._run_tools(client, params, options))
        return runner

    def _create_chat_completion(self, client, params, options):
        last = None
        for chunk in client.chat.completions.create(**params, stream=True):
            last = chunk
        return last
