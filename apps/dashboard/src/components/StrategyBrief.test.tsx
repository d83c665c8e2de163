import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { strategy } from '../test/fixtures';
import { StrategyBrief } from './StrategyBrief';

describe('StrategyBrief', () => {
  it('tags a lock its description calls slow to hand over, and no other', () => {
    const { unmount } = render(<StrategyBrief strategy={strategy({ name: 'redlock-lib', kind: 'lock', grantRate: 'slow' })} />);
    expect(screen.getByText('slow hand-over')).toHaveAttribute('title', expect.stringMatching(/only a few times a second/));
    unmount();
    render(<StrategyBrief strategy={strategy({ name: 'uuid-lua', kind: 'lock' })} />);
    expect(screen.queryByText('slow hand-over')).toBeNull();
  });

  it('labels its kind and store badges, in words', () => {
    render(<StrategyBrief strategy={strategy({ kind: 'none', store: 'redis' })} />);
    expect(screen.getByTestId('brief-kind')).toHaveTextContent('lock: none');
    expect(screen.getByTestId('brief-store')).toHaveTextContent('store: redis');
  });
});
