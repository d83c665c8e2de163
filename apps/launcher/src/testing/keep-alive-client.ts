import { parseAnswerBody, type SendRequest } from '@oversell/contracts/testing';
import { Agent, request } from 'node:http';

export interface KeepAliveClient {
  send: SendRequest;
  close(): void;
}

/**
 * A client on one keep-alive connection at a time (maxSockets 1), so each request goes out on the
 * connection the previous answer left, as a browser or a load tool would reuse it. A request with
 * `expect: 100-continue` waits for the server's 100 Continue before it sends the body, as curl does.
 */
export function keepAliveClient(baseUrl: string): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send: SendRequest = ({ method, path, body, headers = {} }) =>
    new Promise((resolve, reject) => {
      const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const outgoing = request(new URL(path, baseUrl), { method, agent, headers: sized }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          // Answered without asking for the body: the connection is half a request, give it up as curl does.
          if (!outgoing.writableEnded) outgoing.destroy();
          resolve({ status: response.statusCode ?? 0, body: parseAnswerBody(Buffer.concat(chunks).toString()) });
        });
      });
      outgoing.on('error', reject);
      if (headers.expect === '100-continue') {
        outgoing.once('continue', () => outgoing.end(body));
        outgoing.flushHeaders();
      } else {
        outgoing.end(body);
      }
    });
  return { send, close: () => agent.destroy() };
}
