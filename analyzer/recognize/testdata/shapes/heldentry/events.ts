// The event stream a runner is: _run starts the executor in a setTimeout and returns at once
// (openai@7.55.0 lib/EventStream.js:1077-1102).
export class EventStream {
  protected _run(executor: () => Promise<unknown>): void {
    setTimeout(() => {
      Promise.resolve()
        .then(executor)
        .catch((error) => this._handleError(error))
        .then(() => this._emit("end"));
    }, 0);
  }

  protected _emit(event: string): void {}

  protected _handleError(error: unknown): void {}
}
