import { errorBodyIn, type LocalizedErrorBody } from './errors';
import { serverSentEvents } from './server-sent-events';

/** A body that arrives cut at these byte offsets, as a socket may cut it anywhere. */
function body(text: string, cuts: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const ends = [...cuts, bytes.length];
  return new ReadableStream<Uint8Array>({
    start(controller) {
      ends.forEach((end, i) => controller.enqueue(bytes.slice(i ? ends[i - 1] : 0, end)));
      controller.close();
    },
  });
}

it('reads named events, data over several lines, CRLF, and chunks cut mid-line or mid-character; skips comments', async () => {
  const text = ': heartbeat\n\nevent: course\ndata: {"version":1}\n\r\ndata: one\r\ndata: two\n\nevent: course\ndata: 课程\n\n';
  const inside = new TextEncoder().encode(text).length - 4; // inside 程, the last character's three bytes
  const events = [];
  for await (const event of serverSentEvents(body(text, [7, 20, inside]))) events.push(event);
  expect(events).toEqual([
    { event: 'course', data: '{"version":1}' },
    { event: 'message', data: 'one\ntwo' },
    { event: 'course', data: '课程' },
  ]);
});

it('gives an error body in the language asked for, the code and field the same', () => {
  const body: LocalizedErrorBody = { statusCode: 400, error: 'validation_failed', field: 'lessonId', message: { en: 'bad', 'zh-CN': '错误' }, details: [{ field: 'lessonId', problems: [{ en: 'bad', 'zh-CN': '错误' }] }] };
  expect(errorBodyIn(body, 'zh-CN')).toEqual({ statusCode: 400, error: 'validation_failed', field: 'lessonId', message: '错误', details: [{ field: 'lessonId', problems: ['错误'] }] });
  expect(errorBodyIn(body, 'en')).toMatchObject({ error: 'validation_failed', field: 'lessonId', message: 'bad' });
});
