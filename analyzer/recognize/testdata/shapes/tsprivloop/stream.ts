export class EventStream {
  protected ended = false;

  protected _run(fn: () => Promise<void>): void {
    Promise.resolve().then(async () => {
      try {
        await fn();
      } finally {
        this.ended = true;
      }
    });
  }
}
