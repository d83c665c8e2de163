import { COURSE_LIMITS, serverSentEvents, type CourseState } from '@oversell/contracts';
import { JSON_HEADERS } from '@oversell/contracts/testing';
import { RedisConnections } from '@oversell/stock';
import { randomUUID } from 'node:crypto';
import { courseChannel } from '@oversell/lab';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * Follow mode's state across instances: instance A (in this process) and instance B (an OS process of
 * its own) on the same Redis and key prefix, as two instances behind the lab's gateway.
 */
const TOKEN = 'course-e2e-test-admin-token-0123';
const bearer = { authorization: `Bearer ${TOKEN}` };

let a: ServiceUnderTest;
let b: ServiceProcess;

beforeAll(async () => {
  a = await startService({ ADMIN_TOKEN: TOKEN });
  b = await startServiceProcess({ env: { REDIS_KEY_PREFIX: a.keyPrefix, ADMIN_TOKEN: TOKEN } });
});

afterAll(async () => {
  delete process.env.ADMIN_TOKEN;
  await b?.stop();
  await a?.close();
});

const put = (body: unknown, headers: Record<string, string> = bearer) => a.send({ method: 'PUT', path: '/api/course', body: JSON.stringify(body), headers: { ...JSON_HEADERS, ...headers } });
const stateOn = async (instance: 'a' | 'b'): Promise<CourseState> => (instance === 'a' ? await a.get('/api/course') : await b.request('/api/course')).body as CourseState;

/** A follower of instance B: its course events, one at a time. */
async function follow(): Promise<{ next(): Promise<CourseState>; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${b.url}/api/course/events`, { signal: abort.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = serverSentEvents(response.body!);
  return {
    async next() {
      const { value, done } = await events.next();
      if (done) throw new Error('the course events ended');
      expect(value.event).toBe('course');
      return JSON.parse(value.data) as CourseState;
    },
    close: () => abort.abort(),
  };
}

it('starts with no lesson at version 0, the same on every instance', async () => {
  const expected = { lessonId: null, runIds: [], version: 0 };
  expect(await stateOn('a')).toMatchObject(expected);
  expect(await stateOn('b')).toMatchObject(expected);
});

it('serves on instance B what a PUT on instance A set, its version grown by one', async () => {
  const before = await stateOn('b');
  const runIds = [randomUUID(), randomUUID()];
  const answer = await put({ lessonId: 'owner-token', runIds });
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ lessonId: 'owner-token', runIds, version: before.version + 1, updatedAt: expect.any(String) });
  expect(await stateOn('b')).toEqual(answer.body);
  expect(await stateOn('a')).toEqual(answer.body);
});

it('keeps the runs when the lesson stays and runIds is omitted, clears them when the lesson changes', async () => {
  const runIds = [randomUUID()];
  await put({ lessonId: 'watchdog', runIds });
  expect((await put({ lessonId: 'watchdog' })).body).toMatchObject({ lessonId: 'watchdog', runIds });
  expect((await put({ lessonId: 'fencing' })).body).toMatchObject({ lessonId: 'fencing', runIds: [] });
  expect((await put({ lessonId: null })).body).toMatchObject({ lessonId: null, runIds: [] });
});

it("sends a follower on B the current state first, then every change made on A, in version order", async () => {
  const current = (await put({ lessonId: 'no-lock', runIds: [] })).body as CourseState;
  const follower = await follow();
  try {
    expect(await follower.next()).toEqual(current);
    const changes: CourseState[] = [];
    for (const lessonId of ['setnx', 'setnx-expire', 'set-nx-px']) changes.push((await put({ lessonId })).body as CourseState);
    for (const change of changes) expect(await follower.next()).toEqual(change);
    expect(changes.map((c) => c.version)).toEqual([current.version + 1, current.version + 2, current.version + 3]);
  } finally {
    follower.close();
  }
});

it('gives concurrent changes from both instances one version each, none lost or repeated', async () => {
  const start = (await stateOn('a')).version;
  const follower = await follow();
  try {
    await follower.next();
    const lessons = Array.from({ length: 20 }, (_, i) => `lesson-${i}`);
    const answers = await Promise.all(
      lessons.map((lessonId, i) =>
        i % 2 ? put({ lessonId }) : fetch(`${b.url}/api/course`, { method: 'PUT', headers: { ...JSON_HEADERS, ...bearer }, body: JSON.stringify({ lessonId }) }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const versions = answers.map((answer) => (answer.body as CourseState).version).sort((x, y) => x - y);
    expect(versions).toEqual(lessons.map((_, i) => start + 1 + i));
    const seen: CourseState[] = [];
    for (const _ of lessons) seen.push(await follower.next());
    expect(seen.map((s) => s.version)).toEqual(versions);
    // What each version says is what its PUT was answered.
    for (const state of seen) expect(answers.find((answer) => (answer.body as CourseState).version === state.version)?.body).toEqual(state);
    expect(await stateOn('b')).toEqual(seen[seen.length - 1]);
  } finally {
    follower.close();
  }
});

it('holds one Redis subscription per instance, however many follow it', async () => {
  const redis = a.app.get(RedisConnections).control;
  const subscriptions = async () => ((await redis.pubsub('NUMSUB', courseChannel(a.keyPrefix))) as [string, number])[1];
  const followers = await Promise.all(Array.from({ length: 10 }, () => follow()));
  try {
    for (const follower of followers) await follower.next();
    // B's alone: A serves no follower. Earlier followers of B shared the same subscription.
    expect(await subscriptions()).toBe(1);
  } finally {
    for (const follower of followers) follower.close();
  }
});

describe('with ADMIN_TOKEN set (as a lab beyond loopback must have)', () => {
  it('refuses a PUT without the token (401) or with another (403), and changes nothing', async () => {
    const before = await stateOn('a');
    expect(await put({ lessonId: 'stranger' }, {})).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await put({ lessonId: 'stranger' }, { authorization: 'Bearer not-the-lab-token-0123456789' })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await stateOn('b')).toEqual(before);
  });

  it('lets anyone read and follow without a token', async () => {
    expect((await b.request('/api/course')).status).toBe(200);
    const follower = await follow();
    expect(await follower.next()).toEqual(await stateOn('b'));
    follower.close();
  });
});

it.each([
  ['no lessonId', { runIds: [] }, 'lessonId'],
  ['a lessonId that is a number', { lessonId: 7 }, 'lessonId'],
  [`a lessonId over ${COURSE_LIMITS.lessonIdMaxLength} characters`, { lessonId: 'x'.repeat(COURSE_LIMITS.lessonIdMaxLength + 1) }, 'lessonId'],
  ['runIds null', { lessonId: 'a', runIds: null }, 'runIds'],
  ['a run id that is not one', { lessonId: 'a', runIds: ['run-1'] }, 'runIds'],
  [`more than ${COURSE_LIMITS.runIdsMax} runIds`, { lessonId: 'a', runIds: Array.from({ length: COURSE_LIMITS.runIdsMax + 1 }, () => randomUUID()) }, 'runIds'],
  ['a version of its own (the version is the service\'s)', { lessonId: 'a', version: 99 }, 'version'],
])('refuses %s with a 400 naming the field, and changes nothing', async (_case, body, field) => {
  const before = await stateOn('a');
  const answer = await put(body);
  expect(answer).toMatchObject({ status: 400, body: { statusCode: 400, error: 'validation_failed', field } });
  expect(await stateOn('b')).toEqual(before);
});
