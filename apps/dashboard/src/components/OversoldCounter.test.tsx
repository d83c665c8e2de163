import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counterSize } from '../lib/counter-size';
import { OversoldCounter } from './OversoldCounter';

// Read from disk: vitest hands CSS imports to the test as empty strings.
const styles = readFileSync(resolve(import.meta.dirname, '../styles.css'), 'utf8');

describe('OversoldCounter', () => {
  it('stays calm at 0', () => {
    render(<OversoldCounter oversold={0} live={false} />);
    const counter = screen.getByTestId('oversold-counter');
    expect(counter).toHaveTextContent('0');
    expect(counter).toHaveAttribute('data-alarm', 'false');
    expect(counter).toHaveClass('oversold--ok');
    expect(counter).toHaveTextContent(/stock held/);
  });

  it('is a red alarm above 0', () => {
    render(<OversoldCounter oversold={3} live />);
    const counter = screen.getByTestId('oversold-counter');
    expect(counter).toHaveTextContent('3');
    expect(counter).toHaveAttribute('data-alarm', 'true');
    expect(counter).toHaveClass('oversold--alarm');
    expect(counter).toHaveTextContent(/OVERSOLD/);
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
    ])('%i: shown as %s, font step %s, never wrapping', (oversold, text, size) => {
      render(<OversoldCounter oversold={oversold} live={false} />);
      const value = screen.getByTestId('oversold-value');
      expect(value).toHaveTextContent(text);
      expect(screen.getByTestId('oversold-counter')).toHaveAttribute('data-value', String(oversold));
      expect(value).toHaveAttribute('data-size', size);
      expect(value).toHaveClass(`oversold-value--${size}`);
      // The width cap in styles.css divides the counter's width by the number's length.
      expect(value.style.getPropertyValue('--oversold-chars')).toBe(String(text.length));
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
    const rem = (size: string) => Number(new RegExp(`\\.oversold-value--${size} \\{\\s*--oversold-step: ([\\d.]+)rem`).exec(styles)?.[1]);
    const steps = ['xl', 'l', 'm', 's'].map(rem);
    expect(steps.every(Number.isFinite)).toBe(true);
    expect([...steps].sort((a, b) => b - a)).toEqual(steps);
    expect(styles).toMatch(/font-size: min\(var\(--oversold-step\), calc\(\d+cqi \/ var\(--oversold-chars/);
    expect(styles).toMatch(/\.oversold \{[^}]*container-type: inline-size/);
  });
});
