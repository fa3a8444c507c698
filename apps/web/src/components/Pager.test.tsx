import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pager } from './Pager';

const pager = () => screen.getByRole('navigation', { name: 'invoices pages' });
const button = (name: string) => within(pager()).getByRole('button', { name });
/** The page buttons' labels in order, with "…" for a gap. */
const numbers = () =>
  Array.from(
    pager().querySelectorAll('button[aria-label], span[aria-hidden]'),
    (node) => node.getAttribute('aria-label') ?? node.textContent,
  );

describe('the pager', () => {
  // jsdom does not scroll; the browser's scrolling is checked end to end.
  beforeEach(() => void vi.spyOn(window, 'scrollTo').mockImplementation(() => {}));
  afterEach(() => vi.mocked(window.scrollTo).mockRestore());

  it('counts a fully counted list and stops at its last page', async () => {
    const onPage = vi.fn();
    render(<Pager page={2} pageSize={25} total={70} noun="invoices" onPage={onPage} />);
    expect(within(pager()).getByText('51–70 of 70 invoices')).toBeInTheDocument();
    expect(numbers()).toEqual(['Page 1', 'Page 2', 'Page 3']);
    expect(button('Next')).toBeDisabled();
    await userEvent.click(button('Page 2'));
    expect(onPage).toHaveBeenLastCalledWith(1);
  });

  it('goes on past a count that is only a lower bound, as deep as the server pages', async () => {
    const onPage = vi.fn();
    const { rerender } = render(
      <Pager page={39} pageSize={25} total={1000} totalIsAtLeast maxPage={400} noun="invoices" onPage={onPage} />,
    );
    expect(within(pager()).getByText('976–1,000 of more than 1,000 invoices')).toBeInTheDocument();
    expect(numbers()).toEqual(['Page 1', '…', 'Page 39', 'Page 40', 'Page 41', '…']);
    await userEvent.click(button('Next'));
    expect(onPage).toHaveBeenLastCalledWith(40);

    rerender(
      <Pager page={400} pageSize={25} total={1000} totalIsAtLeast maxPage={400} noun="invoices" onPage={onPage} />,
    );
    expect(button('Next')).toBeDisabled();
    expect(button('Page 401')).toHaveAttribute('aria-current', 'page');
  });

  it('says so when there is nothing, with no buttons', () => {
    render(<Pager page={0} pageSize={25} total={0} noun="invoices" onPage={() => {}} />);
    expect(within(pager()).getByText('No invoices')).toBeInTheDocument();
    expect(within(pager()).queryAllByRole('button')).toHaveLength(0);
  });
});
