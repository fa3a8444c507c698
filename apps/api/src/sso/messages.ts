/**
 * What a person refused at a company sign-in reads, each with what they can do next; `company` is the
 * deployment's SSO_BUTTON_LABEL, as on the button.
 */

export const otherDomainMessage = (company: string, domain: string) =>
  `Your ${company} account's address${domain ? ` (@${domain})` : ''} is not one this portal accepts for ${company} sign-in. Please sign in with your ${company} work account, or with your email and password.`;

export const unverifiedAddressMessage = (company: string) =>
  `${company} did not confirm that this email address is yours, so it cannot sign you in here. Please ask your IT team to confirm your address, or sign in with your email and password.`;

export const otherSubjectMessage = (company: string) =>
  `This ${company} account is not the one linked to your portal account. Please sign in with the ${company} account you used before, or ask the website administrator to reset the link.`;

export const linkNeedsPasswordMessage = (company: string) =>
  `Your portal account has a password. To link your ${company} account to it, sign in once with your email and password; after that, both ways work.`;

export const linkProofTooOldMessage = (company: string) =>
  `To link your ${company} account, please sign in with your email and password again, then link it within ten minutes.`;
