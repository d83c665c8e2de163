import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { fakeApi } from './test/fake-api';
import { renderWithClient } from './test/render';

describe('App', () => {
  it('shows "cannot reach the order service" instead of crashing when there is no API', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderWithClient(<App />);
    expect(await screen.findByTestId('service-unreachable')).toHaveTextContent(
      'Cannot reach the order service, so could not load the strategies (network error)',
    );
    // The form still works from the strategy names the dashboard knows.
    expect(screen.getByRole('option', { name: 'lua-decrement' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start run' })).toBeEnabled();
  });

  it('navigates between views with the tabs and marks the current one', async () => {
    fakeApi([
      { path: 'strategies', body: [] },
      { path: 'scenarios', body: [] },
      { path: 'runs?limit=50', body: [] },
    ]);
    renderWithClient(<App />);
    expect(screen.getByRole('link', { name: 'Lab' })).toHaveAttribute('aria-current', 'page');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Compare' }));
    expect(await screen.findByTestId('compare-view')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/compare');
    expect(screen.getByRole('link', { name: 'Compare' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Lab' })).not.toHaveAttribute('aria-current');
  });
});
