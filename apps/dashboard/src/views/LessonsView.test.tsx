import { findLesson, lessonRunParams, LESSONS, lessonSides, type CourseState, type Lesson } from '@oversell/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, type Route } from '../test/fake-api';
import { FakeEventSource } from '../test/fake-event-source';
import { result, run, SCENARIOS, STRATEGIES } from '../test/fixtures';
import { renderApp } from '../test/render';

const lesson = (id: string) => findLesson(id) as Lesson;
const queued = (id: string) => run({ id, status: 'queued', startedAt: null, finishedAt: null, result: null });
const course = (patch: Partial<CourseState>): CourseState => ({ lessonId: null, runIds: [], version: 1, updatedAt: '2026-01-01T00:00:00Z', ...patch });

function open(hash: string, routes: Route[] = []) {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  const api = fakeApi([
    { path: 'strategies', body: STRATEGIES },
    { path: 'scenarios', body: SCENARIOS },
    { path: 'runs?limit=50', body: [] },
    // The service answers a presenter's move with the state it keeps.
    { method: 'PUT', path: 'course', body: () => course({ lessonId: 'x' }) },
    ...routes,
  ]);
  renderApp(hash);
  return api;
}

const puts = (api: ReturnType<typeof fakeApi>) => api.requests.filter((r) => r.method === 'PUT' && r.path === 'course').map((r) => r.body);

describe('LessonsView', () => {
  it('lists the course in order, each lesson with its question', async () => {
    open('#/lessons');
    const list = await screen.findByTestId('lesson-list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual(LESSONS.map((l) => l.title.en));
    expect(items[1]).toHaveTextContent(LESSONS[1].question.en);
    expect(screen.getByTestId('lessons-present')).toHaveAttribute('href', `/#/lessons/${LESSONS[0].id}?presenter=1`);
  });

  it('shows a lesson: the claim and question, the lock code, what happened, Explain and a Lab filled with its settings', async () => {
    open('#/lessons/set-nx-px');
    const page = await screen.findByTestId('lesson');
    expect(screen.getByTestId('lesson-title')).toHaveTextContent('SET NX PX: one command');
    expect(page).toHaveTextContent(lesson('set-nx-px').claim.en);
    expect(page).toHaveTextContent(lesson('set-nx-px').question.en);
    expect(page).toHaveTextContent('Lesson 5 of');
    expect(screen.getByTestId('lesson-explanation')).toHaveTextContent("Deleting someone else's lock");
    const code = screen.getByTestId('lesson-code');
    expect(within(code).getByRole('link', { name: 'How naive-setnx works' })).toHaveAttribute('href', '/#/explain/naive-setnx');
    const lab = screen.getAllByTestId('lesson-lab-link')[0].getAttribute('href') ?? '';
    expect(lab).toMatch(/^\/#\/lab\?/);
    expect(lab).toContain('strategy=naive-setnx');
    expect(lab).toContain('initialStock=5');
    expect(lab).toContain('lockTtlMs=1200');
    expect(screen.getByTestId('lesson-next')).toHaveAttribute('href', '/#/lessons/owner-token-get-del');
    expect(screen.getByTestId('lesson-previous')).toHaveAttribute('href', '/#/lessons/setnx-getset');
    expect(screen.queryByTestId('lesson-needs')).not.toBeInTheDocument();
    // Not presenting: nobody is told.
    expect(screen.getByTestId('run-lesson')).toHaveTextContent('Run the lesson');
  });

  it('shows the lock scripts the service loaded', async () => {
    open('#/lessons/atomic-decrement-and-segments');
    const code = await screen.findByTestId('lesson-code');
    await waitFor(() => expect(code).toHaveTextContent('decrement.lua'));
    expect(code).toHaveTextContent("redis.call('GET', KEYS[1])");
  });

  it('says what the failover lesson needs and how to start it', async () => {
    open('#/lessons/master-failover');
    expect(await screen.findByTestId('lesson-needs')).toHaveTextContent('npm run demo -- --sentinels');
  });

  it('presenter mode: → and ← change lesson in the URL, r runs the lesson, and the followers are told each move', async () => {
    const first = lesson('set-nx-px');
    const sides = lessonSides(first);
    const ids = sides.map((_, i) => `run-${i}`);
    const api = open('#/lessons/set-nx-px?presenter=1', [
      { method: 'POST', path: 'runs', status: 201, body: () => queued(ids.shift() ?? 'extra') },
      ...sides.map((_, i) => ({ path: `runs/run-${i}`, body: queued(`run-${i}`) })),
    ]);
    expect(await screen.findByTestId('lessons-view')).toHaveClass('presenter');
    await waitFor(() => expect(puts(api)).toEqual([{ lessonId: 'set-nx-px', runIds: [] }]));

    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await waitFor(() => expect(window.location.hash).toBe('#/lessons/owner-token-get-del?presenter=1'));
    expect(await screen.findByTestId('lesson-title')).toHaveTextContent(lesson('owner-token-get-del').title.en);
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await waitFor(() => expect(window.location.hash).toBe('#/lessons/set-nx-px?presenter=1'));

    fireEvent.keyDown(window, { key: 'r' });
    await waitFor(() => expect(window.location.hash).toBe('#/lessons/set-nx-px/run-0,run-1?presenter=1'));
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual(sides.map(({ side }) => lessonRunParams(first, side)));
    expect(await screen.findByTestId('pitfall-side-broken')).toHaveAttribute('data-run-id', 'run-0');
    await waitFor(() => expect(puts(api).at(-1)).toEqual({ lessonId: 'set-nx-px', runIds: ['run-0', 'run-1'] }));
    expect(puts(api).map((p) => (p as { lessonId: string }).lessonId)).toEqual(['set-nx-px', 'owner-token-get-del', 'set-nx-px', 'set-nx-px']);
  });

  it('presenter keys do nothing while typing in a field', async () => {
    open('#/lessons/set-nx-px?presenter=1');
    await screen.findByTestId('lesson');
    const field = document.createElement('input');
    document.body.append(field);
    fireEvent.keyDown(field, { key: 'ArrowRight' });
    expect(window.location.hash).toBe('#/lessons/set-nx-px?presenter=1');
    field.remove();
  });

  it('runs a lesson of lab runs only, judged by its own sign', async () => {
    const noLock = lesson('no-lock');
    const api = open('#/lessons/no-lock', [
      { method: 'POST', path: 'runs', status: 201, body: queued('lab-1') },
      { path: 'runs/lab-1', body: run({ id: 'lab-1', result: result({ reconciliation: { ...result().reconciliation, lostUpdates: 7 } }) }) },
    ]);
    await userEvent.setup().click(await screen.findByTestId('run-lesson'));
    await waitFor(() => expect(window.location.hash).toBe('#/lessons/no-lock/lab-1'));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual(lessonRunParams(noLock, noLock.labRuns!.sides[0]));
    await waitFor(() => expect(screen.getByTestId('pitfall-side-broken')).toHaveAttribute('data-verdict', 'showed'));
    expect(puts(api)).toEqual([]);
  });
});

describe('follow mode', () => {
  it('shows the presenter\'s lesson and its runs as the course stream says, with no run button', async () => {
    open('#/follow', [
      { path: 'course', body: course({}) },
      { path: 'runs/run-0', body: queued('run-0') },
    ]);
    await waitFor(() => expect(FakeEventSource.instances.some((s) => s.url === 'api/course/events')).toBe(true));
    const stream = FakeEventSource.instances.find((s) => s.url === 'api/course/events') as FakeEventSource;
    act(() => stream.send('course', course({ lessonId: null, version: 1 })));
    expect(await screen.findByText(/The presenter has not opened a lesson yet/)).toBeInTheDocument();
    act(() => stream.send('course', course({ lessonId: 'watchdog', version: 2 })));
    expect(await screen.findByTestId('lesson-title')).toHaveTextContent(lesson('watchdog').title.en);
    act(() => stream.send('course', course({ lessonId: 'watchdog', runIds: ['run-0'], version: 3 })));
    expect(await screen.findByTestId('pitfall-side-broken')).toHaveAttribute('data-run-id', 'run-0');
    // An event older than the one shown is dropped.
    act(() => stream.send('course', course({ lessonId: 'no-lock', version: 2 })));
    expect(screen.getByTestId('lesson-title')).toHaveTextContent(lesson('watchdog').title.en);
    expect(screen.queryByTestId('run-lesson')).not.toBeInTheDocument();
  });

  it('the home page offers to follow the presenter while a course is on', async () => {
    open('#/lab', [{ path: 'course', body: course({ lessonId: 'watchdog', version: 4 }) }]);
    const offer = await screen.findByTestId('follow-offer');
    expect(offer).toHaveTextContent('lesson 8');
    expect(within(offer).getByRole('link', { name: 'Follow the presenter' })).toHaveAttribute('href', '/#/follow');
  });

  it('the Lab is filled from its address', async () => {
    open('#/lab?strategy=uuid-lua&initialStock=7&connections=3&durationSec=2');
    await waitFor(() => expect(screen.getByLabelText('Initial stock')).toHaveValue(7));
    expect(screen.getByLabelText('Connections')).toHaveValue(3);
    expect(screen.queryByTestId('follow-offer')).not.toBeInTheDocument();
  });
});
