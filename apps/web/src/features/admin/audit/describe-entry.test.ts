import { describe, expect, it } from 'vitest';
import { describeAction, describeActor, describeDetail } from './describe-entry';

describe('an audit entry in words', () => {
  it('names actions, and refused calls by what they asked for', () => {
    expect(describeAction('users.remove-admin')).toBe('Removed admin');
    expect(describeAction('PATCH /api/users/:email')).toBe('Change a user');
    expect(describeAction('POST /api/me/step-up/options')).toBe('Passkey ceremony');
    expect(describeAction('GET /api/something-new')).toBe('A call to the portal');
    expect(describeAction('future.action')).toBe('future.action');
  });

  it('names who did it', () => {
    expect(describeActor('a@example.com')).toBe('a@example.com');
    expect(describeActor('cli:ops')).toBe('ops (command line)');
    expect(describeActor('service')).toBe('the invoice import service');
    expect(describeActor(null)).toBe('an anonymous caller');
  });

  it('drops user ids, hashes, warning numbers and status codes, keeping what a person can act on', () => {
    expect(describeDetail('403 You do not have permission.; not-admin; uid q1W2e3')).toBe(
      'You do not have permission.; not-admin',
    );
    expect(
      describeDetail(
        'deleting the sign-in account uid Zz9, which the portal did not make, as confirmed by a@example.com',
      ),
    ).toBe('deleting the sign-in account, which the portal did not make, as confirmed by a@example.com');
    expect(describeDetail('payment account …2051 -> …5555 (warning 12)')).toBe('payment account …2051 → …5555');
    expect(describeDetail('warning 7: uploader')).toBe('uploader');
    expect(describeDetail(`sha256 ${'0'.repeat(64)}`)).toBeNull();
    expect(describeDetail(null)).toBeNull();
  });
});
