import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { missingKeys } from '../i18n/i18n';
// English in every test, and a text any view asks for that is missing fails that test.
import './i18n';

// jsdom lays nothing out: the router's scroll to the top on navigation and a view's scroll to a section do nothing here.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

// React warnings (keys, act, ...) and recharts' sizing warnings go to the console: any of them fails the test.
let consoleError: ReturnType<typeof vi.spyOn>;
let consoleWarn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
  consoleWarn = vi.spyOn(console, 'warn');
});

afterEach(() => {
  cleanup();
  window.location.hash = '';
  vi.unstubAllGlobals();
  expect(missingKeys.splice(0)).toEqual([]);
  expect(consoleError).not.toHaveBeenCalled();
  expect(consoleWarn).not.toHaveBeenCalled();
});

// jsdom lays nothing out and has no scrollIntoView; a test about scrolling spies on this one.
Element.prototype.scrollIntoView ??= () => undefined;
