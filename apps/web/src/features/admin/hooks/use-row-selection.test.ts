import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useRowSelection } from './use-row-selection';

describe('useRowSelection', () => {
  it('selects rows of one page; another page starts empty; a row that left the page leaves the selection', () => {
    const view = renderHook(({ pageKey, rows }) => useRowSelection(pageKey, rows), {
      initialProps: { pageKey: 'p1', rows: ['a', 'b', 'c'] },
    });
    act(() => view.result.current.toggle('a', true));
    act(() => view.result.current.toggle('c', true));
    expect([...view.result.current.selected]).toEqual(['a', 'c']);
    view.rerender({ pageKey: 'p1', rows: ['b', 'c'] });
    expect([...view.result.current.selected]).toEqual(['c']);
    view.rerender({ pageKey: 'p2', rows: ['d'] });
    expect(view.result.current.selected.size).toBe(0);
    act(() => view.result.current.selectAll(true));
    expect([...view.result.current.selected]).toEqual(['d']);
    act(() => view.result.current.clear());
    expect(view.result.current.selected.size).toBe(0);
  });
});
