/**
 * The bench's yardstick for the stack's own cost: a Fastify process with nothing added (no Nest, no
 * validation pipe, no helmet, no request logger, Fastify's own JSON parser) answering POST /api/noop as
 * the service's no-op does. Listens on an OS-chosen loopback port and sends it to its parent over IPC.
 * It counts its answers as an instance counts a run's (the first request's arrival, the last answer),
 * and hands them over, starting a new count, when its parent sends 'figures'.
 */
import Fastify from 'fastify';
import { AnswerCount } from '../lab/answer-count';

async function main(): Promise<void> {
  const count = new AnswerCount();
  const app = Fastify({ logger: false });
  app.post<{ Body: { productId?: unknown } }>('/api/noop', async (request, reply) => {
    count.answered(reply.elapsedTime);
    return { ok: true, productId: request.body?.productId };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('message', (message) => {
    if (message !== 'figures') return;
    process.send?.({ figures: count.take() });
  });
  // Stops with its parent: the channel closes when the bench ends, however it ends.
  process.once('disconnect', () => void app.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`bare fastify failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
