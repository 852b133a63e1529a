export class EventStream {
  protected _startPromise?: Promise<void>;
  protected ended = false;
  controller = new AbortController();

  protected _run(executor: () => Promise<any>): void {
    setTimeout(() => {
      this._startPromise = executor();
      this._startPromise.then(() => { this.ended = true; }).catch((e) => { this.ended = true; });
    }, 0);
  }
}
