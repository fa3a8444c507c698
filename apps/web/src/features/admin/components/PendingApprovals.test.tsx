import type { Approval } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, FAKE_ENROLLMENT_CODE, makeUser } from '../testing/fake-admin-api';

const ADMIN = 'admin@example.com';
const OTHER = 'other@example.com';
const CANDIDATE = 'candidate@example.com';

const waiting = (overrides: Partial<Approval>): Approval => ({
  id: 7,
  kind: 'make-admin',
  email: CANDIDATE,
  requestedBy: OTHER,
  requestedAt: '2030-01-01T08:00:00.000Z',
  expiresAt: '2030-01-02T08:00:00.000Z',
  decision: null,
  decidedBy: null,
  decidedAt: null,
  ...overrides,
});

function setup(approvals: Approval[] = []) {
  const fake = createFakeAdminApi({
    users: [makeUser(ADMIN, { admin: true }), makeUser(OTHER, { admin: true }), makeUser(CANDIDATE)],
    approvals,
  });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  const rendered = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
  return { fake, ...rendered };
}

const approvalsRegion = () => screen.findByRole('region', { name: /Waiting for a second administrator/ });

describe('promotions and passkey resets waiting for a second administrator', () => {
  it("shows another admin's request with Approve and Reject; approving shows the enrollment code to the approver", async () => {
    const { fake, user } = setup([waiting({})]);
    const region = await approvalsRegion();
    expect(region).toHaveTextContent('Waiting for a second administrator: 1 request');
    expect(region).toHaveTextContent(`${OTHER} asks to make ${CANDIDATE} an administrator, until`);
    expect(within(region).getByRole('button', { name: `Reject the request about ${CANDIDATE}` })).toBeVisible();

    await user.click(within(region).getByRole('button', { name: `Approve the request about ${CANDIDATE}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Approve?' });
    expect(confirm).toHaveTextContent(`Make ${CANDIDATE} an administrator, as ${OTHER} asked?`);
    expect(fake.summary()).not.toContain('POST /approvals/7/approve');
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(`${CANDIDATE} is now an administrator.`);
    expect(notice).toHaveTextContent(`Enrollment code for ${CANDIDATE}'s first passkey: ${FAKE_ENROLLMENT_CODE}`);
    expect(fake.summary()).toContain('POST /approvals/7/approve');
    await waitFor(() => expect(screen.queryByRole('region', { name: /Waiting for a second/ })).toBeNull());
  });

  it('approving a new enrollment code shows the code to the approver, who is told the one before stopped working', async () => {
    const { fake, user } = setup([waiting({ kind: 'enrollment-code' })]);
    const region = await approvalsRegion();
    expect(region).toHaveTextContent(`${OTHER} asks for a new enrollment code for ${CANDIDATE}, until`);
    await user.click(within(region).getByRole('button', { name: `Approve the request about ${CANDIDATE}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Approve?' });
    expect(confirm).toHaveTextContent(`Give ${CANDIDATE} a new enrollment code, as ${OTHER} asked?`);
    expect(confirm).toHaveTextContent('they stay signed in');
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(
      `A new enrollment code for ${CANDIDATE} is ready; the one before no longer works.`,
    );
    expect(notice).toHaveTextContent(`Enrollment code for ${CANDIDATE}'s first passkey: ${FAKE_ENROLLMENT_CODE}`);
    expect(fake.summary()).toContain('POST /approvals/7/approve');
  });

  it('turns a request down without any change', async () => {
    const { fake, user } = setup([waiting({ kind: 'reset-passkeys', email: OTHER, requestedBy: 'third@example.com' })]);
    const region = await approvalsRegion();
    expect(region).toHaveTextContent(`third@example.com asks to reset the passkeys of ${OTHER}`);
    await user.click(within(region).getByRole('button', { name: `Reject the request about ${OTHER}` }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      `You turned down the request about ${OTHER}. Nothing was changed.`,
    );
    expect(fake.summary()).toContain('POST /approvals/7/reject');
    expect(fake.summary()).not.toContain('POST /approvals/7/approve');
  });

  it('tells whoever asked that the promotion waits, shows them no code, and lets them withdraw but not approve', async () => {
    const { fake, user } = setup();
    fake.secondPerson.needed = true;
    const table = await screen.findByRole('table', { name: 'Allowed users' });
    await user.click(within(table).getByRole('button', { name: `More actions for ${CANDIDATE}` }));
    await user.click(await screen.findByRole('button', { name: 'Make admin' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    await user.click(within(confirm).getByRole('button', { name: 'Make admin' }));

    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(
      `Making ${CANDIDATE} an administrator waits for a second administrator's approval. Nothing has changed yet.`,
    );
    expect(notice).toHaveTextContent('They, not you, are shown the enrollment code');
    expect(notice).not.toHaveTextContent(FAKE_ENROLLMENT_CODE);
    expect(document.body).not.toHaveTextContent(FAKE_ENROLLMENT_CODE);

    const region = await approvalsRegion();
    expect(region).toHaveTextContent(`${ADMIN} asks to make ${CANDIDATE} an administrator`);
    expect(region).toHaveTextContent('You asked for this: it waits for another administrator.');
    expect(within(region).queryByRole('button', { name: /Approve/ })).toBeNull();
    await user.click(within(region).getByRole('button', { name: `Withdraw your request about ${CANDIDATE}` }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      `You withdrew your request about ${CANDIDATE}. Nothing was changed.`,
    );
  });

  it('tells an admin a reset of their own passkeys waits for someone else, with no Approve', async () => {
    setup([waiting({ kind: 'reset-passkeys', email: ADMIN })]);
    const region = await approvalsRegion();
    expect(region).toHaveTextContent('This is about you: another administrator decides it.');
    expect(within(region).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(within(region).getByRole('button', { name: `Reject the request about ${ADMIN}` })).toBeVisible();
  });
});
