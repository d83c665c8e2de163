/** One server-sent event as a client reads it: its name (`message` when none is given) and its data. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, as they arrive (EventSource's parsing, for a client in
 * Node: a test, the followers of the bench). Comments (`:` lines) are skipped; lines end in LF (or CRLF); the stream ends with the body.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffered = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (line === '') {
        if (data.length) yield { event, data: data.join('\n') };
        [event, data] = ['message', []];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const [field, value] = colon < 0 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
}
