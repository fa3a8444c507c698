import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { useActionFeedback } from './use-action-feedback';

describe('useActionFeedback', () => {
  it('shows a notice on the list it was given on, and drops it for good when the list changes', () => {
    const view = renderHook(({ listKey }) => useActionFeedback(listKey), { initialProps: { listKey: 'page 1' } });
    act(() => view.result.current.succeed({ text: 'a@x.com was deleted.' }));
    expect(view.result.current.notice?.text).toBe('a@x.com was deleted.');
    view.rerender({ listKey: 'page 2' });
    expect(view.result.current.notice).toBeNull();
    view.rerender({ listKey: 'page 1' });
    expect(view.result.current.notice).toBeNull();
  });

  it('keeps a notice the list carries on to another page by itself', () => {
    const view = renderHook(({ listKey }) => useActionFeedback(listKey), { initialProps: { listKey: 'page 3' } });
    act(() => view.result.current.succeed({ text: 'deleted' }));
    act(() => view.result.current.carryNoticeTo('page 2'));
    expect(view.result.current.notice?.text).toBe('deleted');
    view.rerender({ listKey: 'page 2' });
    expect(view.result.current.notice?.text).toBe('deleted');
    view.rerender({ listKey: 'page 3' });
    expect(view.result.current.notice).toBeNull();
  });

  it('gives a failure its reference only when the server failed (5xx)', () => {
    const view = renderHook(() => useActionFeedback('list'));
    act(() => view.result.current.fail('Refused.', new ApiError(409, 'Conflict', 'Refused.', 'req-409')));
    expect(view.result.current.error).toEqual({ message: 'Refused.', reference: undefined });
    act(() => view.result.current.fail('Broken.', new ApiError(500, '', 'Broken.', 'req-500')));
    expect(view.result.current.error).toEqual({ message: 'Broken.', reference: 'req-500' });
    act(() => view.result.current.dismissError());
    expect(view.result.current.error).toBeNull();
  });

  it('puts focus back where the failed action started once the error has been read', () => {
    const button = document.body.appendChild(document.createElement('button'));
    const view = renderHook(() => useActionFeedback('list'));
    act(() => view.result.current.fail('No.', new Error('no'), button));
    act(() => view.result.current.restoreFocus());
    expect(button).toHaveFocus();
    button.remove();
  });
});
