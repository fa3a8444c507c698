import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export const API = 'http://portal.test/api';

/**
 * HTTP at the edge of component tests; each test adds the handlers it needs with `server.use`. The one kept for
 * every test: signing out asks the API to clear the passkey confirmation's cookie, whatever the test is about.
 */
export const server = setupServer(http.delete(`${API}/me/step-up`, () => new HttpResponse(null, { status: 204 })));
