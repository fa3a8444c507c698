import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUsersListParams } from './use-users-list-params';

function useListAndLocation() {
  return { list: useUsersListParams(), location: useLocation(), navigate: useNavigate() };
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/admin?tab=audit']}>{children}</MemoryRouter>
);

describe("the admin page's address", () => {
  it('keeps every change made before the first has rendered, and what others wrote', () => {
    const { result } = renderHook(useListAndLocation, { wrapper });
    // Three filters picked before the screen renders any of them: each handler is the same render's.
    const { update } = result.current.list;
    act(() => {
      update({ status: 'invited' });
      update({ sort: '-email' });
      update({ pageSize: 25 });
    });
    expect(result.current.location.search).toBe('?status=invited&sort=-email&size=25&tab=audit');
  });

  it('starts from what the screen shows once it has moved on, by Back too', () => {
    const { result } = renderHook(useListAndLocation, { wrapper });
    act(() => result.current.list.update({ status: 'invited' }));
    expect(result.current.location.search).toBe('?status=invited&tab=audit');
    act(() => {
      void result.current.navigate(-1);
    });
    expect(result.current.location.search).toBe('?tab=audit');
    act(() => result.current.list.update({ sort: '-email' }));
    expect(result.current.location.search).toBe('?sort=-email&tab=audit');
  });
});
