// A factory of model clients picked by name; the client posts to an HTTP endpoint.
export interface Provider {
  infer(req: any): Promise<any>;
}

class HttpProvider implements Provider {
  constructor(private url: string) {}
  async infer(req: any): Promise<any> {
    const res = await fetch(this.url, { method: "POST", body: JSON.stringify(req) });
    return res.json();
  }
}

export function createProvider(name: string): Provider {
  return new HttpProvider("https://example.invalid/" + name);
}
