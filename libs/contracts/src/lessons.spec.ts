import { COURSE_LIMITS } from './course';
import { faultSettingsProblems } from './faults';
import { findLesson, lessonRunParams, lessonSides, LESSONS, neighbourLessons } from './lessons';
import { LOCALES } from './locale';
import { PITFALL_PRESETS, findPitfallPreset } from './pitfall-presets';
import { STRATEGY_NAMES } from './strategies';

describe('LESSONS', () => {
  it('has unique, URL-safe ids within the course state bounds', () => {
    const ids = LESSONS.map((lesson) => lesson.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(id.length).toBeLessThanOrEqual(COURSE_LIMITS.lessonIdMaxLength);
    }
  });

  it('uses every pitfall preset (a preset added without a lesson fails here)', () => {
    const used = new Set(LESSONS.map((lesson) => lesson.preset));
    expect(PITFALL_PRESETS.map((preset) => preset.name).filter((name) => !used.has(name))).toEqual([]);
    for (const lesson of LESSONS) if (lesson.preset) expect(findPitfallPreset(lesson.preset)).toBeDefined();
  });

  it('runs every strategy of the catalogue in some lesson, and shows the code of those it runs', () => {
    const run = new Set(LESSONS.flatMap((lesson) => lessonSides(lesson).map(({ side }) => side.strategy)));
    expect(STRATEGY_NAMES.filter((name) => !run.has(name))).toEqual([]);
    for (const lesson of LESSONS) {
      expect(lesson.strategies.length).toBeGreaterThan(0);
      for (const strategy of lesson.strategies) expect(STRATEGY_NAMES).toContain(strategy);
    }
  });

  it('gives every lesson something to run, within what the course state keeps, with faults the service accepts', () => {
    for (const lesson of LESSONS) {
      const sides = lessonSides(lesson);
      expect(sides.length).toBeGreaterThan(0);
      expect(sides.length).toBeLessThanOrEqual(COURSE_LIMITS.runIdsMax);
      for (const { side } of sides) {
        const params = lessonRunParams(lesson, side);
        expect(params.scenario).toMatch(/^[\w-]+$/);
        expect(faultSettingsProblems(params.faults)).toEqual([]);
      }
    }
  });

  it('writes every text in every language', () => {
    for (const lesson of LESSONS) {
      const texts = [lesson.title, lesson.claim, lesson.question, ...(lesson.labRuns ? Object.values(lesson.labRuns.explanation) : []), ...(lesson.labRuns?.sides.map((s) => s.label) ?? [])];
      for (const text of texts) for (const locale of LOCALES) expect(text[locale].trim()).not.toBe('');
    }
  });

  it('declares the Sentinels the failover lesson needs', () => {
    const needing = LESSONS.filter((lesson) => lessonSides(lesson).some(({ side }) => side.settings.faults?.some((fault) => fault.kind === 'failover')));
    expect(needing.length).toBeGreaterThan(0);
    for (const lesson of needing) expect(lesson.needs).toContain('redis-sentinel');
  });

  it('finds a lesson and its neighbours', () => {
    const [first, second, third] = LESSONS;
    expect(findLesson(second.id)).toBe(second);
    expect(findLesson('nope')).toBeUndefined();
    expect(neighbourLessons(second.id)).toEqual({ previous: first, next: third });
    expect(neighbourLessons(first.id).previous).toBeUndefined();
    expect(neighbourLessons(LESSONS[LESSONS.length - 1].id).next).toBeUndefined();
  });
});
