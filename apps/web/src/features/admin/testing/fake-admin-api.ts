import {
  emailSchema,
  type AccountCleanupItem,
  type Approval,
  type AllowedUser,
  type AuditEntry,
  type BulkAddResult,
  type BulkDeleteResult,
  type StepUpStatus,
} from '@portal/contract';
import { delay, http, HttpResponse } from 'msw';
import { API } from '@/testing/msw-server';

/** The enrollment code a promotion or reset answers with here. */
export const FAKE_ENROLLMENT_CODE = '7K3M-QX9P-2RTV-8HWD';
const FAKE_CODE_EXPIRY = '2030-01-02T03:04:05.000Z';

export interface RecordedCall {
  method: string;
  /** Path and query after the API base, e.g. `/users?limit=50&offset=0`. */
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
  /** performance.now() when the handler saw the call. */
  at: number;
}

type Failure = { status: number; statusText?: string; message?: string; code?: string };

export const makeUser = (email: string, overrides: Partial<AllowedUser> = {}): AllowedUser => ({
  email,
  admin: false,
  finance: false,
  activated: true,
  registered: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  createdBy: 'admin@example.com',
  ...overrides,
});

const failureResponse = ({ status, statusText, message, code }: Failure) =>
  HttpResponse.json({ message: message ?? statusText ?? 'failed', ...(code && { code }) }, { status, statusText });

/** An admin who has a passkey and confirmed with it a moment ago: the admin page opens at once. */
export const steppedUp = (): StepUpStatus => ({
  passkeys: 1,
  steppedUpUntil: new Date(Date.now() + 600_000).toISOString(),
  maxAgeSeconds: 600,
  recentSignIn: true,
});

/**
 * The admin calls of the API as MSW handlers over an in-memory list, recording every call with its headers
 * so tests can check what was sent (bearer token, content type, body) and when.
 */
export function createFakeAdminApi(
  options: {
    users?: AllowedUser[];
    audit?: AuditEntry[];
    cleanups?: AccountCleanupItem[];
    stepUp?: StepUpStatus;
    approvals?: Approval[];
  } = {},
) {
  /** Requests waiting for a second administrator; `secondPerson.needed` makes promotions and resets wait. */
  const approvals = options.approvals ?? [];
  const secondPerson = { needed: false, nextId: 100 };
  /** A new request, as the server records it when a second administrator must approve. */
  const requestApproval = (kind: Approval['kind'], email: string): Approval => {
    const approval: Approval = {
      id: (secondPerson.nextId += 1),
      kind,
      email,
      requestedBy: 'admin@example.com',
      requestedAt: '2030-01-01T03:04:05.000Z',
      expiresAt: FAKE_CODE_EXPIRY,
      decision: null,
      decidedBy: null,
      decidedAt: null,
    };
    approvals.push(approval);
    return approval;
  };
  const users = new Map((options.users ?? []).map((user) => [user.email, user]));
  const audit = options.audit ?? [];
  const cleanups = options.cleanups ?? [];
  /** Addresses with a sign-in account the portal did not make: an add is refused unless it takes it over. */
  const foreignAccounts = new Set<string>();
  /** Addresses whose deletion leaves the sign-in account's clean-up pending (the provider did not answer). */
  const cleanupPending = new Set<string>();
  const calls: RecordedCall[] = [];
  const failNext: Partial<
    Record<
      | 'list'
      | 'create'
      | 'register'
      | 'delete'
      | 'patch'
      | 'audit'
      | 'bulkAdd'
      | 'bulkDelete'
      | 'end-sessions'
      | 'reset-passkeys'
      | 'enrollment-code',
      Failure | 'network'
    >
  > = {};
  /** What GET /me/step-up answers; tests change it to show the passkey step. */
  const stepUp = { status: options.stepUp ?? steppedUp(), asked: 0 };
  /** Deletes the server refuses, by address, every time they are asked for. */
  const refuseDelete = new Map<string, Failure>();
  /** How many deletes were in flight at once, at most: a bulk delete sends them one after another. */
  const deletesInFlight = { now: 0, peak: 0 };
  /** Adds the server fails, by address, in a bulk add (the identity provider refused them, say). */
  const refuseAdd = new Map<string, string>();
  /** Promises the list and bulk handlers wait for before answering, to observe the screen mid-call. */
  const gates: { list?: Promise<void>; bulk?: Promise<void> } = {};

  const record = async (request: Request) => {
    const url = new URL(request.url);
    const call: RecordedCall = {
      method: request.method,
      path: `${url.pathname.slice(new URL(API).pathname.length)}${url.search}`,
      authorization: request.headers.get('authorization'),
      contentType: request.headers.get('content-type'),
      body: await request.clone().text(),
      at: performance.now(),
    };
    calls.push(call);
    return call;
  };
  const takeFailure = (kind: keyof typeof failNext) => {
    const failure = failNext[kind];
    delete failNext[kind];
    return failure;
  };
  const fail = (failure: Failure | 'network') =>
    failure === 'network' ? HttpResponse.error() : failureResponse(failure);
  /** The bulk calls' body, each entry checked as the server checks it. */
  const bulkEntries = async (request: Request) =>
    ((await request.json()) as { emails: string[] }).emails.map((input) => ({
      input,
      parsed: emailSchema.safeParse(input),
    }));
  const refuseWithoutBearer = (call: RecordedCall) =>
    call.authorization?.startsWith('Bearer ')
      ? null
      : HttpResponse.json({ message: 'Sign in first.' }, { status: 401 });

  const handlers = [
    http.get(`${API}/users`, async ({ request }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      if (gates.list) await gates.list;
      const failure = takeFailure('list');
      if (failure) return fail(failure);
      const params = new URL(request.url).searchParams;
      const search = params.get('search')?.toLowerCase() ?? '';
      // Only the admins are told apart: the row menu counts them (the tests of the other filters read the call).
      const inStatus = (user: AllowedUser) => params.get('status') !== 'admin' || user.admin;
      const matching = [...users.values()]
        .filter((user) => user.email.includes(search) && inStatus(user))
        .sort((a, b) => a.email.localeCompare(b.email));
      const offset = Number(params.get('offset') ?? 0);
      const limit = Number(params.get('limit') ?? matching.length);
      return HttpResponse.json(matching.slice(offset, offset + limit), {
        headers: { 'x-total-count': String(matching.length) },
      });
    }),
    // Before POST /users/:email, which would take "bulk-add" for an address.
    http.post(`${API}/users/bulk-add`, async ({ request }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      if (gates.bulk) await gates.bulk;
      const failure = takeFailure('bulkAdd');
      if (failure) return fail(failure);
      const { finance } = (await request.clone().json()) as { finance?: boolean };
      const results = (await bulkEntries(request)).map(({ input, parsed }): BulkAddResult => {
        if (!parsed.success) return { input, outcome: 'invalid', message: 'Invalid email address' };
        const email = parsed.data;
        if (users.has(email)) return { input, outcome: 'exists', message: `${email} is already on the list.` };
        const refusal = refuseAdd.get(email);
        if (refusal) return { input, outcome: 'failed', message: refusal };
        users.set(email, makeUser(email, { activated: false, registered: true, finance: finance === true }));
        return { input, outcome: 'added' };
      });
      return HttpResponse.json({ results });
    }),
    http.post(`${API}/users/bulk-delete`, async ({ request }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      if (gates.bulk) await gates.bulk;
      const failure = takeFailure('bulkDelete');
      if (failure) return fail(failure);
      const results = (await bulkEntries(request)).map(({ input, parsed }): BulkDeleteResult => {
        if (!parsed.success) return { input, outcome: 'invalid', message: 'Invalid email address' };
        const email = parsed.data;
        if (!users.has(email)) return { input, outcome: 'not-found', message: `${email} is not on the list.` };
        const refusal = refuseDelete.get(email);
        if (refusal) return { input, outcome: 'refused', message: refusal.message ?? 'Refused' };
        users.delete(email);
        return cleanupPending.has(email)
          ? { input, outcome: 'deleted', message: 'Their sign-in account is deleted once the sign-in service answers.' }
          : { input, outcome: 'deleted' };
      });
      return HttpResponse.json({ results });
    }),
    http.post(`${API}/users/:email`, async ({ request, params }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      const failure = takeFailure('create');
      if (failure) return fail(failure);
      const email = decodeURIComponent(String(params.email));
      if (users.has(email)) return HttpResponse.json({ message: `${email} is already on the list.` }, { status: 409 });
      if (foreignAccounts.has(email)) {
        if (new URL(request.url).searchParams.get('takeOver') !== 'true') {
          return HttpResponse.json(
            {
              message: `${email} already has a sign-in account that this portal did not make.`,
              code: 'foreign-account',
            },
            { status: 409 },
          );
        }
        foreignAccounts.delete(email);
      }
      users.set(email, makeUser(email, { activated: false, registered: false }));
      return HttpResponse.json(users.get(email), { status: 201 });
    }),
    http.post(`${API}/users`, async ({ request }) => {
      await record(request);
      const failure = takeFailure('register');
      if (failure) return fail(failure);
      const { userId } = (await request.json()) as { userId: string };
      const user = users.get(userId);
      if (!user) return HttpResponse.json({ message: `${userId} is not on the list.` }, { status: 404 });
      users.set(userId, { ...user, registered: true });
      return HttpResponse.json({ email: userId, registered: true });
    }),
    http.patch(`${API}/users/:email`, async ({ request, params }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      const failure = takeFailure('patch');
      if (failure) return fail(failure);
      const email = decodeURIComponent(String(params.email));
      const user = users.get(email);
      if (!user) return HttpResponse.json({ message: `${email} is not on the list.` }, { status: 404 });
      const body = (await request.json()) as { admin?: boolean; finance?: boolean };
      if (body.admin === true && !user.admin && secondPerson.needed)
        return HttpResponse.json({ ...user, approval: requestApproval('make-admin', email) }, { status: 202 });
      const changed = { ...user, admin: body.admin ?? user.admin, finance: body.finance ?? user.finance };
      users.set(email, changed);
      // A new administrator or finance user comes back with the enrollment code of their first passkey.
      const granted = (changed.admin && !user.admin) || (changed.finance && !user.finance);
      const enrollment = granted ? { code: FAKE_ENROLLMENT_CODE, expiresAt: FAKE_CODE_EXPIRY } : undefined;
      return HttpResponse.json({ ...changed, ...(enrollment ? { enrollment } : {}) });
    }),
    http.delete(`${API}/users/:email`, async ({ request, params }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      const failure = takeFailure('delete');
      if (failure) return fail(failure);
      const email = decodeURIComponent(String(params.email));
      deletesInFlight.now += 1;
      deletesInFlight.peak = Math.max(deletesInFlight.peak, deletesInFlight.now);
      await delay(5);
      deletesInFlight.now -= 1;
      const refusal = refuseDelete.get(email);
      if (refusal) return failureResponse(refusal);
      users.delete(email);
      return HttpResponse.json({ email, accountCleanup: cleanupPending.has(email) ? 'pending' : 'done' });
    }),
    http.get(`${API}/account-cleanups`, async ({ request }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      return HttpResponse.json({ total: cleanups.length, items: cleanups });
    }),
    // Counted apart from `calls`, which tests read as the list's and actions' calls alone.
    http.get(`${API}/me/step-up`, ({ request }) => {
      stepUp.asked += 1;
      if (!request.headers.get('authorization')?.startsWith('Bearer '))
        return HttpResponse.json({ message: 'Sign in first.' }, { status: 401 });
      return HttpResponse.json(stepUp.status);
    }),
    http.delete(`${API}/users/:email/sessions`, async ({ request, params }) => {
      const call = await record(request);
      const failure = takeFailure('end-sessions');
      if (failure) return fail(failure);
      return refuseWithoutBearer(call) ?? HttpResponse.json({ email: String(params.email), ended: true });
    }),
    http.delete(`${API}/users/:email/passkeys`, async ({ request, params }) => {
      const call = await record(request);
      const failure = takeFailure('reset-passkeys');
      if (failure) return fail(failure);
      const email = String(params.email);
      if (secondPerson.needed && !refuseWithoutBearer(call))
        return HttpResponse.json({ email, approval: requestApproval('reset-passkeys', email) }, { status: 202 });
      return (
        refuseWithoutBearer(call) ??
        HttpResponse.json({
          email: String(params.email),
          removed: 1,
          enrollment: { code: FAKE_ENROLLMENT_CODE, expiresAt: FAKE_CODE_EXPIRY },
        })
      );
    }),
    http.post(`${API}/users/:email/enrollment-code`, async ({ request, params }) => {
      const call = await record(request);
      const failure = takeFailure('enrollment-code');
      if (failure) return fail(failure);
      const email = String(params.email);
      if (secondPerson.needed && !refuseWithoutBearer(call))
        return HttpResponse.json({ email, approval: requestApproval('enrollment-code', email) }, { status: 202 });
      return (
        refuseWithoutBearer(call) ??
        HttpResponse.json({ email, enrollment: { code: FAKE_ENROLLMENT_CODE, expiresAt: FAKE_CODE_EXPIRY } })
      );
    }),
    // Not recorded in `calls`, like the step-up status: tests read those as the list's and actions' calls.
    http.get(`${API}/approvals`, ({ request }) => {
      if (!request.headers.get('authorization')?.startsWith('Bearer '))
        return HttpResponse.json({ message: 'Sign in first.' }, { status: 401 });
      return HttpResponse.json(approvals.filter((approval) => approval.decision === null));
    }),
    http.post(`${API}/approvals/:id/:decision`, async ({ request, params }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      const approval = approvals.find((candidate) => candidate.id === Number(params.id));
      if (!approval || approval.decision !== null)
        return HttpResponse.json({ message: 'This request was already decided or has run out.' }, { status: 409 });
      const approved = params.decision === 'approve';
      Object.assign(approval, {
        decision: approved ? 'approved' : 'rejected',
        decidedBy: 'admin@example.com',
        decidedAt: '2030-01-01T04:00:00.000Z',
      });
      if (!approved) return HttpResponse.json(approval);
      const user = users.get(approval.email);
      if (user && approval.kind === 'make-admin') users.set(approval.email, { ...user, admin: true });
      return HttpResponse.json({ approval, enrollment: { code: FAKE_ENROLLMENT_CODE, expiresAt: FAKE_CODE_EXPIRY } });
    }),
    http.get(`${API}/audit`, async ({ request }) => {
      const call = await record(request);
      const refused = refuseWithoutBearer(call);
      if (refused) return refused;
      const failure = takeFailure('audit');
      if (failure) return fail(failure);
      await delay(1);
      const params = new URL(request.url).searchParams;
      const offset = Number(params.get('offset') ?? 0);
      const limit = Number(params.get('limit') ?? 50);
      const parcelCode = params.get('parcelCode');
      const user = params.get('user');
      // The server's event groups (audit/repository.ts), for the entries a test gives.
      const inGroup: Record<string, (entry: AuditEntry) => boolean> = {
        all: () => true,
        'no-confirmations': (entry) => entry.action !== 'passkeys.step-up',
        users: (entry) => entry.action.startsWith('users.') || entry.action.startsWith('sessions.'),
        invoices: (entry) => entry.action.startsWith('invoice.'),
        passkeys: (entry) => entry.action.startsWith('passkeys.'),
        refused: (entry) => entry.outcome === 'refused',
      };
      const group = inGroup[params.get('events') ?? 'all'];
      if (!group) return HttpResponse.json({ message: 'Invalid events' }, { status: 400 });
      const matching = audit.filter(
        (entry) =>
          (!parcelCode || entry.target === parcelCode) &&
          (!user || entry.actor === user || entry.target === user) &&
          group(entry),
      );
      return HttpResponse.json(matching.slice(offset, offset + limit), {
        headers: { 'x-total-count': String(matching.length) },
      });
    }),
  ];

  return {
    handlers,
    calls,
    users,
    failNext,
    refuseDelete,
    foreignAccounts,
    cleanupPending,
    cleanups,
    refuseAdd,
    deletesInFlight,
    gates,
    stepUp,
    approvals,
    secondPerson,
    /** The recorded calls other than the account lookup, as "METHOD path". */
    summary: () => calls.map((call) => `${call.method} ${call.path}`),
  };
}
