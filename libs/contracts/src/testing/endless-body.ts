import { connect } from 'node:net';
import { parseHttpAnswer } from './raw-request';

export interface EndlessBodyAnswer {
  status: number;
  /** The answer's headers, names in lower case. */
  headers: Record<string, string>;
  /** Body bytes the client got to write before the server answered or closed. */
  bodyBytesWritten: number;
  /** The server closed the connection (read EOF or reset). */
  closed: boolean;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * POSTs to `path` a body declared `declaredBytes` long and writes it for as long as the server reads,
 * stopping once the answer has come and the server has closed (or it has all been written). Says how
 * much of the body the client got to write: a server that caps what it reads stops it early.
 */
export function sendEndlessBody(port: number, path: string, declaredBytes = 1024 ** 3): Promise<EndlessBodyAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${declaredBytes}\r\n\r\n`;
    let headBytes = 0;
    let received = '';
    let answered = false;
    let closed = false;

    const writeBody = () => {
      while (!closed && socket.bytesWritten - headBytes < declaredBytes) {
        const left = declaredBytes - (socket.bytesWritten - headBytes) - socket.writableLength;
        if (left <= 0) return;
        if (!socket.write(left < CHUNK.length ? CHUNK.subarray(0, left) : CHUNK)) return void socket.once('drain', writeBody);
      }
    };
    const finish = () => {
      closed = true;
      const answer = parseHttpAnswer(received);
      if (!answer) return reject(new Error(`the connection closed without an answer after ${socket.bytesWritten - headBytes} body bytes`));
      resolve({ status: answer.status, headers: answer.headers, bodyBytesWritten: socket.bytesWritten - headBytes, closed: answered });
    };

    socket.on('connect', () => {
      socket.write(head);
      headBytes = Buffer.byteLength(head);
      writeBody();
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      answered = true;
    });
    // A reset after the answer is the server closing too; before it, the answer is missing (finish says so).
    socket.on('error', () => socket.destroy());
    socket.on('close', finish);
  });
}
