import { sendEndlessBody } from '@oversell/contracts/testing';
import type { AddressInfo } from 'node:net';
import { OVERSIZED_READ_FACTOR } from '../src/http/read-oversized-bodies';
import { startService, type ServiceUnderTest } from './service-under-test';

const LIMIT = 16_384;
const CAP = LIMIT * OVERSIZED_READ_FACTOR;
/** What the client can have in flight past the cap when it learns of the close: both sockets' buffers on loopback. */
const IN_FLIGHT = 16 * 1024 ** 2;

/** An instance over a real socket: how much of an endless body it lets a client send. */
describe('an oversized body (over a socket)', () => {
  let service: ServiceUnderTest;
  let port: number;

  beforeAll(async () => {
    service = await startService({ BODY_LIMIT_BYTES: String(LIMIT) });
    await service.app.listen(0, '127.0.0.1');
    port = (service.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => service.close());

  it('declared past the cap (1 GiB): 413 at once, Connection: close, and the client stopped after a few MB', async () => {
    const answer = await sendEndlessBody(port, '/api/orders');
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    console.log(`body bytes written: ${answer.bodyBytesWritten}`);
    expect(answer.bodyBytesWritten).toBeLessThan(CAP + IN_FLIGHT);
  });

  it('declared under the cap: read to its end, 413, and the next request is answered', async () => {
    const answer = await sendEndlessBody(port, '/api/orders', CAP);
    expect(answer).toMatchObject({ status: 413, bodyBytesWritten: CAP });
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });
});
