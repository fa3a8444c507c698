import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, SearchField } from './SearchField';

describe('SearchField', () => {
  it('sends what was typed, once typing pauses, to the onSearch of the latest render', async () => {
    const user = userEvent.setup();
    const before = vi.fn();
    const after = vi.fn();
    const { rerender } = render(<SearchField search="" onSearch={before} searching={false} />);
    await user.type(screen.getByLabelText('Search by email'), 'anna');
    // Something else changed the page meanwhile (another tab opened): its render's onSearch knows of it.
    rerender(<SearchField search="" onSearch={after} searching={false} />);
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100));
    expect(before).not.toHaveBeenCalled();
    expect(after).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledWith('anna');
  });

  it('sends a search still waiting for its pause when the field loses the focus, and only once', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    render(
      <>
        <SearchField search="" onSearch={onSearch} searching={false} />
        <button type="button">Audit log</button>
      </>,
    );
    await user.type(screen.getByLabelText('Search by email'), 'anna');
    await user.click(screen.getByRole('button', { name: 'Audit log' }));
    expect(onSearch).toHaveBeenCalledWith('anna');
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100));
    expect(onSearch).toHaveBeenCalledTimes(1);
    // Leaving it again with nothing typed since sends nothing.
    await user.click(screen.getByLabelText('Search by email'));
    await user.click(screen.getByRole('button', { name: 'Audit log' }));
    expect(onSearch).toHaveBeenCalledTimes(1);
  });
});
