import { describe, expect, it } from 'vitest';
import { emailFieldSchema } from './email-field';

const messageFor = (value: unknown) => emailFieldSchema.safeParse(value).error?.issues[0]?.message;

describe('emailFieldSchema', () => {
  it('says "Please enter a string" for a value that is not a string', () => {
    expect(messageFor(42)).toBe('Please enter a string');
    expect(messageFor({})).toBe('Please enter a string');
    expect(messageFor(undefined)).toBe('Please enter a string');
  });
  it('says "Required" for an empty or blank value', () => {
    expect(messageFor('')).toBe('Required');
    expect(messageFor('   ')).toBe('Required');
  });
  it('says "Invalid email address" for a malformed or oversized address', () => {
    expect(messageFor('not-an-email')).toBe('Invalid email address');
    expect(messageFor('a@b')).toBe('Invalid email address');
    expect(messageFor(`${'a'.repeat(10 * 1024)}@example.com`)).toBe('Invalid email address');
  });
  it('trims and lower-cases a valid address', () => {
    expect(emailFieldSchema.parse('  Invited@Example.COM ')).toBe('invited@example.com');
  });
});
