import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OversoldCounter } from './OversoldCounter';

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
});
