import { z } from 'zod';

/**
 * Administrators confirm who they are with a passkey (WebAuthn) on top of their password. The ceremonies'
 * options and responses are WebAuthn's own JSON forms (what `@simplewebauthn/browser` takes and gives);
 * only the parts the portal relies on are spelled out, the rest passes through as the browser wrote it.
 */

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** GET /me/step-up: where the signed-in administrator stands. */
export const stepUpStatusSchema = z.object({
  /** How many passkeys this administrator has; 0 means the admin page asks them to set one up. */
  passkeys: z.number().int(),
  /** Until when this sign-in's passkey confirmation holds (ISO 8601); null when there is none or it ran out. */
  steppedUpUntil: z.string().nullable(),
  /** How long a confirmation holds. */
  maxAgeSeconds: z.number().int(),
  /**
   * Whether the password was entered recently enough (within `maxAgeSeconds`) to set up a first passkey;
   * when false, the admin page asks for the password again first.
   */
  recentSignIn: z.boolean(),
});
export type StepUpStatus = z.infer<typeof stepUpStatusSchema>;

/** POST /me/passkeys/options: PublicKeyCredentialCreationOptionsJSON, for navigator.credentials.create(). */
export const passkeyCreationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
  })
  .loose();
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptionsSchema>;

/** POST /me/step-up/options: PublicKeyCredentialRequestOptionsJSON, for navigator.credentials.get(). */
export const passkeyRequestOptionsSchema = z
  .object({
    challenge: z.string(),
    rpId: z.string().optional(),
    allowCredentials: z
      .array(z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() }))
      .optional(),
  })
  .loose();
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptionsSchema>;

const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** POST /me/passkeys: the browser's RegistrationResponseJSON. */
export const passkeyRegistrationSchema = z
  .object({
    ...credentialFields,
    response: z
      .object({
        clientDataJSON: base64url(8_192),
        attestationObject: base64url(65_536),
        transports: z.array(z.string().max(32)).max(16).optional(),
      })
      .loose(),
  })
  .loose();
export type PasskeyRegistration = z.infer<typeof passkeyRegistrationSchema>;

/** POST /me/step-up: the browser's AuthenticationResponseJSON. */
export const passkeyAssertionSchema = z
  .object({
    ...credentialFields,
    response: z
      .object({
        clientDataJSON: base64url(8_192),
        authenticatorData: base64url(8_192),
        signature: base64url(1_024),
        userHandle: base64url(1_024).optional(),
      })
      .loose(),
  })
  .loose();
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** What a successful enrollment or step-up answers: the confirmation now holds until this time. */
export const stepUpDoneSchema = z.object({ steppedUpUntil: z.string() });
export type StepUpDone = z.infer<typeof stepUpDoneSchema>;

/** DELETE /users/:email/passkeys: an administrator's passkeys were removed (recovery). */
export const passkeysResetSchema = z.object({ email: z.string(), removed: z.number().int() });
export type PasskeysReset = z.infer<typeof passkeysResetSchema>;
