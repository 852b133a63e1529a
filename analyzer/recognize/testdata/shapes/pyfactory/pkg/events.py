import threading


class EventStream:
    def __init__(self):
        self.ended = False
        self._thread = None

    def _run(self, executor):
        def target():
            try:
                executor()
            finally:
                self.ended = True

        self._thread = threading.Thread(target=target, daemon=True)
        self._thread.start()
