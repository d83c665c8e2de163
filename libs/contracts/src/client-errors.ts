import { errorBodyIn, type LocalizedErrorBody } from './errors';

/** What Node's HTTP server hands Fastify's `clientErrorHandler`: a request it could not parse. */
export interface ClientError {
  code?: string;
}

/** The socket of such a request, as far as the answer needs it. */
export interface ClientSocket {
  readonly destroyed: boolean;
  readonly writable: boolean;
  write(data: string): unknown;
  destroy(error?: Error): unknown;
}

/**
 * The lab's body for a request Node's HTTP parser refused before Fastify saw it: headers over Node's
 * 16 KiB (431), a request it timed out reading (408), or bytes that are not HTTP (400). Fastify's own
 * handler answers these with its `{ "error": "Bad Request", "message": "Client Error" }`, without the
 * security headers.
 */
export function clientErrorBody(error: ClientError): LocalizedErrorBody {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { statusCode: 431, error: 'header_too_large', message: { en: 'the request headers are larger than the server reads (16 KiB in all)', 'zh-CN': '请求头超过了服务器读取的上限（总共 16 KiB）' } };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { statusCode: 408, error: 'request_timeout', message: { en: 'the request did not arrive in full in time', 'zh-CN': '请求未能在时限内完整到达' } };
  const code = error.code ?? 'unparsable';
  return { statusCode: 400, error: 'malformed_request', message: { en: `the request is not valid HTTP/1.1 (${code})`, 'zh-CN': `请求不是有效的 HTTP/1.1（${code}）` } };
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * A Fastify `clientErrorHandler` that answers in the lab's body with `headers()` (the security headers a
 * hook would have added) and closes the connection, as Node's own handler does: the parser cannot find
 * where the next request would start. A reset connection gets nothing.
 */
export function answerClientErrors(headers: () => Record<string, string>): (error: Error & ClientError, socket: ClientSocket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const head = Object.entries(headers())
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // In English: a request the parser refused has no Accept-Language anyone could read.
    const answer = errorBodyIn(clientErrorBody(error), 'en');
    const body = JSON.stringify(answer);
    if (socket.writable) {
      const length = new TextEncoder().encode(body).length;
      socket.write(`HTTP/1.1 ${answer.statusCode} ${REASONS[answer.statusCode]}\r\n${head}content-type: application/json; charset=utf-8\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n${body}`);
    }
    socket.destroy(error);
  };
}
