import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from '@/lib/router';
import { describe, expect, it } from 'vitest';
import { AddressWrites, useAddressQuery } from './use-address-query';

function useAddressAndLocation() {
  return { address: useAddressQuery(), location: useLocation(), navigate: useNavigate() };
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/admin?tab=audit']}>{children}</MemoryRouter>
);

const setting = (name: string, value: string) => (current: URLSearchParams) => {
  const next = new URLSearchParams(current);
  next.set(name, value);
  return next;
};

describe("a screen's state in the address", () => {
  it('keeps every change made before the first has rendered, and what others wrote', () => {
    const { result } = renderHook(useAddressAndLocation, { wrapper });
    // Three filters picked before the screen renders any of them: each handler is the same render's.
    const { change } = result.current.address;
    act(() => {
      change(setting('status', 'invited'));
      change(setting('sort', '-email'));
      change(setting('size', '25'));
    });
    expect(result.current.location.search).toBe('?tab=audit&status=invited&sort=-email&size=25');
  });

  it('starts from what the screen shows once it has moved on, by Back too', () => {
    const { result } = renderHook(useAddressAndLocation, { wrapper });
    act(() => result.current.address.change(setting('status', 'invited')));
    expect(result.current.location.search).toBe('?tab=audit&status=invited');
    act(() => {
      void result.current.navigate(-1);
    });
    expect(result.current.location.search).toBe('?tab=audit');
    act(() => result.current.address.change(setting('sort', '-email')));
    expect(result.current.location.search).toBe('?tab=audit&sort=-email');
  });

  it('forgets a write the screen never rendered once the screen is gone', () => {
    const first = renderHook(useAddressAndLocation, { wrapper });
    // The admin leaves the page (the screen unmounts) before it has rendered the filter just picked.
    act(() => {
      first.result.current.address.change(setting('status', 'invited'));
      first.unmount();
    });
    const again = renderHook(useAddressAndLocation, { wrapper });
    act(() => again.result.current.address.change(setting('sort', '-email')));
    expect(again.result.current.location.search).toBe('?tab=audit&sort=-email');
  });
});

describe('the writes the screen has not caught up with', () => {
  it('start a change from the last write while the screen shows one from the middle of them', () => {
    // A search, then a filter, both written from the empty list; the screen then renders the search alone
    // (the router's transitions finish one at a time on a busy device) before the filter.
    const writes = new AddressWrites();
    writes.wrote('', 'q=smith');
    expect(writes.latest('')).toBe('q=smith');
    writes.wrote('', `${writes.latest('')}&status=invited`);
    writes.shown('q=smith');
    expect(writes.latest('q=smith')).toBe('q=smith&status=invited');
    writes.shown('q=smith&status=invited');
    expect(writes.latest('q=smith&status=invited')).toBe('q=smith&status=invited');
  });

  it('give way to an address the screen reached by itself, by Back or a link', () => {
    const writes = new AddressWrites();
    writes.wrote('q=smith', 'q=smith&status=invited');
    expect(writes.latest('tab=audit')).toBe('tab=audit');
    writes.wrote('tab=audit', 'tab=audit&sort=-email');
    // The chain the screen left is gone: its start is no longer taken for a write still on its way.
    expect(writes.latest('q=smith')).toBe('q=smith');
  });
});
