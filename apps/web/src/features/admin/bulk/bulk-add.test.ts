import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@/lib/api-client';
import { server } from '@/testing/msw-server';
import { API } from '@/testing/msw-server';
import { http, HttpResponse } from 'msw';
import { createFakeAdminApi } from '../testing/fake-admin-api';
import { bulkAdd, type BulkResult } from './bulk-add';

const api = createApiClient(API, async () => 'admin-token');

describe('bulkAdd', () => {
  it('waits out the rate limit on the register call instead of reporting a failure', async () => {
    const fake = createFakeAdminApi();
    let refusals = 2;
    server.use(
      http.post(`${API}/users`, () =>
        refusals-- > 0 ? HttpResponse.json({ message: 'Slow down.' }, { status: 429 }) : undefined,
      ),
      ...fake.handlers,
    );
    const wait = vi.fn(async () => {});
    const results: BulkResult[] = [];
    await bulkAdd(api, ['a@x.com'], { onResult: (result) => results.push(result), shouldStop: () => false, wait });
    expect(results).toEqual([{ input: 'a@x.com', outcome: 'added' }]);
    expect(wait).toHaveBeenCalledTimes(2);
    expect(fake.users.get('a@x.com')?.registered).toBe(true);
  });

  it('stops between addresses when asked', async () => {
    const fake = createFakeAdminApi();
    server.use(...fake.handlers);
    const results: BulkResult[] = [];
    await bulkAdd(api, ['a@x.com', 'b@x.com', 'c@x.com'], {
      onResult: (result) => results.push(result),
      shouldStop: () => results.length >= 1,
    });
    expect(results.map((result) => result.input)).toEqual(['a@x.com']);
    expect([...fake.users.keys()]).toEqual(['a@x.com']);
  });
});
