/** The socket of a refused request, as far as a lingering close needs it (a `node:net` Socket is one). */
export interface LingeringSocket {
  readonly writable: boolean;
  /** What Node's server calls to close a `Connection: close` answer's socket; replaced here. */
  destroySoon: () => void;
  end(): unknown;
  destroy(): unknown;
  pause(): unknown;
  resume(): unknown;
  once(event: 'close' | 'end', listener: () => void): unknown;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
}

/** How long a closing connection keeps draining what the client still sends (nginx's lingering_timeout is 5 s). */
const LINGER_MS = 2000;

/**
 * A lingering close, as nginx does it, for a refusal answered with `Connection: close` before the body
 * was read; the gateway and the instances close their refusals this way. Node's server closes such a
 * socket with destroySoon (end, then destroy as soon as the answer is written) while the client's
 * unread bytes still arrive: a reset, and the client can lose the answer it had not read yet. Here the
 * socket is ended and drained (up to `capBytes` more, then no longer read), and destroyed only when the
 * client ends too or LINGER_MS passed.
 */
export function lingerOnClose(socket: LingeringSocket, capBytes: number): void {
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    let read = 0;
    const destroy = () => socket.destroy();
    const timer = setTimeout(destroy, LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', destroy);
    socket.on('data', (chunk) => {
      read += chunk.length;
      // Read no more, but close only on the timer: destroyed now, with the client's bytes still
      // buffered, the reset would reach a client that has not read its answer yet (seen in CI).
      if (read > capBytes) socket.pause();
    });
    socket.resume();
  };
}
