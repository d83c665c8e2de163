import { STRATEGY_NAMES, strategyEntry, type StrategyDescription } from '@oversell/contracts';
import { startService, type ServiceUnderTest } from './service-under-test';

/** GET /api/strategies in the language a client asks for: `?lang=`, else Accept-Language, else English. */
let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.close();
});

const strategies = (url: string, headers: Record<string, string> = {}) => service.app.inject({ method: 'GET', url, headers });

async function answeredIn(url: string, headers: Record<string, string> = {}): Promise<{ language: string | undefined; body: StrategyDescription[] }> {
  const reply = await strategies(url, headers);
  expect(reply.statusCode).toBe(200);
  return { language: reply.headers['content-language'] as string | undefined, body: reply.json() };
}

it('answers every text of every strategy in zh-CN for ?lang=zh-CN, the scripts as they are', async () => {
  const [zh, en] = [await answeredIn('/api/strategies?lang=zh-CN'), await answeredIn('/api/strategies')];
  expect(zh.language).toBe('zh-CN');
  expect(zh.body.map((s) => s.name)).toEqual([...STRATEGY_NAMES]);
  for (const [index, strategy] of zh.body.entries()) {
    const texts = strategyEntry(strategy.name).texts['zh-CN'];
    expect(strategy).toMatchObject({ title: texts.title, description: texts.description, guarantee: texts.guarantee, pitfall: texts.pitfall, reproduce: texts.reproduce, symptom: texts.symptom, steps: texts.steps });
    if (texts.choice) expect(strategy.choice).toMatchObject(texts.choice);
    expect(strategy.scripts).toEqual(en.body[index].scripts);
  }
  expect(zh.body.find((s) => s.name === 'uuid-lua')?.title).toBe('持有者令牌 + Lua 释放');
});

it('answers English by default, and for an Accept-Language it has no texts in', async () => {
  for (const headers of [{}, { 'accept-language': 'fr-FR, de;q=0.8' }] as Record<string, string>[]) {
    const { language, body } = await answeredIn('/api/strategies', headers);
    expect(language).toBe('en');
    expect(body.find((s) => s.name === 'uuid-lua')?.title).toBe(strategyEntry('uuid-lua').texts.en.title);
  }
});

it('follows Accept-Language when there is no ?lang=, a bare zh included; ?lang= wins over it', async () => {
  expect((await answeredIn('/api/strategies', { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' })).language).toBe('zh-CN');
  expect((await answeredIn('/api/strategies', { 'accept-language': 'fr;q=1, zh;q=0.5' })).language).toBe('zh-CN');
  expect((await answeredIn('/api/strategies', { 'accept-language': 'en-US,en;q=0.9,zh-CN;q=0.5' })).language).toBe('en');
  expect((await answeredIn('/api/strategies?lang=en', { 'accept-language': 'zh-CN' })).language).toBe('en');
  const reply = await strategies('/api/strategies', { 'accept-language': 'zh-CN' });
  expect(reply.headers.vary).toContain('Accept-Language');
});

it('refuses a ?lang= it has no texts in, naming the field', async () => {
  const reply = await strategies('/api/strategies?lang=fr');
  expect(reply.statusCode).toBe(400);
  expect(reply.json()).toMatchObject({ error: 'validation_failed', field: 'lang', message: 'lang must be one of en, zh-CN' });
});

it('documents both ways of asking in the OpenAPI document', async () => {
  const { paths } = (await strategies('/api/docs-json')).json();
  const parameters = paths['/api/strategies'].get.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`);
  expect(parameters).toEqual(expect.arrayContaining(['query lang', 'header Accept-Language']));
});
