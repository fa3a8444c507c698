/**
 * Addresses every route with an e-mail in its path must refuse with a short `{ message }`: the status
 * each gets (the router answers 414 before validation for the 10 KB one).
 */
export const BAD_EMAIL_ADDRESSES = [
  ['not an e-mail', 'not-an-email', 400],
  ['an encoded slash', 'a%2Fb@example.com', 400],
  ['300 characters long', `${'a'.repeat(290)}@example.com`, 400],
  ['10 KB long', `${'a'.repeat(10_000)}@example.com`, 414],
] as const;
