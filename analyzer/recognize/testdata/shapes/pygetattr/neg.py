"""getattr with a literal name, or on the element itself, selects nothing."""


class Reader:
    def __init__(self, source):
        self.source = source

    def drain(self):
        out = []
        while True:
            batch = self.source.fetch()
            if not batch.items:
                return out
            for item in batch.items:
                out.append(getattr(item, "payload", None))
                getattr(self, "record")(item)

    def record(self, item):
        return item
