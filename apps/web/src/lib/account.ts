import type { UserLookup } from '@portal/contract';
import type { ApiClient } from './api-client';

/**
 * The account lookup (GET /users/<email>): with the bearer token in the header and on the admin page (the
 * answer then carries the admin flag), without it on the login page.
 */
export async function getAccount(api: ApiClient, email: string, options: { auth: boolean }): Promise<UserLookup> {
  const { data } = await api.request(`/users/${encodeURIComponent(email)}`, {
    auth: options.auth,
    schema: userLookupParser,
  });
  return data;
}

// Hand-written for the same reason as checkRuntimeConfig: this runs on the first page.
const userLookupParser = {
  parse(value: unknown): UserLookup {
    const body = value as
      (Partial<Omit<UserLookup, 'admin' | 'finance'>> & { admin?: unknown; finance?: unknown }) | null;
    if (typeof body?.email !== 'string') throw new Error('Unexpected account lookup response');
    return {
      email: body.email,
      activated: body.activated === true,
      // The spec: any truthy admin value means admin.
      ...(body.admin === undefined ? {} : { admin: Boolean(body.admin) }),
      ...(body.finance === undefined ? {} : { finance: body.finance === true }),
    };
  },
};
