# Negatives: one executor, no model decision fed back.


class Batch:
    def __init__(self, executor, source):
        self.executor = executor
        self.source = source

    def run_all(self, jobs):
        # a finite list, each job handed to one executor
        results = []
        for job in jobs:
            results.append(self.executor.run(job))
        return results

    def drain(self):
        # pages of a source, each item handed to one executor whose result is kept, never
        # handed back to the source
        cursor = None
        done = []
        while True:
            page = self.source.fetch(cursor)
            if not page["items"]:
                return done
            done.extend([self.executor.run(item) for item in page["items"]])
            cursor = page["next"]


class Lines:
    # a plain iterator class, no model
    def __init__(self, text):
        self.text = text
        self._done = False

    def __iter__(self):
        for line in self.text.splitlines():
            yield line
        self._done = True

    def all(self):
        if not self._done:
            return list(self)
        return []
