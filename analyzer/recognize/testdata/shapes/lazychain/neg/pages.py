# Negatives: lazy iterator classes with no model decision.


def transform(row):
    return {"id": row[0], "value": row[1]}


class Page:
    # rows are read when the page is consumed
    def __init__(self, db, sql, offset=0):
        self.db = db
        self.sql = sql
        self.offset = offset
        self._rows = []
        self._done = False

    def __iter__(self):
        for row in self.db.query(self.sql, self.offset):
            self._rows.append(row)
            yield row
        self._done = True

    def _force(self):
        if not self._done:
            list(self)

    def rows(self):
        self._force()
        return self._rows

    def process(self):
        out = []
        for r in self.rows():
            out.append(transform(r))
        return out


class Pager:
    # the next page is asked for while the last one had rows: no tool picked by name
    def __init__(self, db, sql):
        self.db = db
        self.sql = sql

    def pages(self):
        offset = 0
        current = Page(self.db, self.sql)
        while current:
            yield current
            done = current.process()
            if done:
                offset += len(done)
                current = Page(self.db, self.sql, offset)
            else:
                break


class Lines:
    # a plain iterator class
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
