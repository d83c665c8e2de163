import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** The answer's headers, names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `text` as it is to 127.0.0.1:`port` and reads until the server closes: for requests no HTTP
 * client would send (headers past the parser's limit, bytes that are not HTTP), which Node's parser
 * refuses before the framework sees them.
 */
export function sendRawRequest(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.end(text));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    // A reset once the server has answered is its way of closing; before an answer, finish says so.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      const answer = parseHttpAnswer(received);
      if (!answer) return reject(new Error(`the connection closed without an answer (${JSON.stringify(received.slice(0, 80))})`));
      resolve(answer);
    });
  });
}

/** An HTTP/1.1 answer read off a socket as text: its status, headers (names in lower case) and body; null before its head is complete. */
export function parseHttpAnswer(received: string): RawAnswer | null {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: received.slice(end + 4) };
}

/** Requests Node's HTTP parser refuses, and what the lab answers each: its body's code, the status. */
export const UNPARSABLE_REQUESTS: readonly { case: string; text: string; status: number; error: string }[] = [
  { case: 'headers over 16 KiB', text: `GET /api/strategies HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431, error: 'header_too_large' },
  { case: 'bytes that are not HTTP', text: 'HELLO THERE\r\n\r\n', status: 400, error: 'malformed_request' },
];
