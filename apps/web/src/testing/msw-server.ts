import { setupServer } from 'msw/node';

/** HTTP at the edge of component tests; each test adds the handlers it needs with `server.use`. */
export const server = setupServer();

export const API = 'http://portal.test/api';
