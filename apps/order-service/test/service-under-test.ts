import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { JSON_HEADERS, parseAnswerBody, type SendRequest } from '@oversell/contracts/testing';
import { freshKeyPrefix } from '@oversell/stock/testing';
import { createApp } from '../src/create-app';
import { testStoresEnv } from './test-stores-env';

export interface ServiceUnderTest {
  app: NestFastifyApplication;
  keyPrefix: string;
  send: SendRequest;
  post(url: string, payload: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  get(url: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * The whole service as main.ts builds it (pipes, filters, JSON parser, body limit), on the test
 * database and a key prefix of its own, driven through Fastify's inject (the full HTTP pipeline
 * without a socket).
 */
export async function startService(overrides: Record<string, string> = {}): Promise<ServiceUnderTest> {
  const keyPrefix = freshKeyPrefix();
  Object.assign(process.env, {
    ...testStoresEnv(keyPrefix),
    RUN_WORKER: 'false',
    LOG_LEVEL: 'silent',
    INSTANCE_ID: `api-test-${process.pid}`,
    LOCK_WAIT_TIMEOUT_MS: '10000',
    ...overrides,
  });
  const app = await createApp();
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const send: SendRequest = async ({ method, path, body, headers }) => {
    const response = await app.inject({ method, url: path, payload: body, headers });
    return { status: response.statusCode, body: parseAnswerBody(response.payload) };
  };
  return {
    app,
    keyPrefix,
    send,
    post: (path, payload, headers = {}) => send({ method: 'POST', path, body: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { ...JSON_HEADERS, ...headers } }),
    get: (path) => send({ method: 'GET', path }),
    close: () => app.close(),
  };
}
