import { freshProductId } from '@oversell/stock/testing';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * The service's error messages in the language the client asks for, as GET /api/strategies answers its
 * texts: `?lang=`, else Accept-Language, else English. The code and the field are the same in both.
 */
let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.close();
});

const ask = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) => {
  const reply = await service.app.inject({ method, url, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, payload: body === undefined ? undefined : JSON.stringify(body) });
  return { status: reply.statusCode, language: reply.headers['content-language'], body: reply.json() };
};

it('answers a bad course state in Chinese for Accept-Language zh-CN or ?lang=zh-CN, in English otherwise, with the same code and field', async () => {
  const bad = { lessonId: 7 };
  const zh = await ask('PUT', '/api/course', bad, { 'accept-language': 'zh-CN,zh;q=0.9' });
  const byQuery = await ask('PUT', '/api/course?lang=zh-CN', bad);
  const en = await ask('PUT', '/api/course', bad);
  for (const answer of [zh, byQuery, en]) expect(answer).toMatchObject({ status: 400, body: { error: 'validation_failed', field: 'lessonId' } });
  expect(zh).toMatchObject({ language: 'zh-CN', body: { message: expect.stringContaining('lessonId 必须是字符串') } });
  expect(zh.body.details[0].problems).toContain('lessonId 必须是字符串，没有课程时为 null');
  expect(byQuery.body).toEqual(zh.body);
  expect(en).toMatchObject({ language: 'en', body: { message: expect.stringContaining('lessonId must be a string, or null for no lesson') } });
});

it('answers an order refused by its schema, and a sold-out order, in the language asked for', async () => {
  const productId = freshProductId();
  expect((await ask('POST', `/api/products/${productId}/reset`, { stock: 0, strategy: 'lua-decrement' })).status).toBe(200);
  const order = { productId, quantity: 1, strategy: 'lua-decrement' };
  expect(await ask('POST', '/api/orders', { ...order, quantity: 0 }, { 'accept-language': 'zh' })).toMatchObject({ status: 400, body: { error: 'validation_failed', field: 'quantity', message: 'quantity 不能小于 1' } });
  expect(await ask('POST', '/api/orders', order, { 'accept-language': 'zh-CN' })).toMatchObject({ status: 409, body: { error: 'sold_out', message: `商品 ${productId} 剩余不足 1 件` } });
  expect(await ask('POST', '/api/orders', order)).toMatchObject({ status: 409, body: { error: 'sold_out', message: `product ${productId} has fewer than 1 units left` } });
});

it("answers the stock library's errors in the language asked for", async () => {
  const productId = freshProductId();
  const zh = await ask('GET', `/api/products/${productId}/inventory?lang=zh-CN`);
  const en = await ask('GET', `/api/products/${productId}/inventory`);
  expect(zh).toMatchObject({ status: 404, body: { error: 'product_not_found', message: `商品 ${productId} 不存在；请先用 POST /api/products/${productId}/reset 重置它` } });
  expect(en).toMatchObject({ status: 404, body: { error: 'product_not_found', message: expect.stringMatching(/^product \d+ does not exist/) } });
});

it('answers a ?lang= it has no texts in naming the field, in the language of Accept-Language', async () => {
  const answer = await ask('GET', '/api/strategies?lang=fr', undefined, { 'accept-language': 'zh-CN' });
  expect(answer).toMatchObject({ status: 400, language: 'zh-CN', body: { error: 'validation_failed', field: 'lang', message: 'lang 必须是 en、zh-CN 之一' } });
});

it("answers Fastify's routing errors and the Host check, given before any hook, in the language asked for", async () => {
  const zh = { 'accept-language': 'zh-CN' };
  expect(await ask('GET', '/api/products/%zz/inventory', undefined, zh)).toMatchObject({ status: 400, language: 'zh-CN', body: { error: 'malformed_url', message: '路径中有格式错误的百分号转义（% 后必须跟两位十六进制数字）' } });
  const misdirected = await ask('GET', '/api/strategies', undefined, { ...zh, host: 'evil.example' });
  expect(misdirected).toMatchObject({ status: 421, body: { error: 'misdirected_request', message: expect.stringContaining('本实验室不响应 Host "evil.example"') } });
});

it("answers the fault rules the run form shares (@oversell/contracts) in the language asked for, naming the fault's field", async () => {
  const productId = freshProductId();
  const reset = { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'clock-offset', offsetMs: 1000 }, { kind: 'pause', at: 'lock-acquired', every: 0 }] };
  const zh = await ask('POST', `/api/products/${productId}/reset`, reset, { 'accept-language': 'zh-CN,en;q=0.5' });
  const en = await ask('POST', `/api/products/${productId}/reset?lang=en`, reset, { 'accept-language': 'zh-CN' });
  for (const answer of [zh, en]) expect(answer).toMatchObject({ status: 400, body: { error: 'validation_failed', field: 'faults[0].instance' } });
  expect(zh.language).toBe('zh-CN');
  expect(zh.body.details).toEqual([
    { field: 'faults[0].instance', problems: ['clock-offset 故障必须给出 instance'] },
    { field: 'faults[1].every', problems: ['every 必须是 1 到 1000000 之间的整数'] },
    { field: 'faults[1].durationMs', problems: ['pause 故障需要 durationMs，取 1 到 30000 之间的整数'] },
  ]);
  expect(zh.body.message).toBe('clock-offset 故障必须给出 instance；every 必须是 1 到 1000000 之间的整数；pause 故障需要 durationMs，取 1 到 30000 之间的整数');
  expect(en).toMatchObject({ language: 'en', body: { message: 'instance is required for clock-offset; every must be a whole number from 1 to 1000000; a pause fault needs durationMs, a whole number from 1 to 30000' } });
  // Refused before the reset: the product was never created.
  expect((await ask('GET', `/api/products/${productId}/inventory`)).status).toBe(404);
});
