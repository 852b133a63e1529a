"""A syntax-tree walker with handlers by node kind: a recursion whose repeated call is a
child accessor (node.named_children()), whose result is tested for a leaf, whose elements'
names (their grammar's node types) select a handler from a table and whose handlers' results are walked next. Nothing but
the tree enters the walk: not a turn loop."""


class Node:
    def __init__(self, name, children):
        self.name = name
        self.children = children

    def child(self, kind):
        for c in self.children:
            if c.name == kind:
                return c
        return None

    def named_children(self):
        return self.children


class Walker:
    def __init__(self, handlers):
        self.handlers = handlers

    def walk(self, node: Node) -> list:
        kids = node.named_children()
        if not kids:
            return []
        out = []
        for k in kids:
            if k.name not in self.handlers:
                continue
            handler = self.handlers[k.name]
            for nxt in handler(k):
                out.extend(self.walk(nxt))
        return out

    def first_leaf(self, node: Node) -> Node:
        while True:
            kids = node.named_children()
            if not kids:
                return node
            for k in kids:
                if k.name in self.handlers:
                    handler = self.handlers[k.name]
                    node = handler(k)
                    break
