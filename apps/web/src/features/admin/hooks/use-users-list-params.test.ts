import { describe, expect, it } from 'vitest';
import { listKeyOf, readListParams, writeListParams } from './use-users-list-params';

const read = (query: string, defaultSize = 50) => readListParams(new URLSearchParams(query), defaultSize);

describe('the user list state in the address', () => {
  it('reads every part, the page counted from 1 in the address and from 0 in the screen', () => {
    expect(read('q=%20smith%20&status=invited&sort=-added&page=3&size=100')).toEqual({
      search: 'smith',
      status: 'invited',
      sort: '-added',
      page: 2,
      pageSize: 100,
    });
  });

  it('reads an empty or nonsensical address as the defaults, the phone size where asked', () => {
    const defaults = { search: '', status: undefined, sort: 'email', page: 0, pageSize: 50 };
    expect(read('')).toEqual(defaults);
    expect(read('status=root&sort=random&page=0&size=13')).toEqual(defaults);
    expect(read('page=1.5')).toEqual(defaults);
    expect(read('page=-2&size=abc', 25)).toEqual({ ...defaults, pageSize: 25 });
  });

  it('writes only what differs from the defaults, so the plain list has a plain address', () => {
    const plain = { search: '', status: undefined, sort: 'email', page: 0, pageSize: 50 } as const;
    expect(writeListParams(plain, 50).toString()).toBe('');
    expect(writeListParams({ ...plain, pageSize: 25 }, 25).toString()).toBe('');
    expect(writeListParams({ ...plain, pageSize: 50 }, 25).toString()).toBe('size=50');
    expect(
      writeListParams({ search: 'a b', status: 'admin', sort: 'added', page: 4, pageSize: 200 }, 50).toString(),
    ).toBe('q=a+b&status=admin&sort=added&page=5&size=200');
  });

  it('reads back what it writes', () => {
    const params = { search: 'x@y', status: 'activated', sort: '-email', page: 7, pageSize: 25 } as const;
    expect(read(writeListParams(params, 50).toString())).toEqual(params);
  });

  it('names a list by what the address says: the same list on a phone and a laptop, another for another page', () => {
    // The page size neither chose: a window resized across the breakpoint keeps its notice and selection.
    expect(listKeyOf(read('q=smith', 25), 25)).toBe(listKeyOf(read('q=smith', 50), 50));
    expect(listKeyOf(read('q=smith&size=25', 50), 50)).not.toBe(listKeyOf(read('q=smith', 50), 50));
    expect(listKeyOf(read('q=smith&page=2'), 50)).not.toBe(listKeyOf(read('q=smith'), 50));
  });
});
