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

/**
 * The one-time enrollment code a first passkey needs (XXXX-XXXX-XXXX-XXXX; case, spaces and dashes do not
 * matter), from the administrator who made this person an administrator or reset their passkeys, or from
 * the CLI. Not needed, and ignored, for a further passkey.
 */
export const enrollmentCodeSchema = z.string().trim().min(1).max(64);

/** POST /me/passkeys/options: the body, which may be empty for a further passkey. */
export const passkeyOptionsBodySchema = z.object({ enrollmentCode: enrollmentCodeSchema.optional() }).strict();
export type PasskeyOptionsBody = z.infer<typeof passkeyOptionsBodySchema>;

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

/** POST /me/passkeys: the browser's RegistrationResponseJSON, with the enrollment code for a first passkey. */
export const passkeyRegistrationSchema = z
  .object({
    ...credentialFields,
    enrollmentCode: enrollmentCodeSchema.optional(),
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

/**
 * What a successful enrollment or step-up answers: the confirmation now holds until this time, for the
 * browser that did it. The answer also sets the step-up secret as the HttpOnly cookie `portal_step_up`
 * (Path=/api, SameSite=Strict); admin calls carry it back as that cookie or in the `X-Admin-Step-Up` header.
 */
export const stepUpDoneSchema = z.object({ steppedUpUntil: z.string() });
export type StepUpDone = z.infer<typeof stepUpDoneSchema>;

/** The name of the request header that may carry the step-up secret instead of the cookie (scripts). */
export const STEP_UP_SECRET_HEADER = 'X-Admin-Step-Up';

/** A one-time enrollment code, shown once to whoever issued it: only its hash is kept. */
export const enrollmentCodeIssuedSchema = z.object({ code: z.string(), expiresAt: z.string() });
export type EnrollmentCodeIssued = z.infer<typeof enrollmentCodeIssuedSchema>;

/**
 * POST /users/:email/enrollment-code: a fresh one-time code for an administrator or finance user who has not set
 * up a passkey yet (the code they were given was lost, or ran out). The code they had stops working; their
 * sessions and anything else of theirs stay as they are.
 */
export const enrollmentCodeShownSchema = z.object({ email: z.string(), enrollment: enrollmentCodeIssuedSchema });
export type EnrollmentCodeShown = z.infer<typeof enrollmentCodeShownSchema>;

/**
 * DELETE /users/:email/passkeys: an administrator's passkeys were removed and their sessions ended
 * (recovery); `enrollment` is the code they set up a new passkey with.
 */
export const passkeysResetSchema = z.object({
  email: z.string(),
  removed: z.number().int(),
  enrollment: enrollmentCodeIssuedSchema,
});
export type PasskeysReset = z.infer<typeof passkeysResetSchema>;

/** An administrator's passkey as the admin list shows it: when it was set up and last used. */
export const passkeySummarySchema = z.object({ createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type PasskeySummary = z.infer<typeof passkeySummarySchema>;
