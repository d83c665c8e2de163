import type { RunEvent } from '@oversell/contracts';

/** Stands in for the browser's EventSource: tests push server-sent events into it by hand. */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  private readonly listeners = new Map<string, ((event: Event) => void)[]>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  static latest(): FakeEventSource {
    const source = FakeEventSource.instances.at(-1);
    if (!source) throw new Error('no EventSource was opened');
    return source;
  }

  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.closed = true;
  }

  /** Delivers one message the way the server writes it: `event:` the type, `data:` the JSON. */
  emit(event: RunEvent) {
    this.dispatch(new MessageEvent(event.type, { data: JSON.stringify(event) }));
  }

  /** Delivers a named event of another stream (the course's `course`), its data as JSON. */
  send(type: string, data: unknown) {
    this.dispatch(new MessageEvent(type, { data: JSON.stringify(data) }));
  }

  fail() {
    this.dispatch(new Event('error'));
  }

  private dispatch(event: Event) {
    if (this.closed) throw new Error(`event "${event.type}" sent to a closed EventSource`);
    for (const listener of this.listeners.get(event.type) ?? []) listener(event);
  }
}
