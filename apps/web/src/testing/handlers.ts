import { http, HttpResponse } from 'msw';
import { API } from './msw-server';

/** The account lookup as the API answers it: the admin flag only for a bearer caller. */
export const accountLookup = (accounts: Record<string, { admin?: boolean; activated?: boolean }>) =>
  http.get(`${API}/users/:email`, ({ request, params }) => {
    const email = decodeURIComponent(String(params.email));
    const account = accounts[email];
    if (!account)
      return HttpResponse.json({ message: 'No account is registered for this e-mail address.' }, { status: 404 });
    const withRole = request.headers.get('authorization')?.startsWith('Bearer ');
    return HttpResponse.json({
      email,
      activated: account.activated ?? true,
      ...(withRole ? { admin: account.admin ?? false } : {}),
    });
  });
