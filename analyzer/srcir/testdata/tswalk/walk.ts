// A JSON-schema walker with rewriters by property name: a recursion whose repeated call is a child
// accessor (schema.variants()), whose result is tested for a leaf, whose elements' names
// select a rewriter from a table and whose rewriters' results are walked next. Not a turn
// loop.

export class Schema {
  name = "";
  description = "";
  anyOf: Schema[] = [];

  variants(): Schema[] {
    return this.anyOf;
  }
}

export type Rewriter = (s: Schema) => Schema[];

export class Transformer {
  constructor(private byName: Map<string, Rewriter>) {}

  transform(s: Schema): void {
    const variants = s.variants();
    if (variants.length === 0) {
      s.description = s.description.trim();
      return;
    }
    for (const v of variants) {
      const rw = this.byName.get(v.name);
      if (!rw) {
        continue;
      }
      for (const next of rw(v)) {
        this.transform(next);
      }
    }
  }
}
