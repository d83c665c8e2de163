import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counterSize } from '../lib/counter-size';
import { StockHeadline } from './StockHeadline';

// Read from disk: vitest hands CSS imports to the test as empty strings.
const styles = readFileSync(resolve(import.meta.dirname, '../styles.css'), 'utf8');

const held = { oversold: 0, lostUpdates: 0, lost: 0 };

describe('StockHeadline', () => {
  it('is red with the count when units were sold twice and stock is left (not sold out)', () => {
    // uuid-lua, lease 100 ms, business 250 ms, 20 connections, 5 s, stock 100.
    render(<StockHeadline figures={{ oversold: 0, lostUpdates: 43, lost: 0 }} initialStock={100} sold={66} remaining={77} live={false} />);
    const headline = screen.getByTestId('stock-headline');
    expect(headline).toHaveAttribute('data-outcome', 'sold-twice');
    expect(headline).toHaveAttribute('data-value', '43');
    expect(headline).toHaveClass('stock-headline--sold-twice');
    expect(headline).toHaveTextContent('43 units sold twice');
    expect(headline).toHaveTextContent('66 sold, yet 77 of 100 still in stock');
    expect(headline).not.toHaveTextContent(/held|at most once/);
  });

  it('says how far beyond the stock a sold-out run went', () => {
    render(<StockHeadline figures={{ oversold: 3, lostUpdates: 3, lost: 0 }} initialStock={5} sold={8} remaining={0} live={false} />);
    expect(screen.getByTestId('stock-headline')).toHaveTextContent('3 units sold twice');
    expect(screen.getByTestId('stock-headline-what')).toHaveTextContent('8 sold of 5 in stock: 3 beyond it');
  });

  it('is green only when nothing was sold twice', () => {
    render(<StockHeadline figures={held} initialStock={100} sold={40} remaining={60} live={false} />);
    const headline = screen.getByTestId('stock-headline');
    expect(headline).toHaveAttribute('data-outcome', 'held');
    expect(headline).toHaveClass('stock-headline--held');
    expect(headline).toHaveTextContent('0 units sold twice');
    expect(headline).toHaveTextContent('every unit sold at most once');
  });

  it('shows stranded units in their own colour and words, never green and never as sold twice', () => {
    render(<StockHeadline figures={{ oversold: 0, lostUpdates: 0, lost: 6 }} initialStock={400} sold={394} remaining={0} live={false} />);
    const headline = screen.getByTestId('stock-headline');
    expect(headline).toHaveAttribute('data-outcome', 'stranded');
    expect(headline).toHaveAttribute('data-value', '0');
    expect(screen.getByTestId('stock-headline-stranded')).toHaveTextContent('6 units taken with no order');
  });

  it('says so when the store lost its keys, rather than claiming the stock held', () => {
    render(<StockHeadline figures={{ oversold: 0, lostUpdates: 0, lost: 0, storeLost: true }} initialStock={400} sold={100} remaining={0} live={false} />);
    expect(screen.getByTestId('stock-headline')).toHaveAttribute('data-outcome', 'store-lost');
    expect(screen.getByTestId('stock-headline-store-lost')).toHaveTextContent('lost its keys');
  });

  it('says "so far" while the run goes', () => {
    render(<StockHeadline figures={{ oversold: 0, lostUpdates: 2 }} initialStock={100} sold={10} remaining={92} live />);
    expect(screen.getByTestId('stock-headline')).toHaveTextContent('2 units sold twice so far');
  });

  describe('keeps the number on one line', () => {
    let sheet: HTMLStyleElement;
    beforeEach(() => {
      sheet = document.createElement('style');
      sheet.textContent = styles;
      document.head.append(sheet);
    });
    afterEach(() => sheet.remove());

    it.each([
      [7, '7', 'xl'],
      [137, '137', 'xl'],
      [1376, '1,376', 'l'],
      [98_765, '98,765', 'm'],
      [123_456, '123,456', 'm'],
      [1_234_567, '1,234,567', 's'],
    ])('%i: shown as %s, font step %s, never wrapping', (soldTwice, text, size) => {
      render(<StockHeadline figures={{ oversold: 0, lostUpdates: soldTwice }} initialStock={soldTwice + 1} sold={soldTwice} remaining={1} live={false} />);
      const value = screen.getByTestId('stock-headline-value');
      expect(value).toHaveTextContent(text);
      expect(screen.getByTestId('stock-headline')).toHaveAttribute('data-value', String(soldTwice));
      expect(value).toHaveAttribute('data-size', size);
      expect(value).toHaveClass(`stock-headline-value--${size}`);
      // The width cap in styles.css divides the counter's width by the number's length.
      expect(value.style.getPropertyValue('--headline-chars')).toBe(String(text.length));
      expect(getComputedStyle(value).whiteSpace).toBe('nowrap');
    });
  });

  it('steps the font down as the digits grow', () => {
    expect([0, 999, 1000, 9999, 10_000, 999_999, 1_000_000, 99_999_999].map(counterSize)).toEqual([
      'xl',
      'xl',
      'l',
      'l',
      'm',
      'm',
      's',
      's',
    ]);
  });

  it('sizes each step in the stylesheet and caps it by the counter width', () => {
    // jsdom lays nothing out, so the rules themselves are checked: a smaller step for more digits,
    // and a font size that is the smaller of the step and the container width over the length.
    const rem = (size: string) => Number(new RegExp(`\\.stock-headline-value--${size} \\{\\s*--headline-step: ([\\d.]+)rem`).exec(styles)?.[1]);
    const steps = ['xl', 'l', 'm', 's'].map(rem);
    expect(steps.every(Number.isFinite)).toBe(true);
    expect([...steps].sort((a, b) => b - a)).toEqual(steps);
    expect(styles).toMatch(/font-size: min\(var\(--headline-step\), calc\(\d+cqi \/ var\(--headline-chars/);
    expect(styles).toMatch(/\.stock-headline \{[^}]*container-type: inline-size/);
  });
});
